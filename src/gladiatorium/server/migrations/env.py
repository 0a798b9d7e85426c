"""Alembic environment: runs on the connection the server hands it (see db.migrate)."""

from __future__ import annotations

from alembic import context

from gladiatorium.server.db import Base

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
