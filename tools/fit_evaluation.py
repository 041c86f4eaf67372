"""Fit the hard player's leaf evaluation (bots/evaluation.py ``WEIGHTS``) on self-play games.

    python3 tools/fit_evaluation.py            # needs numpy (the fit only); prints WEIGHTS

1. **Games.** For 2, 3 and 4 players (2,500, 2,500 and 4,000 games): every seat plays the
   normal computer player, each move the easy one with chance 0.1 (variety), with the engine
   directly (full states; the normal player's lookahead sees nothing hidden that matters).
   Game ``g`` of ``n`` players: deal ``new_game(n, 7_777_777 + 1000 n + g)``, move choices
   ``random.Random(10_000_019 n + g)``.
2. **Positions.** About every third decision (not the token draft, not a finished game) is
   kept as a ``heuristic.Board``; its label is the game's result per seat: 1/k for each of the
   k winners (R-end-2), 0 for the others.
3. **Features.** ``evaluation.position_features(board)``: one row of ``evaluation.FEATURES``
   per seat.
4. **Fit.** Per (players, stage): a conditional logit (softmax over the seats) by Newton's
   method with an L2 penalty of 1 on β, maximising Σ_positions Σ_seats label · log P(seat).
   Games with ``g % 5 == 0`` are held out first to print the held-out cross-entropy of the
   fitted model beside the hand-set ``heuristic.win_probability`` (normalised over the seats)
   and the uniform guess; the printed ``WEIGHTS`` are then fitted on all games.

Deterministic: the same code gives the same table. About 10 minutes of one core.
"""
from __future__ import annotations

import os
import random
import sys
import textwrap

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from bots.evaluation import FEATURES, position_features, stage  # noqa: E402
from bots.heuristic import Board, win_probability  # noqa: E402
from bots.policies import easy_action, normal_action  # noqa: E402
from engine import apply_action, is_over, new_game  # noqa: E402

GAMES = {2: 2500, 3: 2500, 4: 4000}
EASY_SHARE = 0.1
PENALTY = 1.0


def positions(n: int, game: int) -> list[tuple[list[list[float]], list[float], list[float]]]:
    """One self-play game's kept positions: (features per seat, label per seat, the hand-set
    win chance per seat)."""
    rng = random.Random(10_000_019 * n + game)
    st = new_game(n, 7_777_777 + 1000 * n + game)
    boards = []
    k = 0
    while not is_over(st):
        if st.phase != "token_draft" and k % 3 == rng.randrange(3):
            boards.append(Board.from_game(st))
        p = st.to_act
        policy = easy_action if rng.random() < EASY_SHARE else normal_action
        st = apply_action(st, p, policy(st, p, rng))
        k += 1
    winners = list(st.winners)
    label = [1.0 / len(winners) if q in winners else 0.0 for q in range(n)]
    return [(position_features(b), label, [win_probability(b, q) for q in range(n)], stage(b))
            for b in boards if not b.over]


def fit(X, Y, np):
    """β maximising the penalised log-likelihood of the conditional logit; ``X`` is
    [positions, seats, features], ``Y`` [positions, seats] (rows summing to 1)."""
    beta = np.zeros(X.shape[2])
    for _ in range(30):
        z = X @ beta
        z -= z.max(1, keepdims=True)
        P = np.exp(z)
        P /= P.sum(1, keepdims=True)
        grad = np.einsum("ij,ijf->f", Y - P, X) - PENALTY * beta
        mean = np.einsum("ij,ijf->if", P, X)
        hess = (np.einsum("ij,ijf,ijg->fg", P, X, X) - np.einsum("if,ig->fg", mean, mean)
                + PENALTY * np.eye(X.shape[2]))
        step = np.linalg.solve(hess, grad)
        beta += step
        if np.abs(step).max() < 1e-7:
            break
    return beta


def main() -> None:
    """Play the games, fit per (players, stage), print the held-out check and ``WEIGHTS``."""
    import numpy as np  # noqa: PLC0415 - only the fit needs it

    def xent(P, Y):
        return float(-(Y * np.log(np.clip(P, 1e-9, 1))).sum(1).mean())

    table = {}
    for n in (2, 3, 4):
        rows = [(g, *r) for g in range(GAMES[n]) for r in positions(n, g)]
        for st in (0, 1, 2, 3):
            part = [r for r in rows if r[4] == st]
            test = [r for r in part if r[0] % 5 == 0]
            train = [r for r in part if r[0] % 5 != 0]
            X, Y = np.array([r[1] for r in train]), np.array([r[2] for r in train])
            Xt, Yt = np.array([r[1] for r in test]), np.array([r[2] for r in test])
            z = Xt @ fit(X, Y, np)
            P = np.exp(z - z.max(1, keepdims=True))
            P /= P.sum(1, keepdims=True)
            H = np.array([r[3] for r in test])
            H /= H.sum(1, keepdims=True)
            print(f"# {n} players, stage {st}: {len(train)} positions, {len(test)} held out; "
                  f"cross-entropy uniform {xent(np.full_like(Yt, 1 / n), Yt):.4f}, "
                  f"hand-set {xent(H, Yt):.4f}, fitted {xent(P, Yt):.4f}")
            beta = fit(np.concatenate([X, Xt]), np.concatenate([Y, Yt]), np)
            table[(n, st)] = [round(float(v), 4) for v in beta]
    print(f"# {len(FEATURES)} features: {', '.join(FEATURES)}")
    print("WEIGHTS: dict[tuple[int, int], tuple[float, ...]] = {")
    for (n, st), beta in table.items():
        print(textwrap.fill(f"({n}, {st}): ({', '.join(repr(v) for v in beta)}),", width=96,
                            initial_indent="    ", subsequent_indent="             "))
    print("}")


if __name__ == "__main__":
    main()
