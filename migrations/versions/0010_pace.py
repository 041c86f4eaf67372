"""pace: turn-based rooms, a seat's "away until", the host's pause

`rooms.pace` ("live", today's timers, or "turn": a time per decision of hours or days),
`rooms.paused_at` (when the host paused the game; null while it runs), `seats.away_until`
(the seat's player is away until then; null or past: not away) and `seats.away_used_s` (the
seconds of away time this seat's player has taken in the current game, the running away's
rest included: at most 7 days). app/pace.py, docs/protocol.md "Pace, away and pause".

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-03
"""
import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # In place (ALTER TABLE ADD COLUMN), never a batch copy of `rooms`: on SQLite a copy would
    # cascade-delete its seats and actions (see 0003). Server defaults only, so rows written by
    # older code stay valid.
    op.add_column("rooms", sa.Column("pace", sa.String(8), nullable=False, server_default="live"))
    op.add_column("rooms", sa.Column("paused_at", sa.DateTime(), nullable=True))
    op.add_column("seats", sa.Column("away_until", sa.DateTime(), nullable=True))
    op.add_column("seats", sa.Column("away_used_s", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    for table, column in (("seats", "away_used_s"), ("seats", "away_until"), ("rooms", "paused_at"),
                          ("rooms", "pace")):  # in place (SQLite >= 3.35)
        op.drop_column(table, column)
