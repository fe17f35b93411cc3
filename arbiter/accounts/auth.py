"""Authentication for the JSON API: `Authorization: Bearer <token>` or the session cookie."""

from ninja.security import HttpBearer, SessionAuth

from .models import ApiToken


class TokenAuth(HttpBearer):
    def authenticate(self, request, token):
        found = (
            ApiToken.objects.select_related("user").filter(key=token, user__is_active=True).first()
        )
        if found is None:
            return None
        request.user = found.user
        return found.user


class OptionalAuth:
    """Anonymous readers are allowed; a token or session, where given, identifies the user."""

    def __call__(self, request):
        return True


#: Endpoints that change anything take a token or a logged-in session (CSRF-checked).
API_AUTH = [TokenAuth(), SessionAuth()]
