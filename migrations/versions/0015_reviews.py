"""reviews: the review of every finished game (bots/review.py, app/live/reviews.py)

One row per finished game of a room (the room and the game's seed: unique per game of the room,
as for `hints`; the game's `number` for the routes): `status` pending / running / ready / failed,
`progress` 0..100, `review` the JSON of bots/review.py `review_game` once ready, `error` a short
reason when it failed, `updated_at` the last progress (a running review whose process died is
taken up again once it is older than the lease, app/live/reviews.py `LEASE_S`).

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-03
"""
import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "reviews",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("room_id", sa.Integer(), sa.ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("progress", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("review", sa.JSON(), nullable=True),
        sa.Column("error", sa.String(200), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.UniqueConstraint("room_id", "seed", name="uq_reviews_room_seed"),
    )
    op.create_index("ix_reviews_status", "reviews", ["status"])


def downgrade() -> None:
    op.drop_index("ix_reviews_status", table_name="reviews")
    op.drop_table("reviews")
