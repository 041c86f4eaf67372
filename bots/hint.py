"""A hint: what the hard computer player would do in a seat's decision, and one line of why.

``suggest(view, history, ...)`` runs the hard player's search (``bots.hard.search``) on exactly
what a computer player in that seat would get (its ``player_view`` and the events it received;
a view with hidden keys is refused as by ``choose_action``) and returns the move with the reason
taken from that same search, as a code and values that a client words in its language:

- ``{"code": "only"}``: it is the seat's only legal move;
- ``{"code": "search", "win": 62, "options": 6, "playouts": 480}``: the search compared
  ``options`` moves in ``playouts`` playouts and this one came out best, with an estimated
  chance to win of ``win`` percent (0..100: the mean value of its playouts and prior);
- ``{"code": "prior"}``: no playout ran in the time (the normal player's one-ply score chose).
"""

from __future__ import annotations


from .determinize import build_knowledge
from .hard import search


def suggest(view: dict, history: list[dict] | None = None, *, seed: int | None = None,
            time_budget_s: float = 1.0, max_simulations: int | None = None, min_simulations: int = 0) -> dict:
    """The hard player's move for the seat of ``view`` → ``{"action": action JSON, "why":
    {"code", …}}`` (module docstring). Raises ``TypeError``/``ValueError`` as ``choose_action``
    does (not a view, hidden keys, a spectator's view, not that seat's decision)."""
    from . import _rng  # noqa: PLC0415 - the package's own seeding, one place
    if not isinstance(view, dict):
        raise TypeError("a hint needs a player view (a dict)")
    know = build_knowledge(view, history)
    if view["to_act"] != know.seat:
        raise ValueError(f"it is not seat {know.seat}'s decision (to_act={view['to_act']})")
    res = search(view, know, _rng(view, seed), time_budget_s, max_simulations=max_simulations,
                 min_simulations=min_simulations)
    action = res.action.to_json()
    if not res.stats:
        return {"action": action, "why": {"code": "only"}}
    if res.simulations == 0:
        return {"action": action, "why": {"code": "prior"}}
    mine = res.stats.get(str(action))
    return {"action": action, "why": {"code": "search", "win": _percent(mine[1]) if mine else None,
                                      "options": len(res.stats), "playouts": res.simulations}}


def _percent(value: float) -> int:
    return max(0, min(100, round(100 * value)))


__all__ = ["suggest"]
