"""Tests of the fitted evaluation (bots/evaluation.py): its table's shape, win chances that are
chances (every seat's, summing to 1), finished games scored by the rules (R-end-2), and a few
directions the fit must have found (more VPs, more tokens are better)."""

from __future__ import annotations

import random

import pytest

from bots.evaluation import FEATURES, WEIGHTS, position_features, seat_features, stage, win_chances
from bots.heuristic import Board
from engine import apply_action, is_over, legal_actions, new_game


def _boards(players: int, seed: int) -> list[Board]:
    """Boards of every decision of a seeded random-move game, the finished one last."""
    rng = random.Random(seed)
    state = new_game(players, seed)
    out = []
    while not is_over(state):
        out.append(Board.from_game(state))
        seat = state.to_act
        state = apply_action(state, seat, rng.choice(legal_actions(state, seat)))
    out.append(Board.from_game(state))
    return out


def test_the_table_has_every_player_count_and_stage():
    assert set(WEIGHTS) == {(n, s) for n in (2, 3, 4) for s in (0, 1, 2, 3)}
    assert all(len(beta) == len(FEATURES) for beta in WEIGHTS.values())
    for beta in WEIGHTS.values():
        assert beta[FEATURES.index("vp")] > 0 and beta[FEATURES.index("tokens")] > 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_win_chances_are_chances(players):
    boards = _boards(players, 40 + players)
    stages = set()
    for b in boards:
        chances = win_chances(b)
        assert len(chances) == players and all(0 <= c <= 1 for c in chances)
        assert abs(sum(chances) - 1) < 1e-9
        if not b.over:
            stages.add(stage(b))
            assert all(len(x) == len(FEATURES) for x in position_features(b))
    last = boards[-1]
    assert last.over
    assert win_chances(last) == [1 / len(last.winners) if p in last.winners else 0.0
                                 for p in range(players)]
    assert 0 in stages and len(stages) > 1


def test_more_vps_or_tokens_raise_a_seats_chance():
    b = [b for b in _boards(4, 7) if b.phase == "turn"][60]
    before = win_chances(b)[2]
    more = b.copy()
    more.vp[2] += 2
    assert win_chances(more)[2] > before
    more = b.copy()
    more.tokens[2][0] += 1
    assert win_chances(more)[2] > before


def test_the_seat_features_read_the_board():
    b = next(b for b in _boards(3, 11) if b.phase == "turn" and any(any(g) for g in b.goods[1]))
    x = dict(zip(FEATURES, seat_features(b, 1, gain=1.5)))
    assert x["vp"] == b.vp[1] and x["tokens"] == sum(b.tokens[1])
    assert x["colours"] == sum(1 for ci, g in enumerate(b.goods[1])
                               if (ci not in b.sinking and g) or any(i for _, i in g))
    assert x["purchase_gain"] == 1.5
    after = (1 - b.to_act) % 3
    assert [x["after_1"], x["after_2"], x["after_3"]] == [1.0 if k == after else 0.0
                                                        for k in (1, 2, 3)]
