"""HTTP API of a room's pace (docs/protocol.md "Pace, away and pause"): a seat's "away until",
the host's pause and resume. The pace itself is chosen with the room (POST /api/rooms) and
before a game (POST /api/rooms/{code}/timer): app/routes/rooms.py. The rules: app/pace.py."""
from __future__ import annotations

from datetime import timezone

from fastapi import APIRouter

from .. import pace as P
from .. import rooms as R
from ..deps import LiveDep, TokenDep
from ..models import utcnow
from ..refusals import responses
from ..schemas import AwayIn, RoomOut
from .rooms import BODY, HOST, SEATED

router = APIRouter(prefix="/api/rooms", tags=["rooms"])


@router.put("/{code}/away", response_model=RoomOut,
            responses=responses(*SEATED, "not_turn_based", "game_over", "bad_away_time", "away_too_long", *BODY))
async def set_away(code: str, body: AwayIn, live: LiveDep, token: TokenDep):
    """(A seated person, turn-based room, before or during a game.) Away until `until` (ISO
    8601 UTC; null: back now): the seat's decisions' clock does not run before then (a running
    decision's deadline moves on by the away time; clearing early moves it back). At most 7
    days per game in all (`away_left_s` in the summary). 409 `not_turn_based`, `game_over`;
    422 `bad_away_time` (not in the future), `away_too_long` (field `left_s`). → the room summary."""
    until = body.until
    if until is not None:
        if until.tzinfo is not None:
            until = until.astimezone(timezone.utc).replace(tzinfo=None)
        until = until.replace(microsecond=0)
    async with live.change(code) as held:
        seat = R.require_seat(held.room, token)
        P.set_away(held.room, seat, until, utcnow().replace(microsecond=0))
        out = live.summary(held.room, seat.seat)
    return out


@router.post("/{code}/pause", response_model=RoomOut,
             responses=responses(*HOST, "game_not_started", "game_over", "game_paused"))
async def pause(code: str, live: LiveDep, token: TokenDep):
    """(Host only, during a game.) Pause the game: no action counts (`game_paused`), no
    time-out fires, the clock stands still until the resume. 409 `game_paused` when it already
    is. → the room summary (`paused_at`)."""
    async with live.change(code) as held:
        R.require_host(held.room, token)
        P.pause(held.room, utcnow())
        out = live.summary(held.room, R.HOST_SEAT)
    return out


@router.post("/{code}/resume", response_model=RoomOut,
             responses=responses(*HOST, "game_not_started", "game_over", "not_paused"))
async def resume(code: str, live: LiveDep, token: TokenDep):
    """(Host only.) Resume a paused game: the running decision's deadline moves on by the
    paused time. 409 `not_paused`. → the room summary (`paused_at: null`)."""
    async with live.change(code) as held:
        R.require_host(held.room, token)
        P.resume(held.room, utcnow())
        out = live.summary(held.room, R.HOST_SEAT)
    return out


__all__ = ["router"]
