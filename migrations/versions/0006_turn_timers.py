"""rooms.turn_limit_s, rooms.turn_at, rooms.deadline_at: turn timers

`turn_limit_s` is the host's time per decision (null = no timer). `turn_at` is when the
current decision began (written with every action's version move, and at the start);
`deadline_at` = turn_at + turn_limit_s (null without a timer or once the game is over),
indexed: every server process looks for the decisions past their deadline (app/live/timers.py).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-30
"""
import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # In place (ALTER TABLE ADD COLUMN), never a batch copy of `rooms`: on SQLite a copy would
    # cascade-delete its seats and actions (see 0003).
    op.add_column("rooms", sa.Column("turn_limit_s", sa.Integer(), nullable=True))
    op.add_column("rooms", sa.Column("turn_at", sa.DateTime(), nullable=True))
    op.add_column("rooms", sa.Column("deadline_at", sa.DateTime(), nullable=True))
    op.create_index("ix_rooms_deadline_at", "rooms", ["deadline_at"])


def downgrade() -> None:
    op.drop_index("ix_rooms_deadline_at", table_name="rooms")
    for column in ("deadline_at", "turn_at", "turn_limit_s"):  # in place (SQLite >= 3.35)
        op.drop_column("rooms", column)
