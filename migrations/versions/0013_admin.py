"""server_notice: the host's maintenance notice (the admin page, issue 33)

At most one row (id 1): the restart it announces (`restart_at`, UTC) and/or a short free text;
no row: no notice. Every server process reads it at start and when another process says it
changed (app/live/notice.py), and shows it on every table and the home page.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-03
"""
import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "server_notice",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("restart_at", sa.DateTime(), nullable=True),
        sa.Column("text", sa.String(200), nullable=True),
        sa.Column("set_at", sa.DateTime(), nullable=False),
        sa.CheckConstraint("id = 1", name="ck_server_notice_one_row"),
    )


def downgrade() -> None:
    op.drop_table("server_notice")
