"""server_clock: when a server process was last known to be running

One row (id 1). Every server process stamps `alive_at` every few seconds (and once more when it
stops cleanly); a process that starts and finds nobody was alive for longer than a few seconds
moves the deadline and start of every running decision on by that gap, so that time while no
server ran does not count against anyone (app/live/downtime.py). Null until the first start:
nothing is moved then.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01
"""
import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    clock = op.create_table(
        "server_clock",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("alive_at", sa.DateTime(), nullable=True),
        sa.CheckConstraint("id = 1", name="ck_server_clock_one_row"),
    )
    op.bulk_insert(clock, [{"id": 1, "alive_at": None}])


def downgrade() -> None:
    op.drop_table("server_clock")
