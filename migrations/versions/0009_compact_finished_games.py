"""compact finished games: a game's log packed in `games.packed_log`, finished rooms compacted

A stored finished game cost ~51–56 KB on SQLite (four players, ~115 actions), more than half
of it the events of its action rows, and ~45–48 KB once archived by "play again"
(docs/performance.md "Stored size of a game"). Now:

- `games.log` (JSON) becomes `games.packed_log`: the same list, [{"version", "seat",
  "action_id", "action", "events", "at"}], as zlib-compressed (RFC 1950) compact JSON text
  (app/models.py `PackedJSON`; ~43 KB → ~6 KB). Every row is converted here.
- A room whose game is over and not yet in `games` is compacted (app/records.py
  `compact_finished`): the game is inserted into `games` under the room's `game_no` (players
  as seated now, log with times and events, final state = the room's snapshot) and its action
  rows are deleted. The room stays `over` with its snapshot; the server loads such a game from
  the snapshot and that row's log (app/live/store.py). About 10 ms per game on a loaded 2-core
  VM (300 four-player games of ~140 actions in 3.1 s): 10,000 such games take under 2 minutes
  before the server listens.
- `ix_actions_room_id` is dropped: `uq_actions_room_version` (room_id, version) serves every
  lookup by room_id and the cascade from `rooms`.

Downgrade: the compacted rooms get their action rows back from the packed log (times to the
second, as the log holds them) and lose that `games` row; `games.log` is JSON again; the index
is created again. SQLite keeps the freed pages for new rows; `VACUUM` (server stopped) gives
them back to the file system.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01
"""
import json
import zlib
from collections import defaultdict
from datetime import datetime

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

BATCH = 200  # games per round trip
_JSON = sa.JSON(none_as_null=True)
_rooms = sa.table("rooms", sa.column("id", sa.Integer), sa.column("status", sa.String),
                  sa.column("seed", sa.BigInteger), sa.column("num_players", sa.Integer),
                  sa.column("rules_version", sa.Integer), sa.column("state", _JSON),
                  sa.column("started_at", sa.DateTime), sa.column("game_no", sa.Integer))
_seats = sa.table("seats", sa.column("room_id", sa.Integer), sa.column("seat", sa.Integer),
                  sa.column("name", sa.String), sa.column("token_hash", sa.String),
                  sa.column("bot_level", sa.String))
_actions = sa.table("actions", sa.column("room_id", sa.Integer), sa.column("version", sa.Integer),
                    sa.column("action_id", sa.String), sa.column("seat", sa.Integer),
                    sa.column("action", sa.JSON), sa.column("events", _JSON),
                    sa.column("created_at", sa.DateTime))


def _games(log_column):
    """`games` with its log column: `log` (JSON, up to 0008) or `packed_log` (BLOB, from 0009)."""
    return sa.table("games", sa.column("id", sa.Integer), sa.column("room_id", sa.Integer),
                    sa.column("number", sa.Integer), sa.column("rules_version", sa.Integer),
                    sa.column("seed", sa.BigInteger), sa.column("num_players", sa.Integer),
                    sa.column("players", sa.JSON), sa.column("final_state", sa.JSON),
                    sa.column("started_at", sa.DateTime), sa.column("ended_at", sa.DateTime), log_column)


def pack(value) -> bytes:
    """The packed format, frozen here: zlib (RFC 1950) of the value's JSON text in UTF-8
    (app/models.py `pack_json` writes the same format)."""
    return zlib.compress(json.dumps(value, separators=(",", ":"), ensure_ascii=True).encode("ascii"), 6)


def unpack(data: bytes):
    return json.loads(zlib.decompress(data))


def _iso(ts: datetime) -> str:
    """A log entry's `at` (app/rooms.py `iso`)."""
    return ts.replace(microsecond=0).isoformat() + "Z"


def _players(seats) -> list[dict]:
    """The record's players as app/records.py `_players` names them (frozen here)."""
    seats = sorted(seats, key=lambda s: s.seat)
    computers = [s.seat for s in seats if s.bot_level and s.token_hash is None]

    def name(s) -> str:
        if s.seat not in computers:
            return s.name
        return f"Computer {s.seat + 1} ({s.bot_level})" if len(computers) > 1 else f"Computer ({s.bot_level})"
    return [{"seat": s.seat, "name": name(s), "bot_level": s.bot_level, "computer": s.seat in computers}
            for s in seats]


def upgrade() -> None:
    conn = op.get_bind()
    op.drop_index("ix_actions_room_id", "actions")
    op.add_column("games", sa.Column("packed_log", sa.LargeBinary(), nullable=True))
    old, new = _games(sa.column("log", sa.JSON)), _games(sa.column("packed_log", sa.LargeBinary))
    ids = conn.execute(sa.select(old.c.id).order_by(old.c.id)).scalars().all()
    for start in range(0, len(ids), BATCH):
        rows = conn.execute(sa.select(old.c.id, old.c.log).where(old.c.id.in_(ids[start:start + BATCH]))).all()
        conn.execute(new.update().where(new.c.id == sa.bindparam("gid")).values(packed_log=sa.bindparam("p")),
                     [{"gid": r.id, "p": pack(r.log)} for r in rows])
    # SQLite copies `games` here (nothing refers to it); PostgreSQL alters it in place.
    with op.batch_alter_table("games") as batch:
        batch.drop_column("log")
        batch.alter_column("packed_log", existing_type=sa.LargeBinary(), nullable=False)
    compact_finished_rooms(conn)


def compact_finished_rooms(conn) -> None:
    """Every room over at a game that is not in `games` yet: into `games`, action rows deleted."""
    games = _games(sa.column("packed_log", sa.LargeBinary))
    archived = sa.exists().where(games.c.room_id == _rooms.c.id, games.c.number == _rooms.c.game_no)
    ids = conn.execute(sa.select(_rooms.c.id).where(_rooms.c.status == "over", _rooms.c.seed.is_not(None),
                                                    ~archived).order_by(_rooms.c.id)).scalars().all()
    for start in range(0, len(ids), BATCH):
        batch = ids[start:start + BATCH]
        rooms = conn.execute(sa.select(_rooms).where(_rooms.c.id.in_(batch))).all()
        seats, log = defaultdict(list), defaultdict(list)
        for s in conn.execute(sa.select(_seats).where(_seats.c.room_id.in_(batch))):
            seats[s.room_id].append(s)
        for a in conn.execute(sa.select(_actions).where(_actions.c.room_id.in_(batch))
                              .order_by(_actions.c.room_id, _actions.c.version)):
            log[a.room_id].append({"version": a.version, "seat": a.seat, "action_id": a.action_id,
                                   "action": a.action, "events": a.events, "at": _iso(a.created_at)})
        values = []
        for r in rooms:
            entries = log[r.id]
            ended = datetime.fromisoformat(entries[-1]["at"].rstrip("Z")) if entries else None
            values.append({"room_id": r.id, "number": r.game_no, "rules_version": r.rules_version,
                           "seed": r.seed, "num_players": r.num_players, "players": _players(seats[r.id]),
                           "packed_log": pack(entries), "final_state": r.state, "started_at": r.started_at,
                           "ended_at": ended})
        if values:
            conn.execute(games.insert(), values)
        conn.execute(_actions.delete().where(_actions.c.room_id.in_(batch)))


def downgrade() -> None:
    conn = op.get_bind()
    expand_finished_rooms(conn)
    op.add_column("games", sa.Column("log", sa.JSON(), nullable=True))
    old, new = _games(sa.column("log", sa.JSON)), _games(sa.column("packed_log", sa.LargeBinary))
    ids = conn.execute(sa.select(new.c.id).order_by(new.c.id)).scalars().all()
    for start in range(0, len(ids), BATCH):
        rows = conn.execute(sa.select(new.c.id, new.c.packed_log).where(new.c.id.in_(ids[start:start + BATCH]))).all()
        conn.execute(old.update().where(old.c.id == sa.bindparam("gid")).values(log=sa.bindparam("l", type_=sa.JSON)),
                     [{"gid": r.id, "l": unpack(r.packed_log)} for r in rows])
    with op.batch_alter_table("games") as batch:
        batch.drop_column("packed_log")
        batch.alter_column("log", existing_type=sa.JSON(), nullable=False)
    op.create_index("ix_actions_room_id", "actions", ["room_id"])


def expand_finished_rooms(conn) -> None:
    """The compacted rooms (over at a game that is in `games`) as 0008 kept them: action rows."""
    games = _games(sa.column("packed_log", sa.LargeBinary))
    of_current = sa.exists().where(_rooms.c.id == games.c.room_id, _rooms.c.game_no == games.c.number,
                                   _rooms.c.status == "over")
    current = sa.select(games.c.id, games.c.room_id, games.c.packed_log).where(of_current)
    ids = conn.execute(sa.select(games.c.id).where(of_current).order_by(games.c.id)).scalars().all()
    for start in range(0, len(ids), BATCH):
        batch = ids[start:start + BATCH]
        rows = conn.execute(current.where(games.c.id.in_(batch))).all()
        actions = [{"room_id": g.room_id, "version": a["version"], "action_id": a["action_id"],
                    "seat": a["seat"], "action": a["action"], "events": a["events"],
                    "created_at": datetime.fromisoformat(a["at"].rstrip("Z"))}
                   for g in rows for a in unpack(g.packed_log)]
        if actions:
            conn.execute(_actions.insert(), actions)
        conn.execute(games.delete().where(games.c.id.in_(batch)))
