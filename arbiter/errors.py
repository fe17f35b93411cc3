"""Domain errors raised by services; the API maps each to one HTTP status in one place.

An error carries a stable `code` ("move.not_next_ply") and its `params` (the ply, the
squares, the field); its words (`message`) are made from them in arbiter/messages.py. It may
carry machine-readable `details` too (for example the legal moves, or the current state of
a game after a stale ply). The API answers {"error": kind, "code", "params", "message", ...}.
"""

from typing import Any

from arbiter import messages


class DomainError(Exception):
    status = 400
    #: The kind of error, one per HTTP status (the API's "error").
    error = "bad_request"

    def __init__(self, code: str, /, *, details: dict[str, Any] | None = None, **params: Any):
        if code not in messages.MESSAGES:
            raise LookupError(f"error code {code!r} has no words in arbiter/messages.py")
        self.code = code
        self.params = params
        self.details = details or {}
        super().__init__(code)

    @property
    def message(self) -> str:
        return messages.render(self.code, self.params)

    def __str__(self) -> str:
        return self.message

    def as_dict(self) -> dict[str, Any]:
        return {
            "error": self.error,
            "code": self.code,
            "params": messages.jsonable(self.params),
            "message": self.message,
            **self.details,
        }


class NotFound(DomainError):
    status = 404
    error = "not_found"


class Forbidden(DomainError):
    status = 403
    error = "forbidden"


class Conflict(DomainError):
    status = 409
    error = "conflict"


class Unauthorized(DomainError):
    """Credentials, a token or a one-time code that are not accepted."""

    status = 401
    error = "unauthorized"


class TooManyAttempts(DomainError):
    """Too many failed logins or codes from an account or an address: wait."""

    status = 429
    error = "too_many_attempts"


class Invalid(DomainError):
    status = 422
    error = "invalid"


class Unavailable(DomainError):
    """The system cannot carry out requests just now (its database unreachable): try again."""

    status = 503
    error = "unavailable"
