"""gauntlets: the queue of heroes' gauntlets, their progress, results and ratings

Revision ID: 0011
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "gauntlets",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("hero_ref", sa.String(length=200), nullable=False, unique=True),
        sa.Column("game", sa.String(length=40), nullable=False),
        sa.Column("hero_yaml", sa.Text(), nullable=False),
        sa.Column("hero_name", sa.String(length=80), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("size", sa.JSON(), nullable=False),
        sa.Column("state", sa.String(length=10), nullable=False),
        sa.Column("done", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("marks", sa.Text(), nullable=False),
        sa.Column("claim", sa.String(length=64), nullable=True),
        sa.Column("claimed_at", sa.DateTime(), nullable=True),
        sa.Column("heartbeat_at", sa.DateTime(), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
        sa.Column("results", sa.JSON(), nullable=True),
        sa.Column("mu", sa.Float(), nullable=True),
        sa.Column("sigma", sa.Float(), nullable=True),
        sa.Column("command", sa.Text(), nullable=False),
        sa.Column("error", sa.String(length=300), nullable=True),
    )
    op.create_index("ix_gauntlets_state", "gauntlets", ["state"])


def downgrade() -> None:
    op.drop_index("ix_gauntlets_state", table_name="gauntlets")
    op.drop_table("gauntlets")
