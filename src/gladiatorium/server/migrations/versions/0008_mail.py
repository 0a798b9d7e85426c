"""mail: addresses and what each person chose to receive, the outbox, and the marks
that keep a "your turn" notice and a deadline's reminder from going out twice

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "mail_addresses",
        sa.Column(
            "user_id",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("address", sa.String(length=254), nullable=False),
        sa.Column("confirmed", sa.Boolean(), nullable=False),
        sa.Column("confirm_hash", sa.String(length=64), nullable=True, unique=True),
        sa.Column("confirm_until", sa.DateTime(), nullable=True),
        sa.Column("confirm_sent_at", sa.DateTime(), nullable=True),
        sa.Column("unsubscribe", sa.String(length=64), nullable=False, unique=True),
        sa.Column("your_turn", sa.Boolean(), nullable=False),
        sa.Column("deadline", sa.Boolean(), nullable=False),
        sa.Column("match_over", sa.Boolean(), nullable=False),
        sa.Column("invited", sa.Boolean(), nullable=False),
    )
    op.create_table(
        "mail_outbox",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "user_id",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("kind", sa.String(length=12), nullable=False),
        sa.Column("key", sa.String(length=120), nullable=True, unique=True),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("not_before", sa.DateTime(), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("claim", sa.String(length=32), nullable=True),
        sa.Column("lease_until", sa.DateTime(), nullable=True),
        sa.Column("sent_at", sa.DateTime(), nullable=True),
        sa.Column("error", sa.String(length=300), nullable=True),
    )
    op.create_index("ix_mail_outbox_status_not_before", "mail_outbox", ["status", "not_before"])
    op.create_index("ix_mail_outbox_claim", "mail_outbox", ["claim"])
    op.create_index("ix_mail_outbox_user_id", "mail_outbox", ["user_id"])
    op.create_table(
        "mail_turn_marks",
        sa.Column(
            "user_id",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "match_id",
            sa.String(length=16),
            sa.ForeignKey("matches.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("ply", sa.Integer(), nullable=False),
    )
    op.create_table(
        "mail_reminders",
        sa.Column(
            "deadline_id",
            sa.Integer(),
            sa.ForeignKey("deadlines.id", ondelete="CASCADE"),
            primary_key=True,
        ),
    )


def downgrade() -> None:
    op.drop_table("mail_reminders")
    op.drop_table("mail_turn_marks")
    op.drop_index("ix_mail_outbox_user_id", table_name="mail_outbox")
    op.drop_index("ix_mail_outbox_claim", table_name="mail_outbox")
    op.drop_index("ix_mail_outbox_status_not_before", table_name="mail_outbox")
    op.drop_table("mail_outbox")
    op.drop_table("mail_addresses")
