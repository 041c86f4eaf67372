"""A game in the database: the snapshot on its room row and the action log (app/models.py).

Every action's UPDATE moves the room's version (`actions.BUMP_VERSION`, in the action's
transaction: app/live/actions/path.py); it stores the engine's full state JSON with it only
when `snapshot_due` (every `SNAPSHOT_EVERY` versions and at the game's end; the game's start
stores it too: `start_values`). In between the room row keeps the last snapshot and
`rooms.state_version` says which version it is at (null: at `rooms.version`). The action row
holds the action and the events it produced. Loading or catching up a game reads the snapshot
and the log after it (`read_snapshot`, `read_log`) and plays the at most `SNAPSHOT_EVERY - 1`
actions after the snapshot again (app/live/room/table.py `Table.load`), under the rules version
the state carries (docs/versioning.md: the engine plays every rules version it ever had, the
golden games hold it to that), so a later release never changes a stored game. Storing the
full state with every action cost ~7 % of the action path (its `to_json`, its JSON text and
binding; docs/performance.md "2026-12-07 (evening)").

A finished game may have been compacted (app/records.py `compact_finished`): the room is still
`over` with its snapshot (at its last version: `snapshot_due`), but its action rows are gone and
its log is the `games` row of the room's `game_no` (packed). The log readers take the rows from
there when the action rows do not hold the versions asked for (only then: an ordinary read
costs nothing more). Once the room has moved on to its next game ("play again") that log is
the room's no longer: a reader that read the finished game's snapshot just before another
process played again finds no log, and reads the snapshot again (`Held._load`,
app/live/room/held.py).
"""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, NamedTuple

from sqlalchemy import Integer, any_, bindparam, select, text
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

import engine

from ..models import ActionRow, GameRow, HintRow, Room, utcnow

ROOMS, ACTIONS, GAMES = Room.__table__, ActionRow.__table__, GameRow.__table__


def clock_start(now: datetime, away_until: datetime | None = None, paused_at: datetime | None = None) -> datetime:
    """When the clock of a decision beginning at `now` starts running: at `now`, or (paused)
    at `paused_at`, as if it had begun then (the resume moves it on by the paused time the
    away did not cover), or at the end of its seat's away (`away_until`) when that is later:
    each second stands still once (app/pace.py)."""
    start = paused_at if paused_at is not None and paused_at < now else now
    if away_until is not None and away_until > start:
        start = away_until
    return start


def clock_values(state: Any, limit_s: int | None, now: datetime | None = None,
                 away_until: datetime | None = None, paused_at: datetime | None = None) -> dict:
    """The turn clock's columns for a decision beginning `now` (naive UTC, default: now):
    `turn_at` and `deadline_at` (= turn_at + `limit_s` seconds; None without a timer, and both
    None once the game is over). The clock starts later when the seat to act is away
    (`away_until`) or the game is paused (`paused_at`): `clock_start`, so
    `deadline_at - turn_at` is always `limit_s`. app/live/computer/timers.py."""
    if engine.is_over(state):
        return {"turn_at": None, "deadline_at": None}
    now = now or utcnow()
    if away_until is not None or paused_at is not None:
        now = clock_start(now, away_until, paused_at)
    return {"turn_at": now, "deadline_at": None if not limit_s else now + timedelta(seconds=limit_s)}


#: The snapshot is stored with every action whose version is a multiple of this (and at the end).
SNAPSHOT_EVERY = 8


def snapshot_due(version: int, state: Any) -> bool:
    """Whether the action that brings a game to `version` (≥ 1) with `state` stores the full
    state with it (module docstring): every `SNAPSHOT_EVERY` versions, and always once the game
    is over (records and compaction read a finished game's snapshot as its final state)."""
    return version % SNAPSHOT_EVERY == 0 or engine.is_over(state)


def snapshot_values(state: Any, limit_s: int | None = None, away_until: datetime | None = None) -> dict:
    """The room row's columns that follow the game state: `state` (full JSON), `to_act`, and
    the clock of the decision that begins now (`clock_values`, timer `limit_s`, the seat to
    act away until `away_until`)."""
    return {"state": state.to_json(), "to_act": state.to_act, **clock_values(state, limit_s, away_until=away_until)}


def start_values(state: Any, limit_s: int | None = None, away_until: datetime | None = None) -> dict:
    """The room row's game columns at the start (version 0): the snapshot (at version 0:
    `state_version` null) and its rules version."""
    return {**snapshot_values(state, limit_s, away_until), "state_version": None, "rules_version": state.rules_version}


def stored_at(snap: Any) -> int:
    """The version a snapshot row's `state` is at (`state_version`, or `version` when null)."""
    return snap.version if snap.state_version is None else snap.state_version


# The snapshot: seed, version, state and the version it is at read in ONE statement, so they belong together.
SNAPSHOT = select(ROOMS.c.seed, ROOMS.c.version, ROOMS.c.state, ROOMS.c.state_version, ROOMS.c.turn_at,
                  ROOMS.c.deadline_at).where(ROOMS.c.id == bindparam("room_id"))
# The log between two versions (after, upto], in order (the action too: played again after the snapshot).
LOG = (select(ACTIONS.c.version, ACTIONS.c.seat, ACTIONS.c.action_id, ACTIONS.c.events, ACTIONS.c.action)
       .where(ACTIONS.c.room_id == bindparam("room_id"), ACTIONS.c.version > bindparam("after"),
              ACTIONS.c.version <= bindparam("upto"))
       .order_by(ACTIONS.c.version))


# Several rooms at once (PostgreSQL only: arrays; the cross-process catch-up, app/live/fanout/remote.py).
# The snapshots of the rooms `ids`, with their status:
SNAPSHOTS = select(ROOMS.c.id, ROOMS.c.seed, ROOMS.c.version, ROOMS.c.status, ROOMS.c.state,
                   ROOMS.c.state_version, ROOMS.c.turn_at, ROOMS.c.deadline_at).where(ROOMS.c.id == any_(bindparam("ids", type_=ARRAY(Integer))))
# ... and their logs: for each i the rows of room room_ids[i] with lows[i] < version <= highs[i],
# in (room_id, version) order (one index range scan per room: uq_actions_room_version).
LOGS = text(
    "SELECT a.room_id, a.version, a.seat, a.action_id, a.events, a.action FROM actions AS a"
    " JOIN unnest(CAST(:room_ids AS integer[]), CAST(:lows AS integer[]), CAST(:highs AS integer[]))"
    " AS w(room_id, low, high) ON a.room_id = w.room_id AND a.version > w.low AND a.version <= w.high"
    " ORDER BY a.room_id, a.version").columns(ACTIONS.c.room_id, ACTIONS.c.version, ACTIONS.c.seat,
                                              ACTIONS.c.action_id, ACTIONS.c.events, ACTIONS.c.action)


# The packed logs of compacted finished games: the `games` row of each room's current game,
# while the room is over at it.
PACKED_LOGS = (select(GAMES.c.room_id, GAMES.c.packed_log)
               .join(ROOMS, (ROOMS.c.id == GAMES.c.room_id) & (ROOMS.c.game_no == GAMES.c.number))
               .where(ROOMS.c.id.in_(bindparam("ids", expanding=True)), ROOMS.c.status == "over"))


class LogRow(NamedTuple):
    """A log row taken from a compacted game's packed log, shaped like the action rows read."""
    room_id: int
    version: int
    seat: int
    action_id: str
    events: list
    action: dict


async def _packed_rows(execute, spans: list[tuple[int, int, int]]) -> dict[int, list[LogRow]]:
    """The log rows after < version <= upto of the rooms of `spans` = [(room id, after, upto)]
    whose current game is compacted (`execute`: a session's or connection's) → room id → rows."""
    want = {room_id: (after, upto) for room_id, after, upto in spans}
    out: dict[int, list[LogRow]] = {}
    for room_id, log in (await execute(PACKED_LOGS, {"ids": list(want)})).all():
        after, upto = want[room_id]
        out[room_id] = [LogRow(room_id, a["version"], a["seat"], a["action_id"], a["events"], a["action"])
                        for a in log if after < a["version"] <= upto]
    return out


def _covers(rows: list, after: int, upto: int) -> bool:
    return len(rows) == upto - after and (not rows or (rows[0].version == after + 1 and rows[-1].version == upto))


async def read_snapshots(conn: AsyncConnection, room_ids: list[int]) -> dict[int, Any]:
    """PostgreSQL: the snapshots (id, seed, version, status, state, state_version, turn_at, deadline_at) of
    several rooms in one statement → room id → row (rooms that are gone are missing)."""
    return {row.id: row for row in (await conn.execute(SNAPSHOTS, {"ids": room_ids})).all()}


async def read_logs(conn: AsyncConnection, spans: list[tuple[int, int, int]]) -> dict[int, list]:
    """PostgreSQL: the action rows (room_id, version, seat, action_id, events, action) of several rooms
    in one statement (those of compacted finished games from their packed logs: one statement
    more, only when there are any), `spans` = [(room id, after, upto)] → room id → its rows with
    after < version <= upto, in order (unchecked: `check_log` when applying them)."""
    out: dict[int, list] = {}
    if not spans:
        return out
    params = {"room_ids": [s[0] for s in spans], "lows": [s[1] for s in spans], "highs": [s[2] for s in spans]}
    for row in (await conn.execute(LOGS, params)).all():
        out.setdefault(row.room_id, []).append(row)
    short = [s for s in spans if not _covers(out.get(s[0], []), s[1], s[2])]
    if short:   # compacted finished games (module docstring)
        out.update(await _packed_rows(conn.execute, short))
    return out


def check_log(room_id: int, rows: list, after: int, upto: int) -> None:
    """Raise RuntimeError unless `rows` hold exactly the versions after+1 .. upto, in order."""
    if [r.version for r in rows] != list(range(after + 1, upto + 1)):
        raise RuntimeError(f"room {room_id}: the action log does not hold versions {after + 1}..{upto}")


async def read_snapshot(session: AsyncSession, room_id: int):
    """The room's (seed, version, state, state_version, turn_at, deadline_at) as committed now,
    or None when the room is gone (`stored_at`: the version `state` is at)."""
    return (await session.execute(SNAPSHOT, {"room_id": room_id})).first()


async def read_log(session: AsyncSession, room_id: int, after: int, upto: int) -> list:
    """The action rows (version, seat, action_id, events, action) with after < version <= upto, in order
    (of a compacted finished game: from its packed log, as `LogRow`s).

    Raises RuntimeError when the log does not hold exactly the versions after+1 .. upto."""
    rows = (await session.execute(LOG, {"room_id": room_id, "after": after, "upto": upto})).all()
    if not _covers(rows, after, upto):   # a compacted finished game (module docstring)
        rows = (await _packed_rows(session.execute, [(room_id, after, upto)])).get(room_id, rows)
    check_log(room_id, rows, after, upto)
    return rows


async def read_hints(session: AsyncSession, room_id: int, seed: int) -> dict[int, dict]:
    """The hints given in the room's game of `seed` (`hints`, app/live/hints.py): version →
    {"seat", "action", "why"} (private but for the seat: the caller shows only their use)."""
    rows = (await session.execute(select(HintRow.version, HintRow.seat, HintRow.action, HintRow.why).where(
        HintRow.room_id == room_id, HintRow.seed == seed))).all()
    return {r.version: {"seat": r.seat, "action": r.action, "why": r.why} for r in rows}


def load_state(state_json: dict) -> Any:
    """The engine's GameState of a stored snapshot (`engine.GameState.from_json`)."""
    return engine.GameState.from_json(state_json)
