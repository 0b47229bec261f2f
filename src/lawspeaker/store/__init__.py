"""The store: games kept in a database (SQLite by default, PostgreSQL at scale).

:func:`open_store` takes a path or any SQLAlchemy URL, creates or upgrades the
schema with the bundled Alembic migrations, and returns a :class:`Store`, a
factory of sessions. Only :mod:`lawspeaker.service` reads and writes the tables.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.exc import ArgumentError, DBAPIError
from sqlalchemy.orm import Session, sessionmaker

from .models import Base

__all__ = ["DEFAULT_DB", "Store", "StoreError", "database_url", "open_store"]

SCHEMA_VERSION = "0003"
"""The newest migration in ``migrations/versions`` (a test checks they agree)."""

DEFAULT_DB = "lawspeaker.db"
"""The embedded default: an SQLite file in the working directory."""

_HERE = Path(__file__).parent


class StoreError(RuntimeError):
    """The database could not be opened or upgraded; the message says which and why."""


def database_url(db: str | None = None) -> str:
    """The SQLAlchemy URL for ``db``, a path or a URL; else ``$LAWSPEAKER_DB``;
    else ``lawspeaker.db`` in the working directory."""
    db = db or os.environ.get("LAWSPEAKER_DB") or DEFAULT_DB
    if "://" in db:
        return db
    return f"sqlite:///{Path(db).expanduser()}"


class Store:
    """A database with lawspeaker's schema. ``with store.transaction() as s:``
    runs one transaction: committed at the end, rolled back on any error, so a
    crash leaves the database as it was before."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    @property
    def url(self) -> str:
        return self.engine.url.render_as_string(hide_password=True)

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        with self._sessions() as session, session.begin():
            yield session

    def close(self) -> None:
        self.engine.dispose()


def _sqlite_pragmas(dbapi_connection, _record) -> None:  # type: ignore[no-untyped-def]
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")  # readers never wait for a processing GM
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


def open_store(db: str | None = None) -> Store:
    """Open (creating or migrating as needed) the database ``db``."""
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
        event.listen(engine, "connect", _sqlite_pragmas)
    try:
        upgrade(engine)
    except Exception as exc:  # any driver error: unreachable server, locked file...
        engine.dispose()
        raise StoreError(f"cannot open database {engine.url.render_as_string()}: "
                         f"{str(exc).splitlines()[0]}") from None
    return Store(engine)


def upgrade(engine: Engine) -> None:
    """Bring the schema to the newest migration. A current database is seen
    with one query, so opening one never loads Alembic."""
    try:
        with engine.connect() as connection:
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
