"""The refusals the server answers with: each a :class:`ServiceError` whose ``status``
is its HTTP status (the routes turn it into a JSON error or an error page)."""

from __future__ import annotations

from gladiatorium.core import GladiatoriumError


class ServiceError(GladiatoriumError):
    """A request the server refuses; ``status`` is its HTTP status."""

    status = 400


class NotFound(ServiceError):
    status = 404


class Forbidden(ServiceError):
    status = 403


class Conflict(ServiceError):
    status = 409


class BadRequest(ServiceError):
    status = 422


class Clash(Conflict):
    """Another process appended the same ply first (the unique key refused ours)."""


class Claimed(Conflict):
    """A deadline another process (or an earlier tick) fired already."""


class Unauthorized(ServiceError):
    """Something only an account may do, asked without one; or a bearer token (or a
    session cookie where an account is needed) that is not, or no longer, a session."""

    status = 401


class TooMany(ServiceError):
    """A limit per account reached; ``retry_after``: seconds until there is room (if known)."""

    status = 429

    def __init__(self, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after
