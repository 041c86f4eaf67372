"""Computer players for Traders of Osaka. Uses only ``engine``'s public API.

Entry point: ``choose_action(view, level, history=..., seed=..., time_budget_s=...)``. A bot
sees exactly what a human in its seat sees: its ``player_view`` and the events it received
(``visible_to`` null or its seat). See docs/bots.md for the three levels and their strength.
"""

from __future__ import annotations

import hashlib
import json
import random

from engine import GameState, legal_actions

from .determinize import build_knowledge, determinize
from .hard import SearchResult, search
from .policies import easy_action, normal_action

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")

__all__ = ["LEVELS", "choose_action", "choose_action_info", "SearchResult"]


def _rng(view: dict, seed: int | None) -> random.Random:
    if seed is None:
        # deterministic even without a seed: derived from the position itself
        digest = hashlib.sha256(json.dumps(view, sort_keys=True).encode()).digest()
        seed = int.from_bytes(digest[:8], "big")
    return random.Random(seed)


def choose_action_info(view: dict, level: str, *, history: list[dict] | None = None,
                       seed: int | None = None, time_budget_s: float = 1.0,
                       max_simulations: int | None = None, min_simulations: int = 0) -> tuple[dict, int]:
    """As ``choose_action``, and also the number of search simulations run (0 unless hard)."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; expected one of {LEVELS}")
    know = build_knowledge(view, history)
    if view["to_act"] != know.seat:
        raise ValueError(f"it is not seat {know.seat}'s decision (to_act={view['to_act']})")
    rng = _rng(view, seed)
    if level == "hard":
        res = search(view, know, rng, time_budget_s, max_simulations=max_simulations,
                     min_simulations=min_simulations)
        return res.action.to_json(), res.simulations
    state = GameState.from_json(determinize(view, know, rng))
    if not legal_actions(state, know.seat):
        raise ValueError(f"seat {know.seat} has no decision to make in this view")
    if level == "easy":
        return easy_action(state, know.seat, rng).to_json(), 0
    return normal_action(state, know.seat, rng).to_json(), 0


def choose_action(view: dict, level: str, *, history: list[dict] | None = None,
                  seed: int | None = None, time_budget_s: float = 1.0,
                  max_simulations: int | None = None, min_simulations: int = 0) -> dict:
    """Choose a move for the seat whose ``player_view`` is ``view``; returns action JSON.

    - ``view``: ``engine.player_view(state, seat)`` for the bot's seat (a dict). Anything
      else is refused: ``TypeError`` if not a dict (e.g. a ``GameState``), ``ValueError`` if
      it holds hidden keys (``deck``, ``seed``, ``vp_cards``, another seat's hand…), has no
      seat, or it is not that seat's decision.
    - ``level``: ``"easy"``, ``"normal"`` or ``"hard"`` (else ``ValueError``).
    - ``history``: the events this seat received since the game began (``visible_to`` null
      or its seat), oldest first; lets the bot know every opponent hand and VP total exactly
      (R-info-4). ``None``: hidden parts are sampled instead.
    - ``seed``: the bot is a pure function of (view, history, level, seed) — for ``hard``
      also of ``max_simulations``, because a time budget alone stops after a machine-dependent
      number of simulations. ``None``: a seed derived from the view.
    - ``time_budget_s``: wall-clock seconds the hard bot may think (the others are fast).
    - ``min_simulations``: the hard bot's floor: it thinks past ``time_budget_s`` until it has
      run that many search simulations (docs/bots.md "A floor of simulations"); with
      ``max_simulations`` equal to it, a fixed count whatever the machine.

    Returns an action JSON (docs/engine.md) that ``engine.action_from_json`` accepts and that is
    legal for the seat. A plain module-level function, safe to call in a process pool.
    """
    return choose_action_info(view, level, history=history, seed=seed,
                              time_budget_s=time_budget_s,
                              max_simulations=max_simulations, min_simulations=min_simulations)[0]
