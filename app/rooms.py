"""Rooms and seats in the database: create, join, add computer players, start, summaries.

Every function takes an open `AsyncSession` and never commits: the caller owns the transaction
(a room change runs under `Tables.change`, app/live/room/lock.py, which commits it). Refusals
raise `Refusal` (app/refusals.py) with the codes of docs/protocol.md; a caller that gets one rolls back.
"""
from __future__ import annotations

import math
import secrets
from datetime import datetime, timedelta
from typing import Callable

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import selectinload

import engine

from . import pace
from .refusals import Refusal
from .store.games import clock_start, start_values
from .models import Room, Seat, utcnow
from .names import check_name
from .security import hash_token, new_room_code, new_token, normalize_code, token_matches

MAX_SEATS = 4
MIN_PLAYERS = 2
HOST_SEAT = 0
BOT_NAMES = {"easy": "Bot (easy)", "normal": "Bot (normal)", "hard": "Bot (hard)"}
#: The host's choices of seconds per decision (app/live/computer/timers.py); None/0 = no timer.
TURN_LIMITS = (30, 60, 120, 300)


def turn_limits(test_s: int = 0) -> list[int]:
    """The seconds per decision a host may choose: TURN_LIMITS, and `test_s` first when set
    (Settings.turn_limit_test_s: a short timer for tests and demos)."""
    return ([test_s] if test_s and test_s not in TURN_LIMITS else []) + list(TURN_LIMITS)


def room_url(code: str, root: str = "") -> str:
    """The page of a room: ``{root}/r/{code}``; `root` is the URL prefix the request came
    under (`app.prefix.root_of`, `""` at the root, e.g. ``/osaka``)."""
    return f"{root}/r/{code}"


def iso(ts: datetime) -> str:
    """A stored (naive UTC) timestamp as ISO 8601 with ``Z``."""
    return ts.replace(microsecond=0).isoformat() + "Z"


async def load_room(session: AsyncSession, raw_code: str) -> Room:
    """The room with its seats; `Refusal` 404 `room_not_found` if there is none."""
    code = normalize_code(raw_code)
    room = None
    if code is not None:
        room = await session.scalar(select(Room).where(Room.code == code)
                                    .options(selectinload(Room.seats)))
    if room is None:
        raise Refusal("room_not_found")
    return room


def seat_of(room: Room, token: str | None) -> Seat | None:
    """The seat whose token this is (every seat is compared, in constant time), or None."""
    found = None
    if token:
        for seat in room.seats:
            if token_matches(token, seat.token_hash):
                found = seat
    return found


def require_seat(room: Room, token: str | None) -> Seat:
    """The caller's seat; 401 `unauthorized` without a valid seat token of this room."""
    seat = seat_of(room, token)
    if seat is None:
        raise Refusal("unauthorized")
    return seat


def require_host(room: Room, token: str | None) -> Seat:
    """The host's seat; 401 `unauthorized` without a valid token, 403 `not_host` otherwise."""
    seat = seat_of(room, token)
    if seat is None:
        raise Refusal("unauthorized")
    if seat.seat != HOST_SEAT:
        raise Refusal("not_host")
    return seat


async def create_room(session: AsyncSession, name: str, public: bool,
                      creator_hash: str | None = None, turn_limit_s: int | None = None,
                      pace: str = "live", hints: bool = False, tutorial: bool = False) -> tuple[Room, str]:
    """A new waiting room with the creator as host in seat 0 → (room, token) (flushed, not
    committed). Each try is a SAVEPOINT, so a code collision undoes only that try.
    `active_at` = `created_at` marks it as never joined nor connected to (cleanup:
    UNUSED_ROOM_TTL_S); `creator_hash` is the creator's address (app/ratelimit.py);
    `turn_limit_s` the timer and `pace` ("live"/"turn") (checked by the caller: app/pace.py
    `check_pace`); `hints`: the host allows hints (app/live/hints.py); `tutorial`: a "Learn to
    play" room (app/tutorial.py)."""
    token = new_token()
    for _ in range(5):
        now = utcnow()
        room = Room(code=new_room_code(), public=public, status="waiting", version=0,
                    created_at=now, active_at=now, creator_hash=creator_hash, game_no=1,
                    turn_limit_s=turn_limit_s, chat_spectators=True, pace=pace, hints=hints,
                    tutorial=tutorial)
        room.seats = [Seat(seat=HOST_SEAT, name=name, token_hash=hash_token(token), created_at=utcnow(),
                           ready=True, away_until=None, away_used_s=0)]
        try:
            async with session.begin_nested():
                session.add(room)
            return room, token
        except IntegrityError:  # code collision (2^-50 per pair): try another
            pass
    raise Refusal("conflict", "Could not allocate a room code; try again.")


def _require_waiting(room: Room) -> None:
    if room.status != "waiting":
        raise Refusal("game_started")


def _next_seat(room: Room) -> int:
    taken = {s.seat for s in room.seats}
    for n in range(MAX_SEATS):
        if n not in taken:
            return n
    raise Refusal("room_full", max_seats=MAX_SEATS)


async def join_room(session: AsyncSession, room: Room, name: str) -> tuple[Seat, str]:
    """Seat a new player in the next free seat → (seat, token).

    409 `game_started` after the start, 409 `room_full` with 4 seats taken, 409 `name_taken`
    / 422 `name_reserved` for a name like another seat's or a computer player's (app/names.py)."""
    token = new_token()
    seat = await _take_next_seat(session, room, lambda n: Seat(
        room_id=room.id, seat=n, name=name, token_hash=hash_token(token), created_at=utcnow(),
        ready=True, away_until=None, away_used_s=0),
        check=lambda: check_name(name, [s.name for s in room.seats]))
    room.active_at = utcnow()
    return seat, token


async def add_bot(session: AsyncSession, room: Room, level: str) -> Seat:
    """A computer player of `level` takes the next free seat (before the start)."""
    return await _take_next_seat(session, room, lambda n: Seat(
        room_id=room.id, seat=n, name=BOT_NAMES[level], token_hash=None, bot_level=level,
        created_at=utcnow(), ready=True, away_until=None, away_used_s=0))


async def _take_next_seat(session: AsyncSession, room: Room, make: Callable[[int], Seat],
                          check: Callable[[], None] = lambda: None) -> Seat:
    """Write `make(number)` in the lowest free seat number now, each try in a SAVEPOINT
    (`check()` first: it may refuse, e.g. a name already taken).

    Another server process (PostgreSQL) may take that number at the same moment: the unique
    (room, seat) constraint refuses the second, the room's seats and status are read again and
    the next free number is tried, so the caller learns the true outcome (seated, `room_full`,
    `game_started`, `name_taken`) rather than a race. 409 `conflict` only if that keeps failing."""
    for _ in range(MAX_SEATS + 1):
        _require_waiting(room)
        number = _next_seat(room)
        check()
        seat = make(number)
        try:
            async with session.begin_nested():
                room.seats.append(seat)  # in the session by cascade; the room in memory stays current
            return seat
        except IntegrityError:  # someone else took that seat number at the same moment
            await session.refresh(room, ["seats", "status"])
    raise Refusal("conflict")


async def remove_seat(session: AsyncSession, room: Room, number: int) -> None:
    """Before the start, free seat `number` (the caller checked the host): a computer player's
    (a seat of `add_bot`) or a person's who joined (someone filling a listed room's seats, a
    friend in the wrong room). That person's open sockets lose the seat under the room's lock
    (`seat_lost`, then a spectator's frames, in every process: `Publisher.unseat_stale`); their
    token no longer holds a seat, and they may join again like anyone.

    409 `game_started` after the start, 404 `seat_not_found`, 409 `host_cannot_leave` for the
    host's own seat."""
    _require_waiting(room)
    seat = next((s for s in room.seats if s.seat == number), None)
    if seat is None:
        raise Refusal("seat_not_found")
    if seat.seat == HOST_SEAT:
        raise Refusal("host_cannot_leave")
    room.seats.remove(seat)  # delete-orphan: the row goes with it


async def start_game(session: AsyncSession, room: Room, seed: int | None = None) -> None:
    """Fix the player count and a fresh random seed (`seed`: this one instead, the prepared
    deal of a "Learn to play" room: app/tutorial.py); status → playing (R-setup). The new
    game's state is stored with it (snapshot at version 0, the engine's current rules version).

    409 `game_started` if already started, 409 `not_enough_players` with fewer than 2, 409
    `seat_empty` (field `seat`) when a seat below a taken one is free (a player left it before
    a rematch, or a computer player was removed): engine seats are the room's seats 0..n-1."""
    _require_waiting(room)
    if len(room.seats) < MIN_PLAYERS:
        raise Refusal("not_enough_players", min_players=MIN_PLAYERS)
    taken = {s.seat for s in room.seats}
    gap = next((n for n in range(len(taken)) if n not in taken), None)
    if gap is not None:
        raise Refusal("seat_empty", seat=gap, shown=gap + 1)
    seed = secrets.randbits(62) if seed is None else seed
    game = engine.new_game(len(room.seats), seed)
    first = next((s for s in room.seats if s.seat == game.to_act), None)  # away: its clock starts later
    result = await session.execute(
        update(Room).where(Room.id == room.id, Room.status == "waiting")
        .values(status="playing", seed=seed, num_players=len(room.seats),
                started_at=utcnow(), version=0, creator_hash=None, paused_at=None,
                **start_values(game, room.turn_limit_s, first.away_until if first is not None else None)))
    if result.rowcount != 1:
        raise Refusal("game_started")


def set_chat_spectators(room: Room, open_: bool) -> None:
    """Open or close the room's chat to spectators (the host, any time: app/live/chat.py)."""
    room.chat_spectators = open_


def set_hints(room: Room, allowed: bool) -> None:
    """(The host, before a game.) Allow or forbid hints (app/live/hints.py); 409
    `game_started` while a game runs or is over (the players' terms do not change mid-game)."""
    _require_waiting(room)
    room.hints = allowed


async def hand_seat_to_bot(session: AsyncSession, room: Room, number: int, level: str,
                           connected: set[int], by: int | None = None, offline_s: float = 0.0,
                           after_s: float = 0.0, idle_s: float | None = None, since_start: bool = False) -> Seat:
    """During a game, let a computer player of `level` play a disconnected or idle seat.

    `by` is the caller's seat number (None = the host, as before): the host may do it at once; any
    other seated player whose own seat is connected only once the seat has been offline
    `offline_s` ≥ `after_s` seconds (Settings.handover_after_s), so one lost cookie cannot
    stall a game. `since_start`: the room is older than this server process and the seat
    has not been connected since the process started (Hub.since_start), so `offline_s` counts
    from the start: the host too waits until `offline_s` ≥ `after_s` (a restart is not a player
    leaving). A seat whose decision it has been for `idle_s` ≥ `after_s` seconds may be
    handed over by any other seated, connected player (host or not) even while it is connected,
    in a room without a turn timer (with one, its time-outs do that: app/live/computer/timers.py); before
    that a connected seat is refused with `seat_connected`, as always. In a turn-based room
    (app/pace.py) nobody but the host may hand a person's seat over: its players are offline
    for days by design, and the time-out makes the late decisions (409 `turn_based_room`).
    A seat a computer player already plays changes level by the host only (409
    `bot_plays_seat` for anyone else).
    404 `seat_not_found`, 409 `game_not_started` / `game_over` /
    `seat_connected`, 403 `not_connected` (the caller's own seat has no live connection),
    403 `not_yet` (field `retry_after_s`: the whole seconds left)."""
    if room.status == "waiting":
        raise Refusal("game_not_started")
    if room.status == "over":
        raise Refusal("game_over")
    seat = next((s for s in room.seats if s.seat == number), None)
    if seat is None:
        raise Refusal("seat_not_found")
    idle = (idle_s is not None and room.turn_limit_s is None and by != number
            and seat.bot_level is None and idle_s >= after_s)
    if number in connected and not idle:
        raise Refusal("seat_connected")
    host = by is None or by == HOST_SEAT
    if not host and seat.bot_level is not None:
        # Only the host changes the level of a computer player already playing (an opponent
        # could otherwise make an absent player's stand-in easy: found by a break test).
        raise Refusal("bot_plays_seat")
    if not host and room.pace == "turn" and seat.bot_level is None:
        # Turn-based: people are offline for days; only the time-out (or the host) hands over.
        raise Refusal("turn_based_room")
    if not host and by not in connected:
        raise Refusal("not_connected")
    if (not host or since_start) and not idle and offline_s < after_s:
        left = math.ceil(after_s - offline_s)
        raise Refusal("not_yet", retry_after_s=left)
    seat.bot_level = level
    return seat


async def seat_to_timeout_bot(session: AsyncSession, room_id: int, number: int, level: str) -> bool:
    """After repeated time-outs (app/live/actions/path.py): a computer player of `level` plays the
    person's seat `number` until its player takes it back; False if it already is a bot's."""
    result = await session.execute(update(Seat).where(
        Seat.room_id == room_id, Seat.seat == number, Seat.bot_level.is_(None), Seat.token_hash.is_not(None))
        .values(bot_level=level))
    return result.rowcount == 1


async def take_seat_back(session: AsyncSession, room_id: int, number: int) -> None:
    """A person takes their seat back from the computer player (their connection arrives, or
    `DELETE /api/rooms/{code}/seats/{seat}/bot`). When it is that seat's decision, its clock
    starts again now (a fresh deadline with a timer: app/live/computer/timers.py)."""
    await session.execute(update(Seat).where(Seat.room_id == room_id, Seat.seat == number)
                          .values(bot_level=None))
    row = (await session.execute(select(Room.turn_limit_s, Room.paused_at, Seat.away_until).join(
        Seat, (Seat.room_id == Room.id) & (Seat.seat == number)).where(
        Room.id == room_id, Room.status == "playing", Room.to_act == number))).first()
    if row is not None:
        now = clock_start(utcnow(), row.away_until, row.paused_at)  # away, pause: app/pace.py
        await session.execute(update(Room).where(Room.id == room_id, Room.to_act == number).values(
            turn_at=now, deadline_at=now + timedelta(seconds=row.turn_limit_s) if row.turn_limit_s else None))


def summary(room: Room, connected: set[int], you: int | None,
            offline_for: Callable[[int], float] | None = None, handover_after_s: float = 60,
            limits: list[int] | None = None, since_start: Callable[[int], bool] | None = None,
            connected_for: Callable[[int], float | None] | None = None,
            turn_based: list[int] | None = None, now: datetime | None = None) -> dict:
    """The room summary of docs/protocol.md (`RoomOut`). `offline_for(seat)` → seconds a
    seat has been without a connection (Hub.offline_for); it fills `offline_s` of the
    players that are neither connected nor computer players (else null), and `since_start(seat)`
    (Hub.since_start) their `since_start` (a room older than the server process, the seat not
    connected since it started: its `offline_s` counts from the start and the host too waits
    `handover_after_s`). `connected_for(seat)` (Hub.connected_for) → seconds a seat has been
    connected without a break here, or None: `connected_s` of a connected person's seat (else
    null), from which its idle time on a decision counts when it came back during it.
    `limits`: the turn timers the host may choose (`turn_limits`), `turn_based` the
    turn-based ones (app/pace.py `turn_based_limits`); `now` (default: now) for each seat's
    `away_until` (null unless in the future) and `away_left_s`."""
    now = now or utcnow()
    def offline(s: Seat) -> int | None:
        if offline_for is None or s.bot_level is not None or s.seat in connected:
            return None
        return int(offline_for(s.seat))

    def online(s: Seat) -> int | None:
        if connected_for is None or s.bot_level is not None or s.seat not in connected:
            return None
        back = connected_for(s.seat)
        return None if back is None else int(back)

    def player(s: Seat) -> dict:
        off = offline(s)
        return {"seat": s.seat, "name": s.name, "bot": s.bot_level is not None, "bot_level": s.bot_level,
                "connected": s.bot_level is not None or s.seat in connected,
                "offline_s": off, "connected_s": online(s), "ready": s.ready,
                "since_start": off is not None and since_start is not None and since_start(s.seat),
                "away_until": iso(s.away_until) if s.away_until is not None and s.away_until > now else None,
                "away_left_s": pace.away_left_s(s, now)}
    return {
        "code": room.code, "url": room_url(room.code), "status": room.status,
        "public": room.public, "host_seat": HOST_SEAT, "max_seats": MAX_SEATS,
        "created_at": iso(room.created_at), "version": room.version,
        "handover_after_s": int(math.ceil(handover_after_s)),
        "turn_limit_s": room.turn_limit_s,
        "chat_spectators": room.chat_spectators is not False,
        "turn_limits": limits if limits is not None else list(TURN_LIMITS),
        "players": [player(s) for s in sorted(room.seats, key=lambda s: s.seat)],
        "you": you, "game": room.game_no,
        "pace": room.pace or pace.LIVE,
        "turn_based_limits": turn_based if turn_based is not None else list(pace.TURN_BASED_LIMITS),
        "paused_at": iso(room.paused_at) if room.paused_at is not None else None,
        "standings": room.standings,  # the finished games only (app/standings.py); None before the first
        "hints": bool(room.hints),
        "tutorial": bool(room.tutorial),
    }
