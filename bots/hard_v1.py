"""The hard computer player as it was before issue 32's "stronger when it matters" (kept for
comparison only: ``python -m bots.tournament --a hard --b hard-v1``; docs/bots.md "A stronger
hard player"). Not a level of ``bots.choose_action`` and not used by the server, the hints or the
review.

Determinized Monte Carlo search over the normal player's six best root moves, in rounds of
common random numbers (one determinization and one playout seed a round, every remaining
candidate played out on them), ``2 x players`` plies of the cheap playout policy, the leaf scored
by ``heuristic.win_probability``; successive rejects from the second whole round on. The
playout policy and the evaluation are the shared ones of ``bots.hard`` and ``bots.heuristic``
(``hard.playout_action``), which make the same decisions as in that revision (only faster).
"""

from __future__ import annotations

import math
import random
import time

from engine import Action, GameState, apply_action, is_over, legal_actions

from .determinize import Knowledge, determinize
from .hard import SearchResult, move_key, playout_action
from .heuristic import DEFAULT_WEIGHTS, Board, Weights, projected_vp, win_probability
from .policies import choose_token, prune_buys, score_actions

PRIOR_VISITS = 3.0
MAX_CANDIDATES = 6


def _playout(state: GameState, me: int, plies: int, rng: random.Random, w: Weights) -> float:
    for _ in range(plies):
        if is_over(state):
            break
        p = state.to_act
        state = apply_action(state, p, playout_action(state, p, rng, w))
    return win_probability(Board.from_game(state), me, w)


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
    wins = [win_probability(board, p, w) for p in range(board.n)]
    return wins[me], projected_vp(board, me, w), wins


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
        scale = 3.0
        priors = [1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, s / scale)))) for s, _ in scored]
        if include is not None and include not in cands:
            (own, _), = score_actions(state, seat, [include], w)
            cands[-1] = include
            priors[-1] = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, own / scale))))
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
