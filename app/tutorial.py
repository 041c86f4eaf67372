""""Learn to play" (issue 32): a guided first game on the real server (docs/ui.md "Learn to play",
docs/protocol.md `POST /api/tutorial`).

A tutorial room is a real room: the person in seat 0 (the host) and `TUTORIAL_BOTS` normal
computer players, private (never in the lobby), hints allowed, started at once on the prepared
deal `TUTORIAL_SEED`. In it every computer player's move and every hint the person gets is the
normal computer player seeded by its own view (`bots.tutorial.suggestion`), so the deal plays
the same way each time the person follows the suggestions: on this seed every rule the guide
explains (`bots.tutorial.RULES`) comes up for the person within its 26 decisions
(tools/tutorial_seed.py found it; tests/bots/test_tutorial.py checks it). A computer player
waits at most `TUTORIAL_BOT_DELAY_S` before it moves (BOT_DELAY_S when shorter).
"""
from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from . import rooms as R
from .models import Room

#: The prepared deal (tools/tutorial_seed.py: `--players 3`, the earliest of seeds 1..300 on
#: which the reserve, the Black Tide and the person's insurance come by decision 10).
TUTORIAL_SEED = 271
#: The computer players of a tutorial, all of the level the suggestions come from.
TUTORIAL_BOTS = 2
TUTORIAL_LEVEL = "normal"
#: The longest pause (seconds) before a tutorial's computer player moves: quick, yet visible.
TUTORIAL_BOT_DELAY_S = 0.6


async def create_tutorial(session: AsyncSession, name: str, creator_hash: str | None) -> tuple[Room, str]:
    """The tutorial room of a person called `name` → (room, token) (flushed, not committed;
    the caller starts it: `start_tutorial`). Private, hints allowed, no turn timer."""
    return await R.create_room(session, name, False, creator_hash, None, "live", hints=True, tutorial=True)


async def start_tutorial(session: AsyncSession, room: Room) -> None:
    """Seat the computer players and start the prepared deal (under the room's lock)."""
    for _ in range(TUTORIAL_BOTS):
        await R.add_bot(session, room, TUTORIAL_LEVEL)
    await R.start_game(session, room, seed=TUTORIAL_SEED)


def bot_delay_s(configured_s: float, tutorial: bool) -> float:
    """The pause before a computer player moves: BOT_DELAY_S, at most TUTORIAL_BOT_DELAY_S in a tutorial."""
    return min(configured_s, TUTORIAL_BOT_DELAY_S) if tutorial else configured_s
