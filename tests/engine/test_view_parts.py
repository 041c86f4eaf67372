"""`player_view_public` + `seat_view` (docs/engine.md): the same views as `player_view`, the
public part shared and never changed by the seats' views made from it (R-info)."""
from __future__ import annotations

import copy
import json
import random

import pytest

import engine


def _states(games: int, seed: int):
    rng = random.Random(seed)
    for _ in range(games):
        state = engine.new_game(rng.choice([2, 3, 4]), rng.randrange(10**6))
        while True:
            yield state
            if engine.is_over(state):
                break
            action = rng.choice(engine.legal_actions(state, state.to_act))
            state, _ = engine.play(state, state.to_act, action)


def test_the_views_made_from_the_public_part_are_player_view_to_the_byte():
    checked = 0
    for state in _states(60, 7):
        public = engine.player_view_public(state)
        before = copy.deepcopy(public)
        assert public == engine.player_view(state, None)
        for seat in [None, *range(state.num_players)]:
            made = engine.seat_view(state, public, seat)
            assert json.dumps(made) == json.dumps(engine.player_view(state, seat))  # keys in the same order too
            checked += 1
        assert public == before  # the seats' views did not change the shared part
    assert checked > 5000


def test_a_seat_view_holds_its_own_hand_and_vp_only():
    state = next(s for s in _states(5, 3) if s.phase == "turn" and s.num_players == 4)
    public = engine.player_view_public(state)
    view = engine.seat_view(state, public, 2)
    assert "hand" not in public["players"][2] and "vp" not in public["players"][2]
    assert view["players"][2]["hand"] == list(state.hands[2])
    assert all("hand" not in p and "vp" not in p for i, p in enumerate(view["players"]) if i != 2)


@pytest.mark.parametrize("seat", [4, -1, "1", 1.0, True])
def test_seat_view_refuses_a_seat_not_in_the_game(seat):
    state = engine.new_game(4, 11)
    with pytest.raises(ValueError):
        engine.seat_view(state, engine.player_view_public(state), seat)
