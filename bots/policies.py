"""The easy and normal computer players, and the shared helpers the hard one builds on.

Every policy takes a full *determinized* engine state (see ``bots.determinize``), never the
server's state, and returns an engine ``Action``.
"""

from __future__ import annotations

import random

from engine import Action, GameState, apply_action, legal_actions

from .cards import COLORS, color_of, icons_of, value_of
from .heuristic import DEFAULT_WEIGHTS, Board, Weights, player_value, relative_score


def action_kind(a: Action) -> str:
    """The ``type`` of an action's JSON form (``"buy"``, ``"take"``, …)."""
    return a.to_json()["type"]


def payment_cost(payment: list[int]) -> tuple[int, int]:
    """Sort key for payments: least coin value first, then fewest insurance icons spent."""
    return (sum(value_of(c) for c in payment), sum(icons_of(c) for c in payment))


def prune_buys(actions: list[Action], keep: int = 2) -> list[Action]:
    """Keep every non-buy action and only the ``keep`` cheapest buy payments (R-buy-3)."""
    buys = []
    rest = []
    for a in actions:
        j = a.to_json()
        if j["type"] == "buy":
            buys.append((payment_cost(j["payment"]), a))
        else:
            rest.append(a)
    buys.sort(key=lambda t: t[0])
    return rest + [a for _, a in buys[:keep]]


def choose_token(state_json: dict, seat: int, rng: random.Random) -> str:
    """Token draft (R-setup-5): the colour with the most goods value in sight.

    Counts Market and Farm values (future goods) and lightly prefers colours that other
    players did not pick (less competition for the same ships' sets).
    """
    score = {c: rng.random() * 0.01 for c in COLORS}
    for m in state_json["market"] + state_json["farm"]:
        score[color_of(m["card"])] += value_of(m["card"])
    for s, pl in enumerate(state_json["players"]):
        if s != seat:
            for c, k in pl["tokens"].items():
                score[c] -= 2.0 * k
    return max(COLORS, key=lambda c: score[c])


def insurance_choice(state: GameState, seat: int, acts: list[Action],
                     w: Weights = DEFAULT_WEIGHTS) -> Action:
    """Insurance (R-pay-6): the option that leaves the seat's own position worth most.

    Uninsured goods of a sinking colour are valued at zero, so this weighs goods saved
    against the coins discarded.
    """
    best = None
    best_v = None
    for a in acts:
        v = player_value(Board.from_game(apply_action(state, seat, a)), seat, w)
        if best_v is None or v > best_v + 1e-9:
            best, best_v = a, v
    return best


def settle(state: GameState, w: Weights = DEFAULT_WEIGHTS) -> GameState:
    """Play out a pending insurance phase with ``insurance_choice`` for every queued seat."""
    while state.phase == "insurance":
        s = state.to_act
        state = apply_action(state, s, insurance_choice(state, s, legal_actions(state, s), w))
    return state


def easy_action(state: GameState, seat: int, rng: random.Random) -> Action:
    """Easy player: a random legal move among non-silly ones (see docs/bots.md)."""
    acts = legal_actions(state, seat)
    if len(acts) == 1:
        return acts[0]
    if state.phase == "token_draft":
        return rng.choice(acts)
    if state.phase == "insurance":
        # insure something more often than not, chosen at random
        nonempty = [a for a in acts if a.to_json()["goods"]]
        if nonempty and rng.random() < 0.7:
            return rng.choice(nonempty)
        return rng.choice(acts)
    by_kind: dict[str, list[Action]] = {}
    for a in acts:
        by_kind.setdefault(action_kind(a), []).append(a)
    buys = by_kind.get("buy", [])
    if buys:
        buys.sort(key=lambda a: payment_cost(a.to_json()["payment"]))
        cheapest = buys[0]
        goods_value = sum(value_of(m["card"]) for m in _market_goods(state, seat))
        if goods_value >= 4 and rng.random() < 0.45:
            return cheapest
    takes = by_kind.get("take", [])
    if takes and (rng.random() < 0.85 or "reserve" not in by_kind):
        return rng.choice(takes)
    if "reserve" in by_kind:
        return rng.choice(by_kind["reserve"])
    if buys:
        return buys[0]
    return rng.choice(acts)


def _market_goods(state: GameState, seat: int) -> list[dict]:
    return [m for m in state.to_json()["market"] if m["reserved_by"] in (None, seat)]


def score_actions(state: GameState, seat: int, acts: list[Action],
                  w: Weights = DEFAULT_WEIGHTS) -> list[tuple[float, Action]]:
    """One-ply scores: apply each action, settle insurance greedily, evaluate (relative)."""
    out = []
    for a in acts:
        s2 = settle(apply_action(state, seat, a), w)
        out.append((relative_score(Board.from_game(s2), seat, w), a))
    return out


def normal_action(state: GameState, seat: int, rng: random.Random,
                  w: Weights = DEFAULT_WEIGHTS) -> Action:
    """Normal player: one-ply lookahead with the heuristic evaluation (see docs/bots.md)."""
    acts = legal_actions(state, seat)
    if len(acts) == 1:
        return acts[0]
    if state.phase == "token_draft":
        color = choose_token(state.to_json(), seat, rng)
        for a in acts:
            if a.to_json().get("color") == color:
                return a
        return acts[0]
    if state.phase == "insurance":
        return insurance_choice(state, seat, acts, w)
    scored = score_actions(state, seat, prune_buys(acts), w)
    best = max(s for s, _ in scored)
    top = [a for s, a in scored if s >= best - 1e-9]
    return top[0] if len(top) == 1 else rng.choice(top)
