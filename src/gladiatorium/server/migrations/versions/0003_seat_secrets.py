"""a guest's seat secret apart from the invitation link

Revision ID: 0003
Revises: 0002_sessions
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002_sessions"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("match_seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("secret_hash", sa.String(length=64), nullable=True))
    # a guest seated before: the link's token is their cookie, so it is their secret too
    op.execute("UPDATE match_seats SET secret_hash = token_hash WHERE guest AND kind = 'invite'")


def downgrade() -> None:
    with op.batch_alter_table("match_seats", schema=None) as batch_op:
        batch_op.drop_column("secret_hash")
