"""standings: `games.facts` (what each finished game adds) and `rooms.standings` (the series)

A room that plays again keeps its series (app/standings.py): each stored game's facts (per
seat: name, computer player or not, VPs, win, best sale; whether the win was shared) and the
room's standings added up from them. Both columns are filled here for the games stored before
(their final state and packed log read once, with the app's own computation, so old and new
games count alike); a room over and not yet compacted gets its game counted when it plays
again. Downgrade drops both columns.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-03
"""
import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

BATCH = 200  # games per round trip
_JSON = sa.JSON(none_as_null=True)
_games = sa.table("games", sa.column("id", sa.Integer), sa.column("room_id", sa.Integer),
                  sa.column("number", sa.Integer), sa.column("players", sa.JSON),
                  sa.column("packed_log", sa.LargeBinary), sa.column("final_state", sa.JSON),
                  sa.column("facts", _JSON))
_rooms = sa.table("rooms", sa.column("id", sa.Integer), sa.column("standings", _JSON))


def upgrade() -> None:
    from app.models import unpack_json  # noqa: PLC0415 - the app's packed log and computation
    from app.standings import game_facts, series  # noqa: PLC0415

    op.add_column("games", sa.Column("facts", sa.JSON(), nullable=True))
    op.add_column("rooms", sa.Column("standings", sa.JSON(), nullable=True))
    conn = op.get_bind()
    by_room: dict[int, list[dict]] = {}
    last = 0
    while True:
        rows = conn.execute(sa.select(_games.c.id, _games.c.room_id, _games.c.number, _games.c.players,
                                      _games.c.packed_log, _games.c.final_state)
                            .where(_games.c.id > last).order_by(_games.c.id).limit(BATCH)).all()
        if not rows:
            break
        for row in rows:
            log = unpack_json(row.packed_log) if row.packed_log is not None else []
            facts = game_facts(row.number, row.players, row.final_state, (e for a in log for e in a["events"]))
            conn.execute(sa.update(_games).where(_games.c.id == row.id).values(facts=facts))
            by_room.setdefault(row.room_id, []).append(facts)
        last = rows[-1].id
    for room_id, facts in by_room.items():
        conn.execute(sa.update(_rooms).where(_rooms.c.id == room_id).values(standings=series(facts)))


def downgrade() -> None:
    op.drop_column("rooms", "standings")  # in place (SQLite >= 3.35)
    op.drop_column("games", "facts")
