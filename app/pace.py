"""A room's pace, a seat's "away until" and the host's pause (docs/protocol.md "Pace, away and
pause"; the rulings: docs/rules.md "Play across days").

- Pace: `live` (the timers of `rooms.TURN_LIMITS`, or none) or `turn` (turn-based: a time per
  decision of `TURN_BASED_LIMITS`, always one). Chosen at creation or before a game
  (`check_pace`, `set_pace`).
- Away: a seated person says they are away until a time (`set_away`); their decisions' clock
  does not run before then. At most `AWAY_BUDGET_S` per game in all, counted as they use it
  (`seats.away_used_s` holds the seconds taken, the running away's rest included; clearing or
  shortening it early gives the rest back).
- Pause: the host stops the whole game (`pause`); no action counts while paused (refusal
  `game_paused`, app/live/actions/path.py), the time-outs wait, and the resume moves every
  running deadline on by the paused time (`resume`).

A decision's clock stands still while the game is paused or its seat is away, and each second
stands still once: where an away and a pause overlap, the overlap is given back once. While
paused, the clock stands at the pause, so an away set (or cleared) then is measured from
`paused_at` (`_clock_since`), and the resume gives back the paused time the away did not
already cover (`resume`).

The stored clock keeps its meaning for every reader (app/live/computer/timers.py, the
notifications): `rooms.deadline_at` is when the time-out fires, with away and pause already
added, and `rooms.turn_at` moves with it, so `deadline_at - turn_at` is the room's
`turn_limit_s` (the clock "began" when the away ended / at the resume). Pure functions over the
ORM rows: the caller holds the room's lock (`Tables.change`) and commits.
"""
from __future__ import annotations

from datetime import datetime, timedelta

from .models import Room, Seat
from .refusals import Refusal
from .store.games import clock_start

LIVE, TURN = "live", "turn"
PACES = (LIVE, TURN)
#: The turn-based times per decision a host may choose: 1 hour, 8 hours, 1 day, 3 days.
TURN_BASED_LIMITS = (3600, 28800, 86400, 259200)
#: The away time one seat may take in one game, in all: 7 days.
AWAY_BUDGET_S = 7 * 86400


def turn_based_limits(test_s: int = 0) -> list[int]:
    """The turn-based seconds per decision: TURN_BASED_LIMITS, and `test_s` first when set
    (Settings.turn_based_test_s: a short one for tests and demos)."""
    return ([test_s] if test_s and test_s not in TURN_BASED_LIMITS else []) + list(TURN_BASED_LIMITS)


def check_pace(pace: str, limit_s: int | None, live_limits: list[int], turn_limits: list[int]) -> int | None:
    """`limit_s` as stored for `pace` (None = no timer, live only). 422 `bad_pace` for a pace
    other than live/turn; 422 `bad_pace_limit` for a turn-based room without one of
    `turn_limits`, or a live room asking for a turn-based time; 422 `bad_turn_limit` for a
    live time offered by neither list."""
    if pace not in PACES:
        raise Refusal("bad_pace")
    if pace == TURN:
        if not limit_s or limit_s not in turn_limits:
            raise Refusal("bad_pace_limit", pace=pace)
        return limit_s
    if not limit_s:
        return None
    if limit_s not in live_limits:
        raise Refusal("bad_pace_limit" if limit_s in turn_limits else "bad_turn_limit", pace=pace)
    return limit_s


def set_pace(room: Room, pace: str, limit_s: int | None) -> None:
    """(Before the start.) The room's pace and its time per decision (checked: `check_pace`);
    409 `game_started` after the start."""
    if room.status != "waiting":
        raise Refusal("game_started")
    room.pace, room.turn_limit_s = pace, limit_s


def away_rest(seat: Seat, now: datetime) -> timedelta:
    """How much of the seat's away is still to come at `now` (zero when not away)."""
    if seat.away_until is None or seat.away_until <= now:
        return timedelta(0)
    return seat.away_until - now


def away_left_s(seat: Seat, now: datetime) -> int:
    """The seconds of away the seat may still set from `now` (the budget less what it used,
    the running away's rest not counted as used)."""
    used = (seat.away_used_s or 0) - int(away_rest(seat, now).total_seconds())
    return max(0, AWAY_BUDGET_S - used)


def set_away(room: Room, seat: Seat, until: datetime | None, now: datetime) -> timedelta:
    """The seat's player is away until `until` (naive UTC, whole seconds; None: back now).
    → how far the seat's running decision's clock moved (positive: later; zero when it is not
    that seat's decision). Clearing or moving it earlier gives the unused rest back.

    409 `not_turn_based` in a live room, 409 `game_over` once the game is over; 422
    `bad_away_time` for a time not after `now`; 422 `away_too_long` (field `left_s`) beyond
    the seconds left of AWAY_BUDGET_S."""
    if room.pace != TURN:
        raise Refusal("not_turn_based")
    if room.status == "over":
        raise Refusal("game_over")
    old = away_rest(seat, now)
    if until is not None and until <= now:
        raise Refusal("bad_away_time")
    new = timedelta(0) if until is None else until - now
    left = away_left_s(seat, now)
    if new.total_seconds() > left:
        raise Refusal("away_too_long", left_s=left)
    since = _clock_since(room, now)
    old_clock = away_rest(seat, since)  # the clock's view: from the pause while paused
    seat.away_used_s = (seat.away_used_s or 0) - int(old.total_seconds()) + int(new.total_seconds())
    seat.away_until = until
    shift = (timedelta(0) if until is None else until - since) - old_clock
    if room.status != "playing" or room.to_act != seat.seat or room.deadline_at is None:
        return timedelta(0)
    if shift:
        room.deadline_at += shift
        room.turn_at = room.turn_at + shift if room.turn_at is not None else None
    return shift


def _clock_since(room: Room, now: datetime) -> datetime:
    """Where the running decision's clock stands: at the pause while paused, else now
    (store.games.clock_start without an away)."""
    return clock_start(now, None, room.paused_at if room.status == "playing" else None)


def reset_away(room: Room) -> None:
    """A new game of the room (play again): every seat's away and its budget start afresh."""
    for seat in room.seats:
        seat.away_until, seat.away_used_s = None, 0


def pause(room: Room, now: datetime) -> None:
    """(The host, during a game.) Stop the game's clock at `now`: `paused_at` = now; the
    deadline stays as stored (it moves on at the resume). 409 `game_not_started`,
    `game_over`, `game_paused` (already paused)."""
    _require_playing(room)
    if room.paused_at is not None:
        raise Refusal("game_paused")
    room.paused_at = now


def resume(room: Room, now: datetime) -> timedelta:
    """(The host.) Go on: the running decision's start and deadline move on by the paused
    time its seat's away did not already give back (the clock stood from `paused_at` to `now`;
    an away of the seat to act until after `paused_at` already stopped it until then) → that
    time; `paused_at` = None. 409 `game_not_started`, `game_over`, `not_paused`."""
    _require_playing(room)
    if room.paused_at is None:
        raise Refusal("not_paused")
    seat = next((s for s in room.seats if s.seat == room.to_act), None) if room.to_act is not None else None
    # The clock stood from the pause, or from the end of an away that already covered it
    # (the start a decision begun now would get: store.games.clock_start).
    paused = max(timedelta(0), now - clock_start(now, seat.away_until if seat else None, room.paused_at))
    if room.deadline_at is not None:
        room.deadline_at += paused
    if room.turn_at is not None:
        room.turn_at += paused
    room.paused_at = None
    return paused


def _require_playing(room: Room) -> None:
    if room.status == "waiting":
        raise Refusal("game_not_started")
    if room.status == "over":
        raise Refusal("game_over")
