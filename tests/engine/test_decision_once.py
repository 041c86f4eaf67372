"""The options of a decision are worked out once per state and kept on it (engine/decision.py,
issue 29): they must never leak into what a caller may change, nor depend on how the state
was reached (R-turn-1a: a turn's options as it begins equal those of the same state read
back from its JSON), and ``is_over`` says when there is no decision left (R-end-1)."""
from __future__ import annotations

import random

import pytest

from engine import GameState, IllegalAction, apply_action, is_over, legal_actions, new_game


def _positions(players: int, seed: int, version: int):
    """Every state of one random game, with the seat to act and the action played."""
    rng = random.Random(seed)
    s = new_game(players, seed, version)
    while True:
        seat = s.to_act
        if seat is None:
            yield s, None, None
            return
        a = rng.choice(legal_actions(s, seat))
        yield s, seat, a
        s = apply_action(s, seat, a)


@pytest.mark.parametrize("players,seed,version", [(2, 3, 2), (3, 8, 1), (4, 21, 2)])
def test_r_end_1_is_over_exactly_when_no_decision_is_left(players, seed, version):
    for s, seat, _ in _positions(players, seed, version):
        assert is_over(s) == (s.phase == "over") == (seat is None)
        if is_over(s):
            assert all(legal_actions(s, p) == [] for p in range(players))
            with pytest.raises(IllegalAction) as info:
                apply_action(s, 0, {"type": "pass"})
            assert info.value.code == "game_over"


@pytest.mark.parametrize("players,seed,version", [(2, 5, 2), (3, 13, 2), (4, 34, 1)])
def test_r_turn_1a_options_as_a_turn_begins_equal_those_read_back_from_json(players, seed, version):
    """The listing and the refusals of a state made by an action (its options worked out as
    the turn began) equal those of its JSON copy (worked out on the first question); a
    listing handed out is the caller's to change."""
    rng = random.Random(seed)
    for s, seat, _ in _positions(players, seed, version):
        if seat is None:
            continue
        back = GameState.from_json(s.to_json())
        listed = [a.to_json() for a in legal_actions(s, seat)]
        assert [a.to_json() for a in legal_actions(back, seat)] == listed
        mine = legal_actions(s, seat)
        mine.clear()
        mine.append(None)
        assert [a.to_json() for a in legal_actions(s, seat)] == listed
        card = rng.randrange(108)
        for probe in ({"type": "take", "card": card}, {"type": "reserve", "card": card},
                      {"type": "pass"}, {"type": "buy", "payment": list(s.hands[seat][:2])}):
            codes = []
            for st in (s, GameState.from_json(s.to_json())):
                try:
                    apply_action(st, seat, probe)
                    codes.append(None)
                except IllegalAction as exc:
                    codes.append(exc.code)
            assert codes[0] == codes[1], (probe, codes)
            if probe["type"] != "buy":           # (a buy: up to interchangeable cards)
                assert (codes[0] is None) == (probe in listed), (probe, codes)
