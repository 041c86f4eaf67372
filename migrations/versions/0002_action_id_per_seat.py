"""action ids are unique per seat: (room, seat, action_id) replaces (room, action_id)

A client's `act` id and a computer player's id no longer share one namespace per room, so a
player cannot plant ids that make another seat's actions come back "duplicate".

Revision ID: 0002
Revises: 0001
Create Date: 2025-01-02
"""
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # batch_alter_table: SQLite cannot drop a constraint in place (the table is copied);
    # on PostgreSQL this is a plain ALTER TABLE.
    with op.batch_alter_table("actions") as batch:
        batch.drop_constraint("uq_actions_room_action_id", type_="unique")
        batch.create_unique_constraint("uq_actions_room_seat_action_id", ["room_id", "seat", "action_id"])


def downgrade() -> None:
    # Only possible while no two seats of a room used the same id.
    with op.batch_alter_table("actions") as batch:
        batch.drop_constraint("uq_actions_room_seat_action_id", type_="unique")
        batch.create_unique_constraint("uq_actions_room_action_id", ["room_id", "action_id"])
