"""chat_messages, rooms.chat_spectators: the room's chat

Every chat message of a room (its seat, or null for a spectator, the name shown, the text of at
most 300 characters, the time), deleted with the room; `rooms.chat_spectators` is false once
the host closed the chat to spectators.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-30
"""
import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("room_id", sa.Integer(), sa.ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.String(300), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_chat_messages_room_id", "chat_messages", ["room_id", "id"])
    # In place (ALTER TABLE ADD COLUMN), never a batch copy of `rooms`: on SQLite a copy would
    # cascade-delete its seats and actions (see 0003).
    op.add_column("rooms", sa.Column("chat_spectators", sa.Boolean(), nullable=False, server_default=sa.true()))


def downgrade() -> None:
    op.drop_column("rooms", "chat_spectators")  # in place (SQLite >= 3.35)
    op.drop_index("ix_chat_messages_room_id", table_name="chat_messages")
    op.drop_table("chat_messages")
