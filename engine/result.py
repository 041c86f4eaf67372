"""The explanation of a finished game (R-end): how it ended, where each VP came from, ranks.

Everything here is derived from the final state and the game's public `sale` events, so a
client (the end screen, the replay page, a record) shows the engine's reading of R-end-2
instead of re-implementing it.
"""
from __future__ import annotations

from typing import Iterable

from .cards import COLORS, TOKENS_TO_END
from .state import GameState, is_over


def game_result(state: GameState, events: Iterable[dict]) -> dict:
    """Explain a finished game (R-end-1..3) → a JSON-ready dict.

    `state` is the game's final state (phase "over"); `events` are the events of the whole
    game in order, as `play` returned them (private ones may be included: only the public
    `sale` events are read, so a filtered list such as a spectator's history gives the same
    answer). Raises `ValueError` when the game is not over.

    Shape::

        {"reason": "tokens" | "passes",          # R-pay-4 (8+ tokens) or R-turn-3 (all passed)
         "active": seat,                          # whose turn it was when the game ended
         "token_seats": [seat, ...],              # seats holding 8+ tokens at the end (R-pay-4)
         "winners": [seat, ...], "shared": bool,  # shared: more than one winner (R-end-2)
         "tie_break": null | "tokens" | "shared", # tokens: a VP tie among the best was decided by tokens
         "players": [{"seat", "vp", "tokens", "rank",       # rank 1 = winner; equal rank = still tied
                      "tokens_by_color": {"red": n, ...},
                      "vp_by_color": {"red": n, ...},        # VPs of the sales of each colour
                      "sales": [{"color", "cards", "price", "value", "vp"}, ...]}, ...by seat]}

    Ranks follow R-end-2: more VPs first, then more Achievement tokens; players equal on both
    share a rank (1 + the number of players strictly ahead)."""
    if not is_over(state) or state.winners is None:
        raise ValueError("the game is not over")
    n = state.num_players
    sales: list[list[dict]] = [[] for _ in range(n)]
    for ev in events:
        if ev.get("type") == "sale" and ev.get("visible_to") is None:
            sales[ev["seat"]].append({k: ev[k] for k in ("color", "cards", "price", "value", "vp")})
    keys = [(state.vp(p), sum(state.tokens[p])) for p in range(n)]
    players = []
    for p in range(n):
        by_color = {c: 0 for c in COLORS}
        for sale in sales[p]:
            by_color[sale["color"]] += sale["vp"]
        players.append({
            "seat": p, "vp": keys[p][0], "tokens": keys[p][1],
            "rank": 1 + sum(1 for k in keys if k > keys[p]),
            "tokens_by_color": dict(zip(COLORS, state.tokens[p])),
            "vp_by_color": by_color, "sales": sales[p]})
    winners = list(state.winners)
    best_vp = max(k[0] for k in keys)
    vp_tied = sum(1 for k in keys if k[0] == best_vp) > 1
    tie_break = "shared" if len(winners) > 1 else ("tokens" if vp_tied else None)
    return {
        "reason": state.end_reason, "active": state.turn,
        "token_seats": [p for p in range(n) if keys[p][1] >= TOKENS_TO_END],
        "winners": winners, "shared": len(winners) > 1, "tie_break": tie_break,
        "players": players,
    }
