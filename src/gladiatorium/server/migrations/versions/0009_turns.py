"""turns: the seats each match in progress waits on, and since when

Matches in progress before this revision get their rows at their next step.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "awaited_seats",
        sa.Column(
            "match_id",
            sa.String(length=16),
            sa.ForeignKey("matches.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.String(length=20), primary_key=True),
        sa.Column("since", sa.DateTime(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("awaited_seats")
