"""Alembic's environment: migrations run on the connection that ``migrate`` passes in.

From a shell: ``alembic -x url=sqlite:///path.db upgrade head`` with
``script_location`` set to this folder.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from potluck.server.db import Base

config = context.config
target_metadata = Base.metadata


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()
        return
    url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option(
        "sqlalchemy.url"
    )
    if not url:
        raise SystemExit("give the database as: alembic -x url=DATABASE_URL ...")
    with create_engine(url).connect() as own:
        context.configure(connection=own, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()
        own.commit()


run()
