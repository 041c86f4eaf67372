"""rooms.creator_hash: whose address created a waiting room (per-address caps)

A hash of the creator's address (app/ratelimit.py `address_hash`), kept while the room waits
and cleared at the start; indexed for the count of one address's waiting rooms.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30
"""
import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("creator_hash", sa.String(32), nullable=True))
        batch.create_index("ix_rooms_creator_hash", ["creator_hash"])


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_index("ix_rooms_creator_hash")
        batch.drop_column("creator_hash")
