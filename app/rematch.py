"""Play again: the same room, seats and computer players, a new game.

A finished room moves on to its next game with ONE version-guarded UPDATE (`status = 'over'
AND game_no = n` → waiting, `game_no = n + 1`): however many requests cross — every player at
once, one player twice, two tabs, two server processes on PostgreSQL — exactly one of them
matches, archives the finished game (app/records.py, unique per room and number; nothing to
store when it was compacted at its end already) and clears the
seats' `ready`; the others find the room already waiting for game n + 1 and only say that their
player is in. Then each player says they are in (`ready`) or leaves their seat; newcomers may
take free seats; the host starts as before (app/rooms.py `start_game`).

Every function takes an open session and never commits (the caller runs under `Tables.change`).
"""
from __future__ import annotations

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession

from .refusals import Refusal
from .models import Room, Seat
from .records import drop_current_log, finished_game_values, store_game
from .pace import reset_away
from .rooms import remove_seat


async def play_again(session: AsyncSession, room: Room, seat: Seat, game: int | None) -> bool:
    """The seated player `seat` wants to play again after game `game` (None = the room's last
    finished game) → True when this call moved the room on to a new game.

    Room over (game `game` or none given): archive it, the room waits for game n + 1 with the
    same seats (a person's seat a computer player took over is the person's again), the
    computer players are in. Room already waiting after that game: only `seat` is marked in.
    409 `game_not_over` while the game runs; 409 `game_started` when `game` is not the room's
    last finished game (a repeated click that arrives after the next game began)."""
    if room.status == "over" and game in (None, room.game_no):
        number = room.game_no
        finished = await finished_game_values(session, room)  # read before the UPDATE clears it
        result = await session.execute(
            update(Room).where(Room.id == room.id, Room.status == "over", Room.game_no == number)
            .values(status="waiting", game_no=number + 1, seed=None, state=None, state_version=None,
                    rules_version=None, to_act=None, version=0, num_players=None, started_at=None)
            .execution_options(synchronize_session=False))
        if result.rowcount == 1:
            if finished is not None:
                await store_game(session, finished)
            await drop_current_log(session, room)
            for s in room.seats:
                if s.token_hash is not None:
                    s.bot_level = None      # a handed-over seat is its person's again
                s.ready = s.token_hash is None or s.seat == seat.seat
            reset_away(room)  # "away" is counted per game (app/pace.py)
            await session.flush()
            await session.refresh(room)
            return True
        await session.refresh(room, ["status", "game_no", "version", "seats"])  # someone else was first
    if room.status == "waiting" and room.game_no > 1 and game in (None, room.game_no - 1):
        seat.ready = True
        return False
    if room.status == "playing" and game in (None, room.game_no):
        raise Refusal("game_not_over")
    raise Refusal("game_started", "The next game has already started.")


async def leave_seat(session: AsyncSession, room: Room, seat: Seat) -> None:
    """Before a game starts, a person gives up their seat (it is free again; their token no
    longer belongs to a seat of the room). 409 `host_cannot_leave` for the host (seat 0),
    409 `game_started` once the game runs. The same step as the host freeing it
    (`rooms.remove_seat`)."""
    await remove_seat(session, room, seat.seat)
