"""The JSON API under /api/ (OpenAPI schema at /api/openapi.json, docs at /api/docs).

Domain errors are mapped to HTTP here, in one place; routers live beside their apps.
"""

from ninja import NinjaAPI

from arbiter.errors import DomainError

api = NinjaAPI(title="Draughts arbiter API", version="1", urls_namespace="api")


@api.exception_handler(DomainError)
def domain_error(request, exc: DomainError):
    return api.create_response(request, exc.as_dict(), status=exc.status)


def register_routers() -> None:
    # Imported here so that each app's router module can import models freely.
    from arbiter.events.api import router as events_router
    from arbiter.games.api import router as games_router
    from arbiter.games.arrival_api import router as arrival_router

    # Games first: URL patterns are tried in order, and moves are most of the requests.
    api.add_router("/", games_router)
    api.add_router("/", events_router)
    api.add_router("/", arrival_router)


register_routers()
