"""Alembic environment: migrate the connection the store hands over, or the
URL given with ``-x db=...`` on the command line."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from lawspeaker.store.models import Base

config = context.config
target_metadata = Base.metadata


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=target_metadata,
                          render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    url = context.get_x_argument(as_dictionary=True).get("db", "sqlite:///lawspeaker.db")
    engine = create_engine(url)
    with engine.connect() as conn:
        context.configure(connection=conn, target_metadata=target_metadata,
                          render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()


run()
