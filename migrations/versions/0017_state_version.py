"""state_version: the room's snapshot is stored every few actions (issue 33)

`rooms.state_version` (null by default): the version the stored `rooms.state` is at when it is
older than `rooms.version`; null while the snapshot is at `rooms.version` (every room stored
before this migration, every game at its start and at its end). An action stores the snapshot
only every `SNAPSHOT_EVERY` versions (app/store/games.py); a table loads the snapshot and
plays the few actions after it again from the log (app/live/room/table.py `Table.load`).
docs/deploy.md "How games are stored".

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-07
"""
from collections import defaultdict

import sqlalchemy as sa
from alembic import op

import engine

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # In place (ALTER TABLE ADD COLUMN), never a batch copy of `rooms` (see 0010).
    op.add_column("rooms", sa.Column("state_version", sa.Integer(), nullable=True))


_JSON = sa.JSON(none_as_null=True)
_rooms = sa.table("rooms", sa.column("id", sa.Integer), sa.column("code", sa.String),
                  sa.column("version", sa.Integer), sa.column("state", _JSON),
                  sa.column("state_version", sa.Integer))
_actions = sa.table("actions", sa.column("room_id", sa.Integer), sa.column("version", sa.Integer),
                    sa.column("seat", sa.Integer), sa.column("action", sa.JSON))


def downgrade() -> None:
    """Back to one snapshot at `rooms.version` (what 0016's release reads): every room whose
    snapshot is older gets the state after the actions since, played again under the rules
    version its state carries. Raises RuntimeError naming the rooms whose log does not play
    (nothing is changed then)."""
    conn = op.get_bind()
    behind = conn.execute(sa.select(_rooms.c.id, _rooms.c.code, _rooms.c.version, _rooms.c.state,
                                    _rooms.c.state_version).where(_rooms.c.state_version.is_not(None))).all()
    log = defaultdict(list)
    for row in behind:
        log[row.id] = conn.execute(sa.select(_actions.c.version, _actions.c.seat, _actions.c.action)
                                   .where(_actions.c.room_id == row.id, _actions.c.version > row.state_version,
                                          _actions.c.version <= row.version)
                                   .order_by(_actions.c.version)).all()
    values, failed = [], []
    for room in behind:
        try:
            if [a.version for a in log[room.id]] != list(range(room.state_version + 1, room.version + 1)):
                raise ValueError(f"the log does not hold versions {room.state_version + 1}..{room.version}")
            state = engine.GameState.from_json(room.state)
            for a in log[room.id]:
                state, _events = engine.play(state, a.seat, engine.action_from_json(a.action))
        except (engine.IllegalAction, ValueError) as exc:
            failed.append(f"{room.code}: {exc}")
            continue
        values.append({"rid": room.id, "st": state.to_json()})
    if failed:
        raise RuntimeError("migration 0017 down: these games do not play on from their snapshot; "
                           f"the database is unchanged: {', '.join(failed)}")
    if values:
        conn.execute(_rooms.update().where(_rooms.c.id == sa.bindparam("rid"))
                     .values(state=sa.bindparam("st", type_=_JSON)), values)
    op.drop_column("rooms", "state_version")  # in place (SQLite >= 3.35)
