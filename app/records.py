"""The record of a finished game: JSON (docs/record.schema.json), a readable text log, a replay.

A room's finished games are the rows of `games` and, while the room shows it, the current game
once it is over: either still as its snapshot and action rows (as the game's actions stored
them), or already compacted into its `games` row (`compact_finished`: the room stays `over`,
its action rows are gone; the row's log is stored packed, app/models.py `PackedJSON`). A
rematch stores the finished game in `games` unless it is there already. Nothing here answers
for a game that is still running or not started: `409 game_not_over` — the record holds every
hand and the deck, so it exists only after the end (R-info-3).

Every function takes an open session and never commits.
"""
from __future__ import annotations

from datetime import datetime

import orjson
from sqlalchemy import Text, cast, delete, exists, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import undefer

import engine

from . import standings
from .refusals import Refusal
from .models import ActionRow, GameRow, HintRow, ReviewRow, Room, Seat, utcnow
from .rooms import iso

FORMAT = "traders-of-osaka-record"
FORMAT_VERSION = 1


def _players(room: Room) -> list[dict]:
    """The record's players: [{"seat", "name", "bot_level", "computer"}] by seat. A computer
    player added by the host (no person's token) is named as the table names it, "Computer
    (easy)", or "Computer 3 (easy)" (its seat number) when there are several; a person keeps
    their name, with `bot_level` set when a computer player held their seat at the end."""
    return _players_of(room.seats)


def _players_of(seats) -> list[dict]:
    """`_players` of the seats (anything with .seat, .name, .bot_level, .token_hash)."""
    seats = sorted(seats, key=lambda s: s.seat)
    computers = [s for s in seats if s.bot_level and s.token_hash is None]
    def name(s) -> str:
        if s not in computers:
            return s.name
        return f"Computer {s.seat + 1} ({s.bot_level})" if len(computers) > 1 else f"Computer ({s.bot_level})"
    return [{"seat": s.seat, "name": name(s), "bot_level": s.bot_level, "computer": s in computers}
            for s in seats]


async def _current_log(session: AsyncSession, room: Room) -> list[dict]:
    """The room's action rows as the log of a record (Core rows: no ORM objects for a whole game)."""
    a = ActionRow.__table__
    rows = (await session.execute(select(a.c.version, a.c.seat, a.c.action_id, a.c.action, a.c.events,
                                         a.c.created_at).where(a.c.room_id == room.id)
                                  .order_by(a.c.version))).all()
    return [{"version": r.version, "seat": r.seat, "action_id": r.action_id, "action": r.action,
             "events": r.events, "at": iso(r.created_at)} for r in rows]


async def _current_state(session: AsyncSession, room: Room) -> dict:
    return await session.scalar(select(Room.state).where(Room.id == room.id))


async def _stored_log(session: AsyncSession, room_id: int) -> tuple[list[dict], datetime | None, list[dict]]:
    """The room's action rows as a record's log, with each row's `action` and `events` as their
    stored JSON text (`orjson.Fragment`: written into the packed log as they are, never parsed
    here; the stored text is the engine's serializer's, app/db.py `json_text`), the time of
    the last action (None without any), and the game's sale events (parsed from the few rows
    whose events hold one: the standings' facts, app/standings.py)."""
    a = ActionRow.__table__
    rows = (await session.execute(select(a.c.version, a.c.seat, a.c.action_id, cast(a.c.action, Text),
                                         cast(a.c.events, Text), a.c.created_at)
                                  .where(a.c.room_id == room_id).order_by(a.c.version))).all()
    fragment = orjson.Fragment
    log = [{"version": version, "seat": seat, "action_id": action_id, "action": fragment(action),
            "events": fragment(events), "at": iso(at)}
           for version, seat, action_id, action, events, at in rows]
    sales = [e for row in rows if row[4] and '"sale"' in row[4] for e in orjson.loads(row[4])
             if e.get("type") == "sale"]
    return log, (rows[-1][5].replace(microsecond=0) if rows else None), sales


async def _stored_state(session: AsyncSession, room: Room) -> str:
    """The room's state snapshot as its stored JSON text."""
    return await session.scalar(select(cast(Room.state, Text)).where(Room.id == room.id))


def _game_values(room_id: int, room, players: list[dict], state: str, log: list[dict], ended, sales: list[dict]):
    """A finished game's `games` row values (`store_game`): the room's game columns, the
    players, the packed log, the final state as its stored text (`orjson.Fragment`) and the
    game's facts for the standings (app/standings.py `game_facts`: the state parsed once)."""
    return {"room_id": room_id, "number": room.game_no, "rules_version": room.rules_version,
            "seed": room.seed, "num_players": room.num_players, "players": players, "log": log,
            "final_state": orjson.Fragment(state), "started_at": room.started_at, "ended_at": ended,
            "facts": standings.game_facts(room.game_no, players, orjson.loads(state), sales)}


def _stamp(ts) -> str | None:
    return None if ts is None else iso(ts)


async def _archived_number(session: AsyncSession, room: Room) -> bool:
    """True when the room's current game is in `games` already (compacted when it ended)."""
    return await session.scalar(select(exists().where(GameRow.room_id == room.id,
                                                      GameRow.number == room.game_no)))


async def finished_game_values(session: AsyncSession, room: Room) -> dict | None:
    """The room's finished current game as the values of its `games` row, or None when that row
    exists already (`compact_finished` stored it): number = `room.game_no`, the players as
    seated at the end, the action log with times and events, the final state. Read before the
    rematch's UPDATE clears the room's game columns; `store_game` inserts it. The JSON of the
    log's actions and events and of the final state is passed on as its stored text
    (`_stored_log`): a game's log is written without being parsed (about 200 actions)."""
    if await _archived_number(session, room):
        return None
    log, ended, sales = await _stored_log(session, room.id)
    return _game_values(room.id, room, _players(room), await _stored_state(session, room), log, ended, sales)


async def store_game(session: AsyncSession, values: dict) -> bool:
    """Insert a finished game's `games` row (`finished_game_values`) unless the room already
    has one of that number: the rematch and `compact_finished` may cross (two processes on
    PostgreSQL), and both build the same row from the same action rows, so the first one
    stored stays (`INSERT … ON CONFLICT (room_id, number) DO NOTHING`). → True when this call
    inserted it; then the room's standings count it (`standings.refresh`, same transaction)."""
    insert = postgresql.insert if session.get_bind().dialect.name == "postgresql" else sqlite.insert
    result = await session.execute(insert(GameRow).values(**values)
                                   .on_conflict_do_nothing(index_elements=["room_id", "number"]))
    if result.rowcount != 1:
        return False
    await standings.refresh(session, values["room_id"])
    await insert_pending_review(session, values["room_id"], values["seed"], values["number"])  # its review is due
    return True


async def drop_current_log(session: AsyncSession, room: Room) -> None:
    """Delete the room's action rows (archived): the next game's versions and ids start afresh."""
    await session.execute(delete(ActionRow).where(ActionRow.room_id == room.id))


async def compact_finished(session: AsyncSession, room_id: int) -> bool:
    """Once a room's game is over: store it as its `games` row (number = `game_no`, log packed)
    and delete its action rows, which a finished game no longer needs (docs/performance.md
    "Stored size of a game": ~51 KB → ~11 KB for a four-player game on SQLite). The room stays
    `over` with its snapshot; the table is loaded from the snapshot and this row's log
    (app/store/games.py `read_log`), records and replays read the row. → True when this call
    compacted it; False when the room is not over, is gone, or was compacted already.

    Meant for the end of a game, under the room's lock (the caller commits): four statements
    (the room with its seats and its snapshot's text; the log; the row's INSERT; the DELETE),
    once per game, nothing for any other action. The stored JSON of the actions, events and
    final state goes into the row as its text, unparsed (`_stored_log`). Safe against a
    crossing rematch: the row is inserted only if missing (`store_game`: then this call stops
    there), and the action rows are deleted only while the room is still over at that game (a
    rematch that won meanwhile has archived and dropped them)."""
    r, s = Room.__table__, Seat.__table__
    rows = (await session.execute(
        select(r.c.status, r.c.seed, r.c.game_no, r.c.rules_version, r.c.num_players, r.c.started_at,
               cast(r.c.state, Text).label("state"), s.c.seat, s.c.name, s.c.bot_level, s.c.token_hash)
        .select_from(r.outerjoin(s, s.c.room_id == r.c.id)).where(r.c.id == room_id))).all()
    if not rows or rows[0].status != "over" or rows[0].seed is None:
        return False
    room = rows[0]
    log, ended, sales = await _stored_log(session, room_id)
    values = _game_values(room_id, room, _players_of([row for row in rows if row.seat is not None]), room.state,
                          log, ended, sales)
    if not await store_game(session, values):
        return False  # compacted already (or archived by a rematch that crossed)
    still_over = exists().where(Room.id == room_id, Room.status == "over", Room.game_no == room.game_no)
    await session.execute(delete(ActionRow).where(ActionRow.room_id == room_id, still_over))
    return True


def _summary(number: int, players: list[dict], state: dict, started, ended) -> dict:
    return {"number": number, "players": players, "winners": state.get("winners"),
            "reason": state.get("end_reason"), "started_at": started, "ended_at": ended}


async def finished_games(session: AsyncSession, room: Room) -> dict:
    """The room's finished games, oldest first: `{"current": room.game_no, "status": room.status,
    "games": [{"number", "players", "winners", "reason", "started_at", "ended_at"}]}`."""
    rows = (await session.scalars(select(GameRow).where(GameRow.room_id == room.id)
                                  .options(undefer(GameRow.final_state)).order_by(GameRow.number))).all()
    games = [_summary(g.number, g.players, g.final_state, _stamp(g.started_at), _stamp(g.ended_at))
             for g in rows]
    if room.status == "over" and all(g.number != room.game_no for g in rows):   # not compacted
        log = await _current_log(session, room)
        games.append(_summary(room.game_no, _players(room), await _current_state(session, room),
                              _stamp(room.started_at), log[-1]["at"] if log else None))
    return {"current": room.game_no, "status": room.status, "games": games}


async def game_record(session: AsyncSession, room: Room, number: int) -> dict:
    """The record of game `number` of the room (the JSON of docs/record.schema.json), with the
    room's standings up to and including that game (app/standings.py `upto`).

    404 `game_not_found` for a number the room never had; 409 `game_not_over` for the current
    game before its end (nothing of a running game is in any record)."""
    if number == room.game_no and room.status != "over":
        raise Refusal("game_not_over")
    g = await session.scalar(select(GameRow).where(GameRow.room_id == room.id, GameRow.number == number)
                             .options(undefer(GameRow.log), undefer(GameRow.final_state)))
    if g is not None:   # an earlier game, or the current one compacted at its end
        log, players, state = g.log, g.players, g.final_state
        started, ended = _stamp(g.started_at), _stamp(g.ended_at)
        rules_version, seed, n = g.rules_version, g.seed, g.num_players
    elif number == room.game_no:   # over, still as its action rows
        log = await _current_log(session, room)
        players, state = _players(room), await _current_state(session, room)
        started, ended = _stamp(room.started_at), (log[-1]["at"] if log else None)
        rules_version, seed, n = room.rules_version, room.seed, room.num_players
    else:
        raise Refusal("game_not_found")
    final = engine.GameState.from_json(state)
    events = [e for a in log for e in a["events"]]
    result = engine.game_result(final, events)
    current = None if g is not None else standings.game_facts(number, players, state, events)
    hints = await game_hints(session, room.id, seed)
    players = [{**p, "hints": sum(1 for h in hints if h["seat"] == p["seat"])} for p in players]
    return {
        "format": FORMAT, "format_version": FORMAT_VERSION, "room": room.code, "game": number,
        "rules_version": rules_version, "seed": seed, "num_players": n,
        "started_at": started, "ended_at": ended, "players": players,
        "actions": [{"version": a["version"], "seat": a["seat"], "action": a["action"],
                     "at": a["at"], "events": a["events"]} for a in log],
        "final_state": state,
        "result": result,
        "standings": await standings.upto(session, room.id, number, current),
        "hints": hints,
        "review": await game_review(session, room.id, seed),
    }


async def review_of(session: AsyncSession, room: Room, number: int) -> tuple[dict, bool]:
    """The review of game `number` of the room (GET .../review, docs/protocol.md "Review") →
    (`game_review`'s dict, True when this call made its row `pending`: a game stored before
    reviews existed; the caller commits and wakes the worker). 404 `game_not_found`, 409
    `game_not_over` as `game_record`. A finished game not yet stored as its `games` row (its
    compaction failed; the rematch stores it) answers status "none"."""
    if number == room.game_no and room.status != "over":
        raise Refusal("game_not_over")
    g = (await session.execute(select(GameRow.seed)
                               .where(GameRow.room_id == room.id, GameRow.number == number))).first()
    if g is None:
        if number == room.game_no:
            return public_review(None), False
        raise Refusal("game_not_found")
    found = await game_review(session, room.id, g.seed)
    if found["status"] != "none":
        return found, False
    row = await ensure_review(session, room.id, g.seed, number)
    return public_review(row), True


async def game_review(session: AsyncSession, room_id: int, seed: int) -> dict:
    """The review of the room's finished game of `seed` (`public_review`):
    {"status": "none" | "pending" | "running" | "ready" | "failed", "progress": 0..100,
    "review": bots/review.py's JSON once ready, else null}."""
    row = await session.scalar(select(ReviewRow).where(ReviewRow.room_id == room_id, ReviewRow.seed == seed))
    return public_review(row)


async def game_hints(session: AsyncSession, room_id: int, seed: int) -> list[dict]:
    """The hints used in the room's game of `seed` (app/live/hints.py), in order: [{"seat",
    "version" (asked at: before action version + 1), "action" (the suggestion), "why", "at"}].
    For a finished game only: while it runs, what a hint said is its seat's alone."""
    h = HintRow.__table__
    rows = (await session.execute(select(h.c.seat, h.c.version, h.c.action, h.c.why, h.c.created_at).where(
        h.c.room_id == room_id, h.c.seed == seed).order_by(h.c.version))).all()
    return [{"seat": r.seat, "version": r.version, "action": r.action, "why": r.why, "at": iso(r.created_at)}
            for r in rows]


def public_review(row: ReviewRow | None) -> dict:
    """A review row as the GET route and the record show it: {"status", "progress", "review"}
    ("review" null until ready; no row: status "none")."""
    if row is None:
        return {"status": "none", "progress": 0, "review": None}
    return {"status": row.status, "progress": row.progress, "review": row.review if row.status == "ready" else None}


async def ensure_review(session: AsyncSession, room_id: int, seed: int, number: int) -> ReviewRow:
    """The review row of the finished game (room, seed), inserted `pending` when missing (the
    caller commits; a crossing insert of another request is caught: its row is read)."""
    row = await session.scalar(select(ReviewRow).where(ReviewRow.room_id == room_id, ReviewRow.seed == seed))
    if row is not None:
        return row
    await insert_pending_review(session, room_id, seed, number)
    return await session.scalar(select(ReviewRow).where(ReviewRow.room_id == room_id, ReviewRow.seed == seed))


async def insert_pending_review(session: AsyncSession, room_id: int, seed: int, number: int) -> None:
    """Insert the game's review row as `pending` unless it has one (`ON CONFLICT DO NOTHING`)."""
    insert = postgresql.insert if session.get_bind().dialect.name == "postgresql" else sqlite.insert
    now = utcnow()
    await session.execute(insert(ReviewRow).values(room_id=room_id, seed=seed, number=number, status="pending",
                                                   progress=0, created_at=now, updated_at=now)
                          .on_conflict_do_nothing(index_elements=["room_id", "seed"]))
