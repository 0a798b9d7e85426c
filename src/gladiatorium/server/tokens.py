"""Random tokens for sessions, bearer clients and invitations; only digests are stored."""

from __future__ import annotations

import hashlib
import secrets


def new_token() -> str:
    return secrets.token_urlsafe(32)


def digest_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
