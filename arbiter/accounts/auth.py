"""Authentication for the JSON API: `Authorization: Bearer <token>` or the session cookie.

A request that sends a token is judged by the token alone: a wrong, expired or revoked one
gets 401 saying so (it never falls back to the session, whose CSRF check answered "403 CSRF
check Failed" before). Without a token, a logged-in session is used, CSRF-checked on writes;
without either, a write gets 401.
"""

from ninja.errors import AuthenticationError
from ninja.security import HttpBearer, SessionAuth

from . import tokens


class TokenAuthError(AuthenticationError):
    """401 with the reason the token was refused: its code, params and words (arbiter/api.py
    answers them in the API's error form)."""

    def __init__(self, refused: tokens.TokenRefused):
        super().__init__(401, refused.message)
        self.code = refused.code
        self.params = refused.params


def user_for_token(secret: str):
    """The active user holding the valid API token `secret`, or None."""
    try:
        return tokens.resolve(secret)[0]
    except tokens.TokenRefused:
        return None


class TokenAuth(HttpBearer):
    def authenticate(self, request, token):
        try:
            user, scope = tokens.resolve(token)
        except tokens.TokenRefused as exc:
            raise TokenAuthError(exc) from None
        if not scope.unscoped:
            match = getattr(request, "resolver_match", None)
            kwargs = match.kwargs if match is not None else {}
            path_ids = {
                k: int(v)
                if isinstance(v, str) and v.isascii() and v.isdigit() and len(v) < 20
                else v
                for k, v in kwargs.items()
                if k.endswith("_id")
            }
            tokens.check_scope(scope, request.method, path_ids)
            if scope.device:
                # A board's tablet acts on the game of this request only, for its players
                # (events.permissions.board_device), never with anyone's role.
                user.device_game_id = path_ids.get("game_id")
        request.user = user
        request.token_scope = scope
        return user


class SessionLogin(SessionAuth):
    """Django's session, CSRF-checked; no session is no login (401), not a CSRF failure."""

    def __call__(self, request):
        if "HTTP_AUTHORIZATION" in request.META:
            return None  # a token was sent: TokenAuth judged it
        if not request.user.is_authenticated:
            return None
        return super().__call__(request)


class OptionalAuth:
    """Anonymous readers are allowed; a token or session, where given, identifies the user."""

    def __call__(self, request):
        return True


#: Endpoints that change anything take a token or a logged-in session (CSRF-checked).
API_AUTH = [TokenAuth(), SessionLogin()]

#: Reads: anyone; a token or a session, where given, identifies the user (drafts for arbiters).
#: A token that is sent is still judged: a wrong one gets 401, not an anonymous answer.
READ_AUTH = [TokenAuth(), SessionLogin(), OptionalAuth()]
