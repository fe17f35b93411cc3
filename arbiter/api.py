"""The JSON API under /api/ (OpenAPI schema at /api/openapi.json, docs at /api/docs).

Domain errors are mapped to HTTP here, in one place; routers live beside their apps.
"""

from ninja.errors import HttpError, ValidationError

from arbiter import messages
from arbiter.accounts.auth import TokenAuthError
from arbiter.apidocs import DocumentedAPI
from arbiter.errors import DomainError

# DocumentedAPI: every operation's schema lists its error answers (ErrorOut).
api = DocumentedAPI(title="Draughts arbiter API", version="1", urls_namespace="api")


@api.exception_handler(DomainError)
def domain_error(request, exc: DomainError):
    return api.create_response(request, exc.as_dict(), status=exc.status)


@api.exception_handler(ValidationError)
def validation_error(request, exc: ValidationError):
    """A body or parameter of the wrong shape, in the same form as the services' errors:
    {"error": "invalid", "code": "request.invalid_fields", "params": {"fields": ["ply", ...]},
    "message": "ply: Field required; move: ...", "fields": [...]}."""
    fields = [
        {"field": _field(error.get("loc", ())), "message": error.get("msg", "invalid")}
        for error in exc.errors
    ]
    problems = [f"{f['field']}: {f['message']}" for f in fields]
    body = {
        "error": "invalid",
        "code": "request.invalid_fields",
        "params": {"fields": [f["field"] for f in fields]},
        "message": messages.render("request.invalid_fields", {"problems": problems}),
        "fields": fields,
    }
    return api.create_response(request, body, status=422)


def _field(loc) -> str:
    """("body", "payload", "ply") -> "ply"; a body that is not an object -> "body"."""
    where, names = (loc[0], loc[1:]) if loc else ("body", ())
    if where == "body":
        names = names[1:]  # the view's parameter name, not a field of the body
    return ".".join(str(name) for name in names) or str(where)


_HTTP_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found"}


@api.exception_handler(HttpError)
def http_error(request, exc: HttpError):
    message = str(exc.message)
    kind = _HTTP_CODES.get(exc.status_code, "error")
    code = f"request.{kind}"
    if message.startswith("Cannot parse request body"):
        code = "request.not_json"
    elif isinstance(exc, TokenAuthError):
        # A token was sent and refused: say why (wrong, expired, revoked), with its code.
        params = messages.jsonable(exc.params)
        body = {"error": kind, "code": exc.code, "params": params, "message": message}
        return api.create_response(request, body, status=exc.status_code)
    elif exc.status_code == 401:
        code = "request.not_logged_in"
    if code in messages.MESSAGES:
        message = messages.render(code)
    body = {"error": kind, "code": code, "params": {}, "message": message}
    return api.create_response(request, body, status=exc.status_code)


def register_routers() -> None:
    # Imported here so that each app's router module can import models freely.
    from arbiter.accounts.api import router as accounts_router
    from arbiter.events.api import router as events_router
    from arbiter.games.api import router as games_router
    from arbiter.games.api_confirmation import router as confirmation_router
    from arbiter.games.api_pdn import router as pdn_router
    from arbiter.games.api_sheets import router as sheets_router
    from arbiter.games.api_tablet import router as tablet_router

    # Games first: URL patterns are tried in order, and moves are most of the requests.
    api.add_router("/", games_router)
    api.add_router("/", events_router)
    api.add_router("/", sheets_router)
    api.add_router("/", confirmation_router)
    api.add_router("/", pdn_router)
    api.add_router("/", tablet_router)
    api.add_router("/", accounts_router)


register_routers()
