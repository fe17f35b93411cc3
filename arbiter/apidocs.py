"""The API's one error form in its OpenAPI schema: every operation documents the error answers
it can give ({"error": kind, "code", "params", "message": words, ...details}), added here
in one place, as the errors themselves are mapped to HTTP in one place (arbiter/api.py).
"""

from __future__ import annotations

from typing import Any

from ninja import NinjaAPI, Schema
from pydantic import ConfigDict, Field


class ErrorOut(Schema):
    """Every error answer: its kind (one per status), a stable code with its parameters (the
    words of each code are in arbiter/messages.py), and the message in words; some carry
    details (e.g. `fields` for a request of the wrong shape, `errors` for a CSV's lines,
    `game` for a stale ply, `retry_after` for too many login attempts)."""

    model_config = ConfigDict(extra="allow")

    error: str = Field(..., description="the kind of error, e.g. not_found, invalid")
    code: str = Field(..., description='a stable code, e.g. "move.not_next_ply"')
    params: dict[str, Any] = Field(..., description="the code's parameters")
    message: str = Field(..., description="the code's words with its parameters")


ERRORS = {
    "400": "bad request (e.g. a body that is not JSON)",
    "401": "not logged in, or a wrong, expired or revoked API token",
    "403": "logged in without the role this needs (or a token scoped elsewhere)",
    "404": "not found, or not published (drafts are not shown)",
    "409": "conflicts with the current state (e.g. a stale ply), which the answer holds",
    "413": "the request body is larger than the limit",
    "422": "a value out of its bounds or of the wrong shape; `fields` says which",
    "429": "too many failed logins: `retry_after` seconds to wait",
    "503": "the database cannot be reached for a moment: try again",
}
_WRITES = {"post", "put", "patch", "delete"}


def error_statuses(method: str, path: str, operation: dict) -> list[str]:
    """The error answers an operation can give."""
    statuses = ["401", "403", "422", "503"]
    if "{" in path:
        statuses.append("404")
    if method in _WRITES:
        statuses += ["400", "409", "404"]
    if "requestBody" in operation:
        statuses.append("413")
    if operation.get("operationId", "").endswith("issue_token"):
        statuses.append("429")
    return sorted(set(statuses))


class DocumentedAPI(NinjaAPI):
    def get_openapi_schema(self, *args, **kwargs):
        schema = super().get_openapi_schema(*args, **kwargs)
        components = schema.setdefault("components", {}).setdefault("schemas", {})
        components["ErrorOut"] = ErrorOut.model_json_schema()
        ref = {"$ref": "#/components/schemas/ErrorOut"}
        for path, operations in schema.get("paths", {}).items():
            for method, operation in operations.items():
                if not isinstance(operation, dict) or "responses" not in operation:
                    continue
                responses = operation["responses"]
                for status in error_statuses(method, path, operation):
                    responses.setdefault(
                        status,
                        {
                            "description": ERRORS[status],
                            "content": {"application/json": {"schema": ref}},
                        },
                    )
        return schema
