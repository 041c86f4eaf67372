"""hints: the host's "hints allowed" and every hint a seat asked for

`rooms.hints` (the host allows a seat to ask "what would the computer do?" on its own
decision; off by default) and `hints`: one row per decision a hint was given for (room, the
game's seed, the version it was asked at), with the seat, the suggested action and its reason
(private to that seat while the game runs; the fact that a hint was used is public: the log,
the result, the record). app/live/hints.py, docs/protocol.md "Hints".

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-03
"""
import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # In place (ALTER TABLE ADD COLUMN), never a batch copy of `rooms` (see 0010).
    op.add_column("rooms", sa.Column("hints", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_table(
        "hints",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("room_id", sa.Integer(), sa.ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("action", sa.JSON(), nullable=False),
        sa.Column("why", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.UniqueConstraint("room_id", "seed", "version", name="uq_hints_room_seed_version"),
    )


def downgrade() -> None:
    op.drop_table("hints")
    op.drop_column("rooms", "hints")  # in place (SQLite >= 3.35)
