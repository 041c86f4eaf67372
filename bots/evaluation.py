"""A fitted evaluation: every seat's chance to win a position, from a linear model over
``Board`` features, fitted by regression on the outcomes of self-play games.

The model is a conditional logit (a softmax over the seats): seat ``p``'s chance to win is
``exp(β · x_p) / Σ_q exp(β · x_q)``, where ``x_p = seat_features(board, p)`` and ``β`` is one
weight vector per number of players and game stage (``stage``: how many Achievement tokens the
leader still needs to end the game, R-pay-4). Features shared by every seat cancel out, so only
differences between seats matter; the fitted scale replaces the hand-set temperature of
``heuristic.win_probability``.
"""

from __future__ import annotations

import math

from .cards import EDO, VALUE
from .heuristic import Board, best_purchase_gain, horizon

#: Names of ``seat_features``' entries, in order (the columns of ``WEIGHTS``' vectors).
FEATURES: tuple[str, ...] = (
    "vp",                       # banked VPs (R-pay-2)
    "tokens",                   # Achievement tokens held
    *(f"sale_at_{loc}" for loc in range(EDO)),      # sale VPs now (R-pay-1) of uninsured goods
    *(f"insured_at_{loc}" for loc in range(EDO)),   # ... and of insured ones, by ship location
    "colours",                  # colours of goods held (each sale brings a token, R-pay-3)
    "coins",                    # hand value up to 22
    "coins_over",               # hand value beyond 22
    "reservation_free",         # 1 when the Reservation piece is free
    "reserved_value",           # value of the card(s) under the Reservation piece
    "purchase_gain",            # the seat to act: heuristic.best_purchase_gain (0 for others)
    "after_1", "after_2", "after_3",  # the seat acts 1, 2, 3 turns after the seat to act
)


def stage(board: Board) -> int:
    """The game stage of ``board``: 0 while the leader needs 4 or more tokens to end the game
    (R-pay-4), else 4 − tokens still needed (1, 2 or 3)."""
    h = horizon(board)
    return 0 if h >= 4 else 4 - h


def seat_features(board: Board, p: int, gain: float = 0.0) -> list[float]:
    """Seat ``p``'s features on ``board`` (``FEATURES``' order, plain floats).

    ``gain`` is the ``purchase_gain`` entry (``heuristic.best_purchase_gain`` of the seat to
    act, 0 for the others). Goods of a sinking colour: insured ones count at Anori (their ship
    restarts there, R-pay-9), uninsured ones nothing (R-pay-8).
    """
    x = [0.0] * len(FEATURES)
    x[0] = float(board.vp[p])
    toks = board.tokens[p]
    x[1] = float(sum(toks))
    colours = 0
    for ci in range(4):
        gs = board.goods[p][ci]
        if ci in board.sinking:
            gs = [g for g in gs if g[1]]
            loc = 2
        else:
            loc = board.ships[ci]
        if not gs:
            continue
        colours += 1
        n = len(gs)
        n_ins = sum(1 for _, i in gs if i)
        sale = -(-((max(v for v, _ in gs) + toks[ci]) * n) // 5)
        x[2 + loc] += sale * (n - n_ins) / n
        x[2 + EDO + loc] += sale * n_ins / n
    x[12] = float(colours)
    hv = sum(map(VALUE.__getitem__, board.hands[p]))
    x[13] = float(min(hv, 22))
    x[14] = float(max(0, hv - 22))
    claim = 0
    reserved = False
    for c, r in board.market + board.farm:
        if r == p:
            reserved = True
            claim += VALUE[c]
    x[15] = 0.0 if reserved else 1.0
    x[16] = float(claim)
    x[17] = gain
    if board.to_act is not None:
        after = (p - board.to_act) % board.n
        if after:
            x[17 + after] = 1.0
    return x


def position_features(board: Board) -> list[list[float]]:
    """``seat_features`` of every seat (the purchase gain for the seat to act in a turn)."""
    nxt = board.to_act
    gain = 0.0
    if board.phase == "turn" and nxt is not None:
        gain = best_purchase_gain(board, nxt)
    return [seat_features(board, p, gain if p == nxt else 0.0) for p in range(board.n)]


def win_chances(board: Board,
                weights: dict[tuple[int, int], tuple[float, ...]] | None = None) -> list[float]:
    """Every seat's chance to win ``board`` (sums to 1). A finished game: 1/k for each of the
    k winners (R-end-2), 0 for the others. ``weights[(players, stage)]`` is ``β`` (default
    ``WEIGHTS``)."""
    n = board.n
    if board.over:
        winners = board.winners
        if winners is None:
            best = max((board.vp[q], sum(board.tokens[q])) for q in range(n))
            winners = [q for q in range(n) if (board.vp[q], sum(board.tokens[q])) == best]
        return [1.0 / len(winners) if q in winners else 0.0 for q in range(n)]
    beta = (WEIGHTS if weights is None else weights)[(n, stage(board))]
    z = [sum(b * v for b, v in zip(beta, x)) for x in position_features(board)]
    top = max(z)
    e = [math.exp(v - top) for v in z]
    s = sum(e)
    return [v / s for v in e]

#: β of ``win_chances`` by (players, ``stage``), in ``FEATURES``' order: the output of
#: ``python3 tools/fit_evaluation.py`` (docs/bots.md "The fitted evaluation").
WEIGHTS: dict[tuple[int, int], tuple[float, ...]] = {
    (2, 0): (0.2626, 0.3922, 0.0, 0.1087, 0.1341, 0.1581, 0.1877, 0.0, 0.0, 0.2209, 0.2227,
             0.2414, 0.0571, 0.0453, 0.0415, -0.1426, -0.0077, 0.0496, -0.092, 0.0, 0.0),
    (2, 1): (0.3222, 0.5859, 0.0, 0.0497, 0.1974, 0.1908, 0.2366, 0.0, 0.0, 0.2974, 0.3029,
             0.3429, 0.0446, 0.0593, 0.0355, -0.3498, -0.0651, 0.2708, -0.1109, 0.0, 0.0),
    (2, 2): (0.3572, 0.5116, 0.0, 0.0494, 0.1676, 0.0969, 0.285, 0.0, 0.0, 0.2512, 0.3203,
             0.4093, -0.0011, 0.0662, 0.0211, -0.495, -0.0574, 0.7831, -0.1187, 0.0, 0.0),
    (2, 3): (0.5007, 0.3596, 0.0, 0.1402, 0.1475, 0.1887, 0.2797, 0.0, 0.0, 0.2787, 0.2136,
             0.5317, -0.0079, 0.0415, 0.0029, 0.2432, 0.1135, 1.2641, -0.142, 0.0, 0.0),
    (3, 0): (0.2883, 0.3825, 0.0, 0.0442, 0.0891, 0.1131, 0.1942, 0.0, 0.0, 0.2165, 0.2506,
             0.3183, 0.1388, 0.0542, 0.0344, -0.1703, -0.019, 0.1754, -0.0352, -0.1253, 0.0),
    (3, 1): (0.3573, 0.4646, 0.0, 0.1011, 0.1795, 0.1557, 0.2688, 0.0, 0.0, 0.2903, 0.2932,
             0.5314, 0.09, 0.0711, 0.0363, 0.223, -0.025, 0.6109, -0.0901, -0.1811, 0.0),
    (3, 2): (0.4457, 0.3935, 0.0, 0.1381, 0.0597, 0.176, 0.2848, 0.0, 0.0, 0.2932, 0.3479,
             0.3546, 0.0797, 0.0699, 0.0331, 0.1485, 0.016, 0.8336, -0.0907, -0.1931, 0.0),
    (3, 3): (0.532, 0.3593, 0.0, 0.0178, 0.1143, 0.1097, 0.288, 0.0, 0.0, 0.264, 0.3435, 0.4403,
             0.1325, 0.0537, -0.0046, 0.1238, -0.0541, 1.0944, -0.0857, -0.1525, 0.0),
    (4, 0): (0.2568, 0.5449, 0.0, 0.1278, 0.1066, 0.1265, 0.219, 0.0, 0.0, 0.2377, 0.2935,
             0.3239, 0.1733, 0.0652, 0.0431, -0.019, -0.0075, 0.2618, -0.0525, -0.125, -0.1768),
    (4, 1): (0.3432, 0.6039, 0.0, 0.195, 0.1185, 0.1819, 0.3091, 0.0, 0.0, 0.3542, 0.4044,
             0.488, 0.0507, 0.0669, 0.033, 0.0389, 0.0403, 0.5294, -0.0661, -0.1364, -0.1871),
    (4, 2): (0.4203, 0.5212, 0.0, 0.1847, 0.2064, 0.2689, 0.3148, 0.0, 0.0, 0.3132, 0.4064,
             0.3827, -0.0088, 0.0682, 0.0355, 0.2299, 0.0918, 0.8179, -0.0426, -0.132, -0.1943),
    (4, 3): (0.5734, 0.4713, 0.0, 0.2736, 0.1996, 0.166, 0.3412, 0.0, 0.0, 0.3715, 0.3204,
             0.4502, -0.0785, 0.0613, 0.0095, -0.1018, 0.0298, 1.2143, -0.0884, -0.1286,
             -0.2441),
}
