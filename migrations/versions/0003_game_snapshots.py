"""game snapshots: the rules version and full state on the room row, the events on each action

Loading a game no longer replays its log through the engine (app/live/store.py). Every started
game is backfilled here by replaying its log once, with the engine's rules version 1 (the rules
of every game stored before this revision): `rooms.state`, `rooms.to_act`,
`rooms.rules_version` = 1 and `actions.events`. A game whose log does not replay stops the
migration with the room codes named, and the database is left as it was (one transaction).

Afterwards a started game must have a snapshot (CHECK on PostgreSQL; triggers on SQLite, where
a constraint cannot be added without copying `rooms`, and copying it would cascade-delete its
seats and actions) and every action its events (NOT NULL): a server of an older release still
running against the upgraded database is refused instead of storing games this release cannot load.

Revision ID: 0003
Revises: 0002
Create Date: 2025-01-03
"""
from collections import defaultdict

import sqlalchemy as sa
from alembic import op

import engine

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

BATCH_ROOMS = 200  # games replayed per round trip
CHECK = "ck_rooms_started_has_state"
CHECK_SQL = "seed IS NULL OR (state IS NOT NULL AND rules_version IS NOT NULL)"
CHECK_NEW_SQL = "NEW.seed IS NULL OR (NEW.state IS NOT NULL AND NEW.rules_version IS NOT NULL)"
_JSON = sa.JSON(none_as_null=True)
_rooms = sa.table("rooms", sa.column("id", sa.Integer), sa.column("code", sa.String),
                  sa.column("seed", sa.BigInteger), sa.column("num_players", sa.Integer),
                  sa.column("version", sa.Integer), sa.column("state", _JSON),
                  sa.column("rules_version", sa.Integer), sa.column("to_act", sa.Integer))
_actions = sa.table("actions", sa.column("id", sa.Integer), sa.column("room_id", sa.Integer),
                    sa.column("version", sa.Integer), sa.column("seat", sa.Integer),
                    sa.column("action", sa.JSON), sa.column("events", _JSON))


def upgrade() -> None:
    op.add_column("rooms", sa.Column("rules_version", sa.Integer(), nullable=True))
    op.add_column("rooms", sa.Column("state", _JSON, nullable=True))
    op.add_column("rooms", sa.Column("to_act", sa.Integer(), nullable=True))
    op.add_column("actions", sa.Column("events", _JSON, nullable=True))
    backfill(op.get_bind())
    with op.batch_alter_table("actions") as batch:  # SQLite copies `actions` (nothing refers to it)
        batch.alter_column("events", existing_type=_JSON, nullable=False)
    if op.get_bind().dialect.name == "sqlite":
        for when in ("INSERT", "UPDATE"):
            op.execute(f"CREATE TRIGGER {CHECK}_{when.lower()} BEFORE {when} ON rooms "
                       f"WHEN NOT ({CHECK_NEW_SQL}) "
                       f"BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: {CHECK}'); END")
    else:
        op.create_check_constraint(CHECK, "rooms", CHECK_SQL)


def backfill(conn) -> None:
    """Replay every started game's log once (rules version 1) and store its snapshot and events.

    Raises RuntimeError naming the rooms whose log does not replay (nothing is stored then)."""
    ids = conn.execute(sa.select(_rooms.c.id).where(_rooms.c.seed.is_not(None))
                       .order_by(_rooms.c.id)).scalars().all()
    failed: list[str] = []
    for start in range(0, len(ids), BATCH_ROOMS):
        failed += _backfill_batch(conn, ids[start:start + BATCH_ROOMS])
    if failed:
        raise RuntimeError("migration 0003: these games do not replay with the engine's rules "
                           "version 1, so they cannot be given a snapshot; the database is "
                           "unchanged. Restore them from a backup taken before they broke, or "
                           f"delete them: {', '.join(failed)}")


def _backfill_batch(conn, ids: list[int]) -> list[str]:
    """Backfill the games of these room ids; returns 'code: reason' for each that failed."""
    rooms = conn.execute(sa.select(_rooms.c.id, _rooms.c.code, _rooms.c.seed, _rooms.c.num_players,
                                   _rooms.c.version).where(_rooms.c.id.in_(ids))).all()
    log = defaultdict(list)
    for row in conn.execute(sa.select(_actions.c.id, _actions.c.room_id, _actions.c.version,
                                      _actions.c.seat, _actions.c.action)
                            .where(_actions.c.room_id.in_(ids))
                            .order_by(_actions.c.room_id, _actions.c.version)):
        log[row.room_id].append(row)
    room_values, event_values, failed = [], [], []
    for room in rooms:
        state = engine.new_game(room.num_players, room.seed, rules_version=1)
        events_of = []
        try:
            if [a.version for a in log[room.id]] != list(range(1, room.version + 1)):
                raise ValueError(f"the log does not hold versions 1..{room.version}")
            for a in log[room.id]:
                state, events = engine.play(state, a.seat, a.action)
                events_of.append({"aid": a.id, "ev": events})
        except (engine.IllegalAction, ValueError) as exc:
            failed.append(f"{room.code}: {exc}")
            continue
        event_values += events_of
        room_values.append({"rid": room.id, "st": state.to_json(), "ta": state.to_act})
    if event_values:
        conn.execute(_actions.update().where(_actions.c.id == sa.bindparam("aid"))
                     .values(events=sa.bindparam("ev", type_=_JSON)), event_values)
    if room_values:
        conn.execute(_rooms.update().where(_rooms.c.id == sa.bindparam("rid"))
                     .values(state=sa.bindparam("st", type_=_JSON), to_act=sa.bindparam("ta"),
                             rules_version=1), room_values)
    return failed


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for when in ("insert", "update"):
            op.execute(f"DROP TRIGGER IF EXISTS {CHECK}_{when}")
    else:
        op.drop_constraint(CHECK, "rooms", type_="check")
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("events")
    # Dropping columns of `rooms` in place (SQLite >= 3.35; a batch copy would cascade-delete).
    for column in ("to_act", "state", "rules_version"):
        op.drop_column("rooms", column)
