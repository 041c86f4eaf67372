"""tutorial: a room made by "Learn to play" (issue 32)

`rooms.tutorial` (false by default): the room is a guided first game (app/tutorial.py): one
person and computer players on the prepared deal, started at once; its computer players and
the person's suggestions are the normal player seeded by the view (bots/tutorial.py), with a
short pause before a computer player moves. docs/ui.md "Learn to play".

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-03
"""
import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # In place (ALTER TABLE ADD COLUMN), never a batch copy of `rooms` (see 0010).
    op.add_column("rooms", sa.Column("tutorial", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    op.drop_column("rooms", "tutorial")  # in place (SQLite >= 3.35)
