"""Accounts: registration, passwords hashed with argon2, session and bearer tokens."""

from __future__ import annotations

import re

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from gladiatorium.server.db import LoginToken, User
from gladiatorium.server.service import BadRequest, Conflict, ServiceError
from gladiatorium.server.tokens import digest_token, new_token

USERNAME = re.compile(r"[A-Za-z0-9_.-]{3,40}")
_hasher = PasswordHasher()


class BadLogin(ServiceError):
    status = 401


def check_credentials(username: object, password: object) -> tuple[str, str]:
    if not isinstance(username, str) or not USERNAME.fullmatch(username):
        raise BadRequest("username: 3 to 40 letters, digits, '.', '_' or '-'")
    if not isinstance(password, str) or not 8 <= len(password) <= 200:
        raise BadRequest("password: 8 to 200 characters")
    return username, password


class Accounts:
    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self.sessions = sessions

    def register(self, username: object, password: object) -> tuple[User, str]:
        """A new account and its first login token."""
        name, secret = check_credentials(username, password)
        try:
            with self.sessions.begin() as session:
                user = User(username=name, password_hash=_hasher.hash(secret))
                session.add(user)
                session.flush()
                token = self._issue(session, user.id)
        except IntegrityError as err:
            raise Conflict(f"username {name!r} is taken") from err
        return user, token

    def login(self, username: object, password: object) -> tuple[User, str]:
        if not isinstance(username, str) or not isinstance(password, str):
            raise BadLogin("wrong username or password")
        with self.sessions.begin() as session:
            user = session.scalars(select(User).where(User.username == username)).one_or_none()
            if user is None or not _verify(user.password_hash, password):
                raise BadLogin("wrong username or password")
            if _hasher.check_needs_rehash(user.password_hash):
                user.password_hash = _hasher.hash(password)
            return user, self._issue(session, user.id)

    def logout(self, token: str) -> None:
        with self.sessions.begin() as session:
            session.execute(delete(LoginToken).where(LoginToken.token_hash == digest_token(token)))

    def user_of(self, token: str | None) -> User | None:
        if not token or len(token) > 200:
            return None
        with self.sessions() as session:
            row = session.get(LoginToken, digest_token(token))
            return None if row is None else session.get(User, row.user_id)

    @staticmethod
    def _issue(session: Session, user_id: int) -> str:
        token = new_token()
        session.add(LoginToken(token_hash=digest_token(token), user_id=user_id))
        return token


def _verify(password_hash: str, password: str) -> bool:
    try:
        return _hasher.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False
