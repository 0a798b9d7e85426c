"""sessions expire: login_tokens.last_used_at

Revision ID: 0002_sessions
Revises: 0001

Existing tokens take their creation time as their last use, so that a token unused for
longer than the session lifetime expires at once.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import gladiatorium.server.db

revision = "0002_sessions"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("login_tokens", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("last_used_at", gladiatorium.server.db.UtcDateTime(), nullable=True)
        )
    op.execute("UPDATE login_tokens SET last_used_at = created_at")
    with op.batch_alter_table("login_tokens", schema=None) as batch_op:
        batch_op.alter_column(
            "last_used_at", existing_type=gladiatorium.server.db.UtcDateTime(), nullable=False
        )
        batch_op.create_index(
            batch_op.f("ix_login_tokens_last_used_at"), ["last_used_at"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("login_tokens", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_login_tokens_last_used_at"))
        batch_op.drop_column("last_used_at")
