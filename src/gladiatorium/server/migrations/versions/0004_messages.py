"""talk: messages of a match's channels, mutes and how far each reader has read

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "messages",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "match_id",
            sa.String(length=16),
            sa.ForeignKey("matches.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("channel", sa.String(length=60), nullable=False),
        sa.Column("seat", sa.String(length=20), nullable=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("edited_at", sa.DateTime(), nullable=True),
        sa.Column("deleted", sa.Boolean(), nullable=False),
        sa.Column("hidden", sa.Boolean(), nullable=False),
    )
    op.create_index("ix_messages_match_id_id", "messages", ["match_id", "id"])
    op.create_table(
        "message_mutes",
        sa.Column(
            "user_id",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("muted", sa.String(length=80), primary_key=True),
    )
    op.create_table(
        "message_reads",
        sa.Column(
            "match_id",
            sa.String(length=16),
            sa.ForeignKey("matches.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("reader", sa.String(length=80), primary_key=True),
        sa.Column("channel", sa.String(length=60), primary_key=True),
        sa.Column("last_id", sa.Integer(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("message_reads")
    op.drop_table("message_mutes")
    op.drop_index("ix_messages_match_id_id", table_name="messages")
    op.drop_table("messages")
