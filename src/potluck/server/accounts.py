"""Accounts: a unique display name, an argon2id password hash, and sessions.

Accounts are optional: a guest sits down under any free name as before. An
account's name passes the same checks as a seat's name (``name_problem``), is
unique once folded (``name_key``: "Ann" and "ANN" are one name) and is never
"deleted player" (what every record shows of a deleted account) nor a bot's
("Bot ..."). The password (8 to 256 characters) is hashed with argon2id through
pwdlib, each with its own random salt, with OWASP's parameters (19 MiB, 2 passes,
1 lane), in a thread pool of two so that neither the event loop nor the
server's memory is at the mercy of a flood of logins.

A session is a random secret kept by the browser in an HTTP-only cookie; the
database keeps its SHA-256 and its expiry (30 days). Every process of a cluster
reads the same rows, so logging out (here or everywhere) holds at once on all.

    >>> name_key("  Ann  de  la  Mer ") == name_key("ann de la mer")
    True
    >>> account_name_problem("Deleted Player")
    'That name is kept for deleted accounts.'
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
import unicodedata
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeVar

from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher
from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session

from potluck.server.db import AccountRow, SessionRow, now, token_hash
from potluck.server.live import TableError
from potluck.server.settings import name_problem

T = TypeVar("T")

#: What every page and record shows instead of a deleted account's name.
DELETED_NAME = "deleted player"
SESSION_DAYS = 30
MIN_PASSWORD = 8
MAX_PASSWORD = 256
#: argon2id with OWASP's recommended parameters (Password Storage Cheat Sheet:
#: m=19 MiB, t=2, p=1): about 30 ms a hash here. A hash made with other parameters
#: is verified and then stored again with these (``verify_and_update``).
PASSWORDS = PasswordHash((Argon2Hasher(time_cost=2, memory_cost=19456, parallelism=1),))
#: Hashes computed at once: each takes 19 MiB.
HASH_THREADS = 2


def name_key(name: str) -> str:
    """A name folded for uniqueness: NFKC, case folded, spaces collapsed."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def no_account_is_named(name: str) -> bool:
    """Whether ``name`` fails the name checks, so that no account can carry it (it must
    never reach a query: PostgreSQL refuses to compare a text holding NUL)."""
    return name_problem(" ".join(name.split())) is not None


def account_name_problem(name: str) -> str | None:
    """Why ``name`` cannot be an account's (``None``: it can)."""
    problem = name_problem(name)
    if problem:
        return problem
    key = name_key(name)
    if key == DELETED_NAME:
        return "That name is kept for deleted accounts."
    if key == "bot" or key.startswith("bot "):
        return "A name starting with 'Bot' would look like a bot's."
    return None


def password_problem(password: str, name: str) -> str | None:
    """Why ``password`` will not do (``None``: it will)."""
    if len(password) < MIN_PASSWORD:
        return f"A password has at least {MIN_PASSWORD} characters."
    if len(password) > MAX_PASSWORD:
        return f"A password has at most {MAX_PASSWORD} characters."
    if name_key(password) == name_key(name):
        return "Your password must not be your name."
    return None


def csrf_token(session: str) -> str:
    """The CSRF token of a session: derived from its secret, so it needs no storage
    and no page of another site can know it (``X-CSRF-Token``)."""
    return hmac.new(session.encode(), b"potluck-csrf", hashlib.sha256).hexdigest()


@dataclass(frozen=True)
class Account:
    id: int
    name: str
    created_at: datetime

    def public(self) -> dict[str, Any]:
        return {"name": self.name, "created_at": self.created_at.isoformat()}


def _account(row: AccountRow) -> Account:
    return Account(row.id, row.name, row.created_at)


class AccountService:
    """Sign-up, login, sessions and passwords over the server's database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._hashing: ThreadPoolExecutor | None = None
        #: A hash to check a password against when the name has no account, so that a
        #: wrong name takes as long as a wrong password (the answer reveals nothing).
        self._dummy: str | None = None

    @property
    def hashing(self) -> ThreadPoolExecutor:
        """The hashing threads, started again if a stop closed them (an app whose
        lifespan runs again, as a test client's does each time it is entered)."""
        if self._hashing is None:
            self._hashing = ThreadPoolExecutor(HASH_THREADS, thread_name_prefix="potluck-hash")
        return self._hashing

    def close(self) -> None:
        if self._hashing is not None:
            self._hashing.shutdown(wait=False, cancel_futures=True)
            self._hashing = None

    async def _db(self, work: Callable[[], T]) -> T:
        """Run ``work`` (a transaction): off the event loop on a database server."""
        try:
            if self.engine.dialect.name == "sqlite":
                return work()
            return await asyncio.get_running_loop().run_in_executor(None, work)
        except SQLAlchemyError as error:
            if isinstance(error, IntegrityError):
                raise
            raise TableError(
                503, "storage_failed", "The server could not store this; nothing changed."
            ) from None

    async def _hash(self, password: str) -> str:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.hashing, PASSWORDS.hash, password)

    async def _verify(self, password: str, stored: str | None) -> tuple[bool, str | None]:
        loop = asyncio.get_running_loop()
        if stored is None:
            if self._dummy is None:
                self._dummy = await self._hash(secrets.token_urlsafe(16))
            await loop.run_in_executor(self.hashing, PASSWORDS.verify, password, self._dummy)
            return False, None
        return await loop.run_in_executor(
            self.hashing, PASSWORDS.verify_and_update, password, stored
        )

    # ------------------------------------------------------------------ finding

    def find_now(self, name: str) -> Account | None:
        """The account named ``name`` (any case), if any (a database call)."""
        if no_account_is_named(name):
            return None
        with Session(self.engine) as session:
            row = session.scalar(select(AccountRow).where(AccountRow.name_key == name_key(name)))
            return None if row is None else _account(row)

    async def find(self, name: str) -> Account | None:
        return await self._db(lambda: self.find_now(name))

    async def by_session(self, token: str) -> Account | None:
        """The account a session cookie speaks for (``None``: none, or expired)."""
        digest = token_hash(token)

        def read() -> Account | None:
            with Session(self.engine) as session:
                row = session.scalar(
                    select(AccountRow)
                    .join(SessionRow, SessionRow.account_id == AccountRow.id)
                    .where(SessionRow.token_hash == digest, SessionRow.expires_at > now())
                )
                return None if row is None else _account(row)

        return await self._db(read)

    # ------------------------------------------------------------------ signing up, logging in

    async def sign_up(self, name: str, password: str) -> tuple[Account, str]:
        """A new account and its first session's secret."""
        name = " ".join(name.split())
        problem = account_name_problem(name) or password_problem(password, name)
        if problem:
            code = "bad_name" if account_name_problem(name) else "bad_password"
            raise TableError(422, code, problem)
        digest = await self._hash(password)

        def store() -> tuple[Account, str]:
            with Session(self.engine) as session, session.begin():
                row = AccountRow(
                    name=name, name_key=name_key(name), password_hash=digest, created_at=now()
                )
                session.add(row)
                session.flush()
                return _account(row), self._new_session(session, row.id)

        try:
            return await self._db(store)
        except IntegrityError:
            raise TableError(
                409, "name_taken", f"The name {name!r} is taken: choose another."
            ) from None

    async def log_in(self, name: str, password: str) -> tuple[Account, str]:
        """A new session for the account, if the password is right. A wrong name and a
        wrong password get the same answer, after the same work."""
        key = name_key(name)

        def read() -> AccountRow | None:
            with Session(self.engine) as session:
                return session.scalar(select(AccountRow).where(AccountRow.name_key == key))

        # A name no account can carry is answered like a wrong password, after the same work.
        possible = not no_account_is_named(name) and len(password) <= MAX_PASSWORD
        row = await self._db(read) if possible else None
        stored = row.password_hash if row is not None else None
        right, rehashed = await self._verify(password[:MAX_PASSWORD], stored)
        if row is None or not right:
            raise TableError(401, "wrong_login", "Wrong name or password.")
        account_id = row.id

        def store() -> str:
            with Session(self.engine) as session, session.begin():
                if rehashed:
                    session.execute(
                        update(AccountRow)
                        .where(AccountRow.id == account_id)
                        .values(password_hash=rehashed)
                    )
                session.execute(delete(SessionRow).where(SessionRow.expires_at <= now()))
                return self._new_session(session, account_id)

        return _account(row), await self._db(store)

    @staticmethod
    def _new_session(session: Session, account_id: int) -> str:
        token = secrets.token_urlsafe(32)
        moment = now()
        session.execute(
            insert(SessionRow).values(
                token_hash=token_hash(token),
                account_id=account_id,
                created_at=moment,
                expires_at=moment + timedelta(days=SESSION_DAYS),
            )
        )
        return token

    async def log_out(self, token: str) -> None:
        def drop() -> None:
            with Session(self.engine) as session, session.begin():
                session.execute(
                    delete(SessionRow).where(SessionRow.token_hash == token_hash(token))
                )

        await self._db(drop)

    async def log_out_everywhere(self, account: Account, *, keep: str | None = None) -> int:
        """End every session of ``account`` (but ``keep``'s); how many ended."""

        def drop() -> int:
            with Session(self.engine) as session, session.begin():
                query = delete(SessionRow).where(SessionRow.account_id == account.id)
                if keep is not None:
                    query = query.where(SessionRow.token_hash != token_hash(keep))
                return int(session.execute(query).rowcount or 0)  # type: ignore[attr-defined]

        return await self._db(drop)

    # ------------------------------------------------------------------ passwords

    async def check_password(self, account: Account, password: str) -> None:
        """Refuse (401 ``wrong_password``) unless ``password`` is the account's."""

        def read() -> str | None:
            with Session(self.engine) as session:
                return session.scalar(
                    select(AccountRow.password_hash).where(AccountRow.id == account.id)
                )

        stored = await self._db(read) if len(password) <= MAX_PASSWORD else None
        right, _ = await self._verify(password[:MAX_PASSWORD], stored)
        if not right:
            raise TableError(401, "wrong_password", "Wrong password.")

    async def change_password(
        self, account: Account, current: str, new: str, session_token: str
    ) -> None:
        """A new password; every other session of the account ends (this one stays)."""
        await self.check_password(account, current)
        problem = password_problem(new, account.name)
        if problem:
            raise TableError(422, "bad_password", problem)
        digest = await self._hash(new)

        def store() -> None:
            with Session(self.engine) as session, session.begin():
                session.execute(
                    update(AccountRow)
                    .where(AccountRow.id == account.id)
                    .values(password_hash=digest)
                )
                session.execute(
                    delete(SessionRow).where(
                        SessionRow.account_id == account.id,
                        SessionRow.token_hash != token_hash(session_token),
                    )
                )

        await self._db(store)
