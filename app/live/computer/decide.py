"""Deciding for a seat: the one place where a computer player chooses and its choice is submitted,
for the computer players' own seats (bots.py) and for a person's seat at its deadline (timers.py).

`Decider.decide` asks `bots.choose_action` in a worker process (never on the event loop; its own
`WorkerPool` of app/live/workers.py), then hands the action to the caller's `submit` (`Actions.act`,
the same path as a person's action: version check, engine, commit, fan-out). A choice that
fails or is refused falls back on up to `FALLBACK_TRIES` random legal actions, unless the game
moved on meanwhile (another decision counted). A computer player only ever receives
`engine.player_view` output and the events visible to its seat.
"""
from __future__ import annotations

import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

import engine

from ... import metrics
from ...config import Settings
from ...logs import action_kind
from ...tutorial import TUTORIAL_LEVEL
from ..room.lock import Tables
from ..workers import WorkerPool

log = logging.getLogger("osaka.bots")
FALLBACK_TRIES = 3  # random legal actions tried after a refused choice, before giving up the decision


def choose_in_worker(view: dict, level: str, history: list[dict], seed: int | None, budget_s: float,
                     min_simulations: int = 0) -> dict:
    """Runs in a worker process: import the bots package lazily and ask it for an action JSON
    (the hard player thinks `budget_s` seconds, longer until `min_simulations`)."""
    import bots  # noqa: PLC0415 - lazy on purpose: the bots package is optional at import time
    return bots.choose_action(view, level, history=history, seed=seed, time_budget_s=budget_s,
                              min_simulations=min_simulations)


def suggest_in_worker(view: dict, history: list[dict], seed: int, budget_s: float,
                      min_simulations: int = 0) -> dict:
    """Runs in a worker process: the hard player's hint for `view` (`bots.hint.suggest`:
    {"action", "why"}); a view with hidden keys is refused there as for a computer player."""
    from bots.hint import suggest  # noqa: PLC0415 - lazy, as choose_in_worker
    return suggest(view, history, seed=seed, time_budget_s=budget_s, min_simulations=min_simulations)


class Decider:
    """Chooses for a seat in the worker processes and submits, with the fallback (module docstring)."""

    def __init__(self, settings: Settings, tables: Tables):
        self.settings = settings
        self.tables = tables
        self.pool = WorkerPool("computer players", settings.bot_workers)

    async def decide(self, code: str, seat: int, version: int, level: str, view: dict, history: list[dict],
                     state: Any, submit: Callable[[dict], Awaitable[bool]], tutorial: bool = False) -> bool | None:
        """Decide for `seat` of room `code` at `version`: the computer player of `level` chooses
        from `view` and `history` (what that seat may see, taken under the room's lock with
        `state`, the game then), and `submit(action)` tries it (True when applied; every
        submission gets a fresh id). Refused, or no choice (the worker failed): up to
        FALLBACK_TRIES random legal actions of `state`. → True when one was applied, None when
        the game moved on meanwhile (another decision counted), False when none was applied (the
        caller stops until something changes: it never spins on a refusal). What `submit`
        raises (`NotABotSeat`) goes to the caller. `tutorial` (a "Learn to play" room,
        app/tutorial.py): the choice is seeded by the view itself (`seed=None`), so the same
        deal plays the same way; else a fresh random seed per decision."""
        seed = secrets.randbits(32)
        try:
            action = await self.choose(view, level, history, None if tutorial else seed)
        except Exception:
            log.exception("bots.choose_action failed (room %s, seat %s); playing a random legal action", code, seat)
            action = None
        if action is not None:
            if await submit(action):
                return True
            if self._moved(code, version):
                return None
            log.warning("the computer player's %s in room %s (seat %s) was refused; playing a random legal action",
                        action_kind(action), code, seat)  # its type only: the payload shows a hand
        legal = engine.legal_actions(state, seat)
        rng = random.Random(seed)
        for _ in range(min(FALLBACK_TRIES, len(legal))):
            if await submit(rng.choice(legal).to_json()):
                return True
            if self._moved(code, version):
                return None
        log.warning("no decision was applied in room %s (seat %s); waiting for a change", code, seat)
        return False

    def _moved(self, code: str, version: int) -> bool:
        """The room's game is no longer at `version` here (or its table is gone)."""
        table = self.tables.get(code)
        return table is None or table.version != version

    async def choose(self, view: dict, level: str, history: list[dict], seed: int | None) -> dict:
        """A computer player's action JSON for `view` (a seat's player view) and `history` (the
        events it may see), decided in a worker process (`seed` None: derived from the view); a
        pool whose worker died is replaced once and asked again."""
        began = time.perf_counter()
        action = await self.pool.run(choose_in_worker, view, level, history, seed, self.settings.bot_time_budget_s,
                                     self.settings.bot_min_simulations)
        metrics.BOT_DECISIONS.labels(level=level).inc()
        metrics.BOT_SECONDS.labels(level=level).observe(time.perf_counter() - began)
        return action

    async def suggest(self, view: dict, history: list[dict], budget_s: float) -> dict:
        """A hint for the seat of `view` (its player view) and `history` (the events it may
        see), exactly what a computer player in that seat would get: the hard player's search
        in a worker process for `budget_s` seconds → {"action", "why"} (bots/hint.py). Raises
        what the worker raised (a view with hidden keys: ValueError)."""
        return await self.pool.run(suggest_in_worker, view, history, secrets.randbits(32), budget_s,
                                   self.settings.bot_min_simulations)

    async def suggest_tutorial(self, view: dict, history: list[dict]) -> dict:
        """The hint of a "Learn to play" room (app/tutorial.py): the tutorial's move for the seat
        of `view` (`bots.tutorial.suggestion`: the normal player seeded by the view, in a worker
        process) → {"action", "why": {"code": "tutorial"}}."""
        action = await self.choose(view, TUTORIAL_LEVEL, history, None)
        return {"action": action, "why": {"code": "tutorial"}}

    def shutdown(self) -> None:
        """Stop the worker processes (a later `choose` starts new ones)."""
        self.pool.shutdown()
