"""ratings of people (and bots) per game, and each match's places at its end

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import gladiatorium.server.db

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("ended_at", gladiatorium.server.db.UtcDateTime(), nullable=True)
        )
        batch_op.add_column(sa.Column("places", sa.JSON(), nullable=True))
        batch_op.create_index(batch_op.f("ix_matches_ended_at"), ["ended_at"], unique=False)
    op.create_table(
        "ratings",
        sa.Column("game", sa.String(length=40), nullable=False),
        sa.Column("player", sa.String(length=60), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("game", "player"),
    )
    op.create_index(op.f("ix_ratings_user_id"), "ratings", ["user_id"], unique=False)
    op.create_table(
        "rating_changes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.String(length=16), nullable=False),
        sa.Column("game", sa.String(length=40), nullable=False),
        sa.Column("player", sa.String(length=60), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu_after", sa.Float(), nullable=False),
        sa.Column("sigma_after", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("at", gladiatorium.server.db.UtcDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_rating_changes_match_id"), "rating_changes", ["match_id"])
    op.create_index(op.f("ix_rating_changes_player"), "rating_changes", ["player"])
    # matches that ended before: their end is their last action, their places unknown
    # (ratings begin with this version)
    op.execute(
        "UPDATE matches SET ended_at = (SELECT max(created_at) FROM match_actions "
        "WHERE match_actions.match_id = matches.id) WHERE status = 'over'"
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_rating_changes_player"), table_name="rating_changes")
    op.drop_index(op.f("ix_rating_changes_match_id"), table_name="rating_changes")
    op.drop_table("rating_changes")
    op.drop_index(op.f("ix_ratings_user_id"), table_name="ratings")
    op.drop_table("ratings")
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_matches_ended_at"))
        batch_op.drop_column("places")
        batch_op.drop_column("ended_at")
