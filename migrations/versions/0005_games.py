"""games: the finished games of a room (play again, records, replays)

`games` holds one row per finished game of a room that was followed by another ("play again"):
its number in the room, rules version, seed, players, the action log with each action's time
and events, and the final state. `rooms.game_no` is the number of the room's current game (1 for
the first); a rematch moves it on with a version-guarded UPDATE and inserts the finished game
under the unique (room_id, number), so crossed requests make exactly one new game.
`seats.ready`: the seat's player said they are in for the next game.

Columns are added with plain ALTER TABLE (no batch copy: copying `rooms` on SQLite would
cascade-delete its seats and actions).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30
"""
import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

_JSON = sa.JSON(none_as_null=True)


def upgrade() -> None:
    op.add_column("rooms", sa.Column("game_no", sa.Integer(), nullable=False, server_default="1"))
    op.add_column("seats", sa.Column("ready", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("room_id", sa.Integer(), sa.ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("rules_version", sa.Integer(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("num_players", sa.Integer(), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("log", sa.JSON(), nullable=False),
        sa.Column("final_state", sa.JSON(), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=True),
        sa.Column("ended_at", sa.DateTime(), nullable=True),
        sa.UniqueConstraint("room_id", "number", name="uq_games_room_number"),
    )
    op.create_index("ix_games_room_id", "games", ["room_id"])


def downgrade() -> None:
    op.drop_index("ix_games_room_id", "games")
    op.drop_table("games")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("ready")
    op.drop_column("rooms", "game_no")
