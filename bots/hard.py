"""The hard computer player: determinized Monte Carlo search over the root moves, in rounds
of common random numbers.

Each round draws a fresh determinization of the hidden information (``bots.determinize``:
the draw-pile order, unknown VP-pile cards, and opponents' hands when no history is given)
and one playout seed; every candidate action is applied to that same determinization with the
engine and followed by a short playout with a cheap heuristic policy for every seat
(``playout_action``) seeded alike, and the leaf is scored with the fitted evaluation's win
chance of the seat (``evaluation.win_chances``: 0..1; a finished game scores 1, 1/k for a
k-way shared win, or 0). So the candidates are compared on paired samples (one simulation =
one candidate's playout). Root candidates are the normal player's pruned moves; each starts
with its one-ply win chance (the same evaluation) as a prior worth ``PRIOR_VISITS``
simulations, so with very little time the hard player plays the candidate the evaluation
likes best one ply deep. The search stops at ``time_budget_s`` (wall clock) or after
``max_simulations`` simulations, whichever comes first.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

from engine import Action, GameState, apply_action, is_over, legal_actions

from .cards import ICONS, VALUE
from .determinize import Knowledge, determinize
from .evaluation import win_chances
from .heuristic import (DEFAULT_WEIGHTS, Board, Weights, horizon, player_value, projected_vp,
                        relative_score)
from .policies import choose_token, insurance_choice, prune_buys, score_actions, settle

PRIOR_VISITS = 3.0
MAX_CANDIDATES = 6
PLAYOUT_EPSILON = 0.1


@dataclass
class SearchResult:
    """Outcome of one search: the chosen action, how many simulations ran, per-arm stats.

    ``stats`` maps the JSON text of each candidate to ``(visits, mean value)``.
    """

    action: Action
    simulations: int
    elapsed_s: float
    stats: dict[str, tuple[float, float]] = field(default_factory=dict)
    #: Only with ``search(..., detail=True)``: the JSON text of each candidate →
    #: ``{"vp": mean projected final VP of the searching seat, "wins": [mean win value of every
    #: seat]}`` over that candidate's playouts (no prior); ``{}`` for a candidate never played.
    detail: dict[str, dict] = field(default_factory=dict)


def playout_action(state: GameState, seat: int, rng: random.Random,
                   w: Weights = DEFAULT_WEIGHTS) -> Action:
    """Cheap policy for playouts: score each move on the light ``Board`` model, no engine calls.

    Picks the best-scoring move, or a random one with probability ``PLAYOUT_EPSILON``.
    """
    acts = legal_actions(state, seat)
    if len(acts) == 1:
        return acts[0]
    phase = state.phase
    if phase == "insurance":
        return insurance_choice(state, seat, acts, w)
    if phase == "token_draft":
        color = choose_token(state.to_json(), seat, rng)
        for a in acts:
            if a.to_json().get("color") == color:
                return a
    if rng.random() < PLAYOUT_EPSILON:
        return rng.choice(acts)
    board = Board.from_game(state)
    nxt = (seat + 1) % board.n
    h = horizon(board)
    base_vals = [player_value(board, p, w, h) for p in range(board.n)]
    best_a = acts[0]
    best_v = -math.inf
    gains: dict = {}       # the next player's purchase gain after a take or reserve, by goods
    # the cheapest payment (the first of the cheapest, as a stable sort) first, then every move
    # that is not a purchase in the engine's order: only the cheapest payment is scored
    buys = [a for a in acts if a.type == "buy"]
    if buys:
        acts = [min(buys, key=_cost)] + [a for a in acts if a.type != "buy"]
    for a in acts:
        t = a.type
        vals = None
        if t == "take" or t == "reserve":
            # only this seat's value changes (tokens, hence the horizon, stay the same)
            b = board.take(seat, a.card) if t == "take" else board.reserve(seat, a.card)
            vals = list(base_vals)
            vals[seat] = player_value(b, seat, w, h)
        elif t == "buy":
            b = board.buy(seat, list(a.payment))
        else:
            b = board
        if not b.over:
            b.to_act = nxt
            b.phase = "turn"
        v = relative_score(b, seat, w, vals, gains if vals is not None else None) \
            + rng.random() * 1e-6
        if v > best_v:
            best_a, best_v = a, v
    return best_a


def _cost(a: Action) -> tuple[int, int]:
    """``policies.payment_cost`` of a purchase (coin value, then insurance icons spent)."""
    p = a.payment
    return (sum(map(VALUE.__getitem__, p)), sum(map(ICONS.__getitem__, p)))


def _playout(state: GameState, me: int, plies: int, rng: random.Random, w: Weights) -> float:
    for _ in range(plies):
        if is_over(state):
            break
        p = state.to_act
        state = apply_action(state, p, playout_action(state, p, rng, w))
    return win_chances(Board.from_game(state))[me]


def _playout_detail(state: GameState, me: int, plies: int, rng: random.Random,
                    w: Weights) -> tuple[float, float, list[float]]:
    """As ``_playout`` (the same moves for the same ``rng``) → (win value of ``me``, projected
    final VP of ``me`` (``heuristic.projected_vp``), the win value of every seat)."""
    for _ in range(plies):
        if is_over(state):
            break
        p = state.to_act
        state = apply_action(state, p, playout_action(state, p, rng, w))
    board = Board.from_game(state)
    wins = win_chances(board)
    return wins[me], projected_vp(board, me, w), wins


def move_key(action: Action) -> str:
    """A move as a key that does not depend on the order of the cards it lists (a payment's
    cards, insured goods): its action JSON with every list sorted."""
    data = action.to_json()
    return repr(sorted((k, sorted(v) if isinstance(v, list) else v) for k, v in data.items()))


def search(view: dict, know: Knowledge, rng: random.Random, time_budget_s: float,
           max_simulations: int | None = None, playout_plies: int | None = None,
           w: Weights = DEFAULT_WEIGHTS, include: Action | None = None,
           detail: bool = False, min_simulations: int = 0) -> SearchResult:
    """Choose an action for ``know.seat`` by determinized Monte Carlo search.

    ``time_budget_s`` bounds wall-clock time (seconds, the whole call, checked between
    simulations); ``max_simulations`` (optional) bounds the count, which makes the result a
    pure function of the seed. ``min_simulations`` is a floor: the search goes on past the
    time budget until it has run that many simulations (a slow or busy host thinks longer
    instead of playing weaker; ``max_simulations`` still bounds it). ``min_simulations ==
    max_simulations`` is a fixed count whatever the clock. ``playout_plies`` defaults to two
    rounds of the table.

    For a review (bots/review.py): ``include`` is a legal action of the seat that is always
    among the candidates (in place of the last pruned one when the pruning left it out) and is
    never rejected, so it is compared with the best on the same paired samples; ``detail``
    fills ``SearchResult.detail`` (projected final VP and every seat's win value per
    candidate). Both leave the search itself unchanged when ``None``/``False``. Raises
    ``ValueError`` when the seat has no decision, or ``include`` is not one of its legal moves.
    """
    t0 = time.perf_counter()
    deadline = t0 + max(0.0, time_budget_s)
    seat = know.seat
    state = GameState.from_json(determinize(view, know, rng))
    acts = legal_actions(state, seat)
    if not acts:
        raise ValueError(f"seat {seat} has no decision to make in this view")
    if include is not None:
        # The same move whatever the order of its cards: a determinized state may list the
        # seat's hand, and so a payment's cards, in another order than the game did (a review
        # failed on `buy [102, 13]`). The caller's form stands in the list, so its statistics
        # are found under it.
        key = move_key(include)
        at = next((i for i, a in enumerate(acts) if move_key(a) == key), None)
        if at is None:
            raise ValueError(f"{include.to_json()} is not a legal move of seat {seat} here")
        acts = list(acts)
        acts[at] = include
    if len(acts) == 1:
        return SearchResult(acts[0], 0, time.perf_counter() - t0)
    if state.phase == "token_draft":
        cands = acts
        priors = [0.5] * len(cands)
        color = choose_token(state.to_json(), seat, rng)
        priors = [0.55 if a.to_json().get("color") == color else 0.5 for a in cands]
    else:
        pool = prune_buys(acts) if state.phase == "turn" else acts
        scored = score_actions(state, seat, pool, w)
        scored.sort(key=lambda t: -t[0])
        scored = scored[:MAX_CANDIDATES]
        cands = [a for _, a in scored]
        if include is not None and include not in cands:
            cands[-1] = include
        # the prior: the leaf's evaluation one ply deep (a pending insurance round settled
        # greedily), the seat's fitted win chance (``evaluation.win_chances``)
        priors = [win_chances(Board.from_game(settle(apply_action(state, seat, a), w)))[seat]
                  for a in cands]
    keep = cands.index(include) if include is not None else -1
    if playout_plies is None:
        playout_plies = 2 * know.n
    k = len(cands)
    # Common random numbers: each round draws one determinization and one playout seed and
    # plays every remaining candidate on them, so candidates are compared on the same hidden
    # cards and the same playout luck (paired samples: far less noise than one independent
    # sample per candidate). A last round cut short by the budget is dropped when a whole
    # round exists. Successive rejects: from the second whole round on, the candidate with
    # the lowest mean leaves after each round, down to two, so later rounds go to the moves
    # that are still in question.
    alive = sorted(range(k), key=lambda j: -priors[j])
    visits = [PRIOR_VISITS] * k
    totals = [PRIOR_VISITS * p for p in priors]
    whole = 0
    sims = 0
    done = False
    vp_sum = [0.0] * k
    wins_sum = [[0.0] * know.n for _ in range(k)]
    played = [0] * k
    def spent() -> bool:
        """The count's bound is reached, or the time is up and the floor is met."""
        return (max_simulations is not None and sims >= max_simulations) \
            or (sims >= min_simulations and time.perf_counter() >= deadline)

    while not done and not spent():
        det = GameState.from_json(determinize(view, know, rng))
        seed = rng.getrandbits(64)
        values: list[tuple[int, float]] = []
        for i in alive:
            if spent():
                done = True
                break
            s = apply_action(det, seat, cands[i])
            if detail:
                v, vp, wins = _playout_detail(s, seat, playout_plies, random.Random(seed), w)
                values.append((i, v, vp, wins))
            else:
                values.append((i, _playout(s, seat, playout_plies, random.Random(seed), w), 0.0, None))
            sims += 1
        if done and whole:
            break                                   # a partial round after a whole one
        for i, v, vp, wins in values:
            visits[i] += 1
            totals[i] += v
            if wins is not None:
                played[i] += 1
                vp_sum[i] += vp
                wins_sum[i] = [a + b for a, b in zip(wins_sum[i], wins)]
        if done:
            break
        whole += 1
        if whole >= 2 and len(alive) > 2:
            out = [j for j in alive if j != keep]           # ``include`` stays to the end
            alive.remove(min(out, key=lambda j: (totals[j] / visits[j], visits[j])))
    best = max(alive, key=lambda j: (totals[j] / visits[j], visits[j]))
    stats = {str(cands[j].to_json()): (visits[j] - PRIOR_VISITS, totals[j] / visits[j])
             for j in range(k)}
    info = {}
    if detail:
        info = {str(cands[j].to_json()): ({"vp": vp_sum[j] / played[j],
                                           "wins": [x / played[j] for x in wins_sum[j]]} if played[j] else {})
                for j in range(k)}
    return SearchResult(cands[best], sims, time.perf_counter() - t0, stats, info)
