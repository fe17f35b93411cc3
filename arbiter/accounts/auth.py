"""Authentication for the JSON API: `Authorization: Bearer <token>` or the session cookie."""

from functools import cache

from django.contrib.auth import get_user_model
from django.db import connection
from ninja.security import HttpBearer, SessionAuth

from arbiter.infra import sqlrows

from .models import ApiToken


@cache
def _token_sql() -> str:
    # One plain statement: every move is authenticated, and the ORM's select_related query
    # cost ~0.5 ms to build against ~0.03 ms for this (benchmarks/move_entry.py).
    user_model = get_user_model()
    quote = connection.ops.quote_name
    return (
        f"SELECT {sqlrows.columns(user_model, 'u')} FROM {quote(user_model._meta.db_table)} u "
        f"JOIN {quote(ApiToken._meta.db_table)} t ON t.user_id = u.id "
        "WHERE t.key = %s AND u.is_active"
    )


def user_for_token(key: str):
    """The active user holding the API token `key`, or None."""
    with sqlrows.cursor() as cursor:
        cursor.execute(_token_sql(), [key])
        row = cursor.fetchone()
    return None if row is None else sqlrows.instance(get_user_model(), row)


class TokenAuth(HttpBearer):
    def authenticate(self, request, token):
        user = user_for_token(token)
        if user is None:
            return None
        request.user = user
        return user


class OptionalAuth:
    """Anonymous readers are allowed; a token or session, where given, identifies the user."""

    def __call__(self, request):
        return True


#: Endpoints that change anything take a token or a logged-in session (CSRF-checked).
API_AUTH = [TokenAuth(), SessionAuth()]

#: Reads: anyone; a token or a session, where given, identifies the user (drafts for arbiters).
READ_AUTH = [TokenAuth(), SessionAuth(), OptionalAuth()]
