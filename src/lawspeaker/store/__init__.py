"""The store: games kept in a database (SQLite by default, PostgreSQL at scale).

:func:`open_store` takes a path or any SQLAlchemy URL, creates or upgrades the
schema with the bundled Alembic migrations, and returns a :class:`Store`, a
factory of sessions. Only :mod:`lawspeaker.service` reads and writes the tables.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.exc import ArgumentError, DBAPIError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.orm import Session, sessionmaker

from .models import Base

__all__ = ["DEFAULT_DB", "Store", "StoreBusy", "StoreError", "database_url", "open_store"]

SCHEMA_VERSION = "0007"
"""The newest migration in ``migrations/versions`` (a test checks they agree)."""

DEFAULT_DB = "lawspeaker.db"
"""The embedded default: an SQLite file in the working directory."""

_HERE = Path(__file__).parent


BUSY_TIMEOUT_S = 30
"""How long a write waits for SQLite's write lock before giving up (and saying so)."""


class StoreError(RuntimeError):
    """The database could not be opened or upgraded; the message says which and why."""


class StoreBusy(StoreError):
    """A write could not start in time: another process held the database too long.
    Nothing was written; the request may be sent again."""


def database_url(db: str | None = None) -> str:
    """The SQLAlchemy URL for ``db``, a path or a URL; else ``$LAWSPEAKER_DB``;
    else ``lawspeaker.db`` in the working directory."""
    db = db or os.environ.get("LAWSPEAKER_DB") or DEFAULT_DB
    if "://" in db:
        return db
    return f"sqlite:///{Path(db).expanduser()}"


class Store:
    """A database with lawspeaker's schema, and the two kinds of transaction
    the service runs on it.

    ``with store.transaction() as s:`` is a *write*: it is committed at the
    end and rolled back on any error, so a crash leaves the database as it was
    before. Writes to one game are one serialised story: on SQLite the write
    lock is taken when the transaction begins (``BEGIN IMMEDIATE``, and one
    writer at a time within a process), so everything it reads is what it
    writes against; on PostgreSQL the service locks the game's row
    (``SELECT ... FOR UPDATE``) before it reads anything else.

    ``with store.read() as s:`` is a *read*: one consistent snapshot (SQLite
    WAL; PostgreSQL ``REPEATABLE READ READ ONLY``) that never waits for a
    writer and never makes one wait. Writing in it is a programming error and
    raises."""

    def __init__(self, engine: Engine, busy_timeout: float = BUSY_TIMEOUT_S) -> None:
        self.engine = engine
        self.busy_timeout = busy_timeout
        sqlite = engine.dialect.name == "sqlite"
        if sqlite:
            writer = engine.execution_options(lawspeaker_begin="BEGIN IMMEDIATE")
            reader = engine.execution_options(lawspeaker_begin="BEGIN")
        else:
            writer = engine
            reader = engine.execution_options(isolation_level="REPEATABLE READ",
                                              postgresql_readonly=True)
        self._writes = sessionmaker(writer, expire_on_commit=False)
        self._reads = sessionmaker(reader, expire_on_commit=False)
        # SQLite has one writer at a time: threads of this process queue here
        # rather than spin in SQLite's busy handler (which is not first come,
        # first served); other processes are held off by BEGIN IMMEDIATE. Reentrant,
        # so a write mistakenly opened inside another fails with StoreBusy instead of
        # waiting for ever.
        self._one_writer = threading.RLock() if sqlite else None

    @property
    def url(self) -> str:
        return self.engine.url.render_as_string(hide_password=True)

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """A write transaction (see the class)."""
        with self._one_writer or nullcontext():
            try:
                with self._writes() as session, session.begin():
                    yield session
            except OperationalError as exc:
                if _locked(exc):
                    raise StoreBusy("the database is busy (another process held it for "
                                    f"more than {self.busy_timeout:g} s); nothing was "
                                    "written, try again") from None
                raise
            except PoolTimeout:
                raise StoreBusy("every connection to the database is in use; nothing was "
                                "written, try again") from None

    @contextmanager
    def read(self) -> Iterator[Session]:
        """A read-only snapshot (see the class)."""
        try:
            with self._reads() as session, session.begin():
                session.info["read_only"] = True
                yield session
        except PoolTimeout:
            raise StoreBusy("every connection to the database is in use; try again") from None

    def close(self) -> None:
        self.engine.dispose()


def _locked(exc: OperationalError) -> bool:
    return "database is locked" in str(exc.orig) or "database is busy" in str(exc.orig)


@event.listens_for(Session, "before_flush")
def _no_writes_in_reads(session: Session, _context: Any, _instances: Any) -> None:
    if session.info.get("read_only") and (session.new or session.dirty or session.deleted):
        raise RuntimeError("a read transaction tried to write (use Store.transaction)")


def _sqlite_pragmas(busy_timeout: float) -> Any:
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        # The driver's own transaction handling would begin only at the first
        # write, after the reads it depends on; we begin ourselves (below).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA journal_mode=WAL")  # readers never wait for a processing GM
        cursor.execute(f"PRAGMA busy_timeout={round(busy_timeout * 1000)}")
        cursor.close()

    return on_connect


def _sqlite_begin(connection: Any) -> None:
    """Begin as the session asked: a write takes the lock at once, so no other
    writer can change what it reads before it writes (SQLAlchemy's recipe for
    SQLite transactions)."""
    connection.exec_driver_sql(connection.get_execution_options().get(
        "lawspeaker_begin", "BEGIN IMMEDIATE"))


def open_store(db: str | None = None, busy_timeout: float = BUSY_TIMEOUT_S) -> Store:
    """Open (creating or migrating as needed) the database ``db``.
    ``busy_timeout``: seconds a write waits for SQLite's write lock."""
    url = database_url(db)
    try:
        engine = create_engine(url)
    except (ArgumentError, ImportError) as exc:
        raise StoreError(f"cannot use database '{url}': {exc}") from None
    if engine.dialect.name == "sqlite":
        path = engine.url.database
        if path and path != ":memory:" and not Path(path).parent.exists():
            raise StoreError(f"cannot create the database {path}: the folder "
                             f"{Path(path).parent} does not exist")
        event.listen(engine, "connect", _sqlite_pragmas(busy_timeout))
        event.listen(engine, "begin", _sqlite_begin)
    try:
        upgrade(engine)
    except Exception as exc:  # any driver error: unreachable server, locked file...
        engine.dispose()
        raise StoreError(f"cannot open database {engine.url.render_as_string()}: "
                         f"{str(exc).splitlines()[0]}") from None
    return Store(engine, busy_timeout)


def upgrade(engine: Engine) -> None:
    """Bring the schema to the newest migration. A current database is seen
    with one query, so opening one never loads Alembic."""
    try:
        with engine.execution_options(lawspeaker_begin="BEGIN").connect() as connection:
            current = connection.execute(text("SELECT version_num FROM alembic_version")
                                         ).scalar()
        if current == SCHEMA_VERSION:
            return
    except DBAPIError:
        pass  # a new database: no version table yet
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(_HERE / "migrations"))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


__all__ += ["Base"]
