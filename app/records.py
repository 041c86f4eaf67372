"""The record of a finished game: JSON (docs/record.schema.json), a readable text log, a replay.

A room's finished games are the rows of `games` (kept when the room played again) and, while
the room shows it, the current game once it is over (its snapshot and action log). Nothing
here answers for a game that is still running or not started: `409 game_not_over` — the
record holds every hand and the deck, so it exists only after the end (R-info-3).

Every function takes an open session and never commits.
"""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import undefer

import engine

from .errors import ApiError
from .models import ActionRow, GameRow, Room
from .rooms import iso

FORMAT = "traders-of-osaka-record"
FORMAT_VERSION = 1


def _players(room: Room) -> list[dict]:
    """The record's players: [{"seat", "name", "bot_level", "computer"}] by seat. A computer
    player added by the host (no person's token) is named as the table names it, "Computer
    (easy)", or "Computer 3 (easy)" (its seat number) when there are several; a person keeps
    their name, with `bot_level` set when a computer player held their seat at the end."""
    seats = sorted(room.seats, key=lambda s: s.seat)
    computers = [s for s in seats if s.bot_level and s.token_hash is None]
    def name(s) -> str:
        if s not in computers:
            return s.name
        return f"Computer {s.seat + 1} ({s.bot_level})" if len(computers) > 1 else f"Computer ({s.bot_level})"
    return [{"seat": s.seat, "name": name(s), "bot_level": s.bot_level, "computer": s in computers}
            for s in seats]


async def _current_log(session: AsyncSession, room: Room) -> list[dict]:
    rows = (await session.scalars(select(ActionRow).where(ActionRow.room_id == room.id)
                                  .options(undefer(ActionRow.events)).order_by(ActionRow.version))).all()
    return [{"version": r.version, "seat": r.seat, "action_id": r.action_id, "action": r.action,
             "events": r.events, "at": iso(r.created_at)} for r in rows]


async def _current_state(session: AsyncSession, room: Room) -> dict:
    return await session.scalar(select(Room.state).where(Room.id == room.id))


def _stamp(ts) -> str | None:
    return None if ts is None else iso(ts)


async def finished_game_row(session: AsyncSession, room: Room) -> GameRow:
    """The room's finished current game as a `games` row (not added to the session): number =
    `room.game_no`, the players as seated at the end, the action log with times and events,
    the final state. The rematch (app/rematch.py) adds it only after its version-guarded UPDATE
    won, so one request per game stores it; the unique (room_id, number) refuses a second."""
    log = await _current_log(session, room)
    ended = datetime.fromisoformat(log[-1]["at"].rstrip("Z")) if log else None
    return GameRow(room_id=room.id, number=room.game_no, rules_version=room.rules_version,
                   seed=room.seed, num_players=room.num_players, players=_players(room), log=log,
                   final_state=await _current_state(session, room), started_at=room.started_at,
                   ended_at=ended)


async def drop_current_log(session: AsyncSession, room: Room) -> None:
    """Delete the room's action rows (archived): the next game's versions and ids start afresh."""
    await session.execute(delete(ActionRow).where(ActionRow.room_id == room.id))


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
    if room.status == "over":
        log = await _current_log(session, room)
        games.append(_summary(room.game_no, _players(room), await _current_state(session, room),
                              _stamp(room.started_at), log[-1]["at"] if log else None))
    return {"current": room.game_no, "status": room.status, "games": games}


async def game_record(session: AsyncSession, room: Room, number: int) -> dict:
    """The record of game `number` of the room (the JSON of docs/record.schema.json).

    404 `game_not_found` for a number the room never had; 409 `game_not_over` for the current
    game before its end (nothing of a running game is in any record)."""
    if number == room.game_no:
        if room.status != "over":
            raise ApiError(409, "game_not_over", "The game is not over yet.")
        log = await _current_log(session, room)
        players, state = _players(room), await _current_state(session, room)
        started, ended = _stamp(room.started_at), (log[-1]["at"] if log else None)
        rules_version, seed, n = room.rules_version, room.seed, room.num_players
    else:
        g = await session.scalar(select(GameRow).where(GameRow.room_id == room.id, GameRow.number == number)
                                 .options(undefer(GameRow.log), undefer(GameRow.final_state)))
        if g is None:
            raise ApiError(404, "game_not_found", "This room has no such game.")
        log, players, state = g.log, g.players, g.final_state
        started, ended = _stamp(g.started_at), _stamp(g.ended_at)
        rules_version, seed, n = g.rules_version, g.seed, g.num_players
    final = engine.GameState.from_json(state)
    events = [e for a in log for e in a["events"]]
    return {
        "format": FORMAT, "format_version": FORMAT_VERSION, "room": room.code, "game": number,
        "rules_version": rules_version, "seed": seed, "num_players": n,
        "started_at": started, "ended_at": ended, "players": players,
        "actions": [{"version": a["version"], "seat": a["seat"], "action": a["action"],
                     "at": a["at"], "events": a["events"]} for a in log],
        "final_state": state,
        "result": engine.game_result(final, events),
    }
