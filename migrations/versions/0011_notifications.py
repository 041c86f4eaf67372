"""notify_targets, notify_outbox, vapid_keys, seats.watched_at: notifications (issue 31)

A seat's notification targets (Web Push subscription, Apprise URL) and a room's webhook, the
outbox of notifications to send (unique per target and notification: sent once however many
processes enqueue it), the server's VAPID key pair (one row), and `seats.watched_at`, the last
time a process held a visible page of the seat (app/notify/).

Revision ID: 0011
Revises: 0009
Create Date: 2026-12-03
"""
import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "notify_targets",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("room_id", sa.Integer(), sa.ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("url", sa.String(2048), nullable=False),
        sa.Column("keys", sa.JSON(), nullable=True),
        sa.Column("holder", sa.String(64), nullable=True),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("quiet", sa.JSON(), nullable=True),
        sa.Column("base_url", sa.String(512), nullable=False),
        sa.Column("off_hash", sa.String(64), nullable=False),
        sa.Column("off_salt", sa.String(32), nullable=False),
        sa.Column("failed", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.UniqueConstraint("room_id", "seat", "kind", name="uq_notify_targets_room_seat_kind"),
        sa.UniqueConstraint("off_hash", name="uq_notify_targets_off_hash"),
    )
    op.create_index("ix_notify_targets_room_id", "notify_targets", ["room_id"])
    op.create_table(
        "notify_outbox",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("target_id", sa.Integer(), sa.ForeignKey("notify_targets.id", ondelete="CASCADE"), nullable=False),
        sa.Column("room_id", sa.Integer(), sa.ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False),
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("game_no", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("due_at", sa.DateTime(), nullable=False),
        sa.Column("lease_until", sa.DateTime(), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("error", sa.String(300), nullable=True),
        sa.Column("sent_at", sa.DateTime(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.UniqueConstraint("target_id", "key", name="uq_notify_outbox_target_key"),
    )
    op.create_index("ix_notify_outbox_target_id", "notify_outbox", ["target_id"])
    op.create_index("ix_notify_outbox_due", "notify_outbox", ["state", "due_at"])
    op.create_table(
        "vapid_keys",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("private_pem", sa.String(512), nullable=False),
        sa.Column("public_key", sa.String(128), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.CheckConstraint("id = 1", name="ck_vapid_keys_one_row"),
    )
    # In place (ALTER TABLE ADD COLUMN), never a batch copy of `seats` (see 0003).
    op.add_column("seats", sa.Column("watched_at", sa.DateTime(), nullable=True))


def downgrade() -> None:
    op.drop_column("seats", "watched_at")  # in place (SQLite >= 3.35)
    op.drop_table("vapid_keys")
    op.drop_index("ix_notify_outbox_due", table_name="notify_outbox")
    op.drop_index("ix_notify_outbox_target_id", table_name="notify_outbox")
    op.drop_table("notify_outbox")
    op.drop_index("ix_notify_targets_room_id", table_name="notify_targets")
    op.drop_table("notify_targets")
