"""The errors a table raises for a request it cannot accept; each maps to an HTTP status."""
from __future__ import annotations


class GameError(Exception):
    """A request the table cannot accept; ``status`` is the HTTP status it maps to."""

    status = 400
    title = "Bad request"

    def __init__(self, detail: str, **extra):
        super().__init__(detail)
        self.detail = detail
        self.extra = extra


class NotFound(GameError):
    status, title = 404, "Not found"


class Unauthorized(GameError):
    status, title = 401, "Missing or unknown token"


class Forbidden(GameError):
    status, title = 403, "Not allowed"


class Conflict(GameError):
    status, title = 409, "Not possible in the current state"


class Invalid(GameError):
    status, title = 422, "Invalid content"
