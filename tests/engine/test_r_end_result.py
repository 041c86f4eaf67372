"""engine.game_result: the end screen's explanation of R-end (reason, VPs per colour, ranks)."""

import random

import pytest

from engine import game_result, legal_actions, new_game, play
from osaka_builders import act, build, of_type
from test_r_end_info import _exhausted_with_vps, _pass_out


def test_refused_before_the_end():
    with pytest.raises(ValueError):
        game_result(new_game(2, 1), [])


def test_tokens_end_names_the_active_player_and_the_token_holder(pool):
    red = pool.take("red", 2)
    pay = pool.take("green", 2)
    s = build(market=[red], farm=pool.take("blue", 3, 3), ships={"red": 4},
              players=[{"hand": [pay], "tokens": {"blue": 7}},
                       {"vp_cards": pool.take("yellow", 2, 3)}])
    s, events, _ = act(s, 0, {"type": "buy", "payment": [pay]})
    r = game_result(s, events)
    assert r["reason"] == "tokens" and r["active"] == 0 and r["token_seats"] == [0]
    assert r["winners"] == [1] and not r["shared"] and r["tie_break"] is None
    assert [p["rank"] for p in r["players"]] == [2, 1]
    me = r["players"][0]
    assert me["vp"] == 1 and me["tokens"] == 8
    assert me["vp_by_color"] == {"red": 1, "blue": 0, "yellow": 0, "green": 0}
    assert [(x["color"], x["cards"], x["vp"]) for x in me["sales"]] == [("red", [red], 1)]
    assert me["tokens_by_color"]["blue"] == 7 and me["tokens_by_color"]["red"] == 1


def test_vp_tie_broken_by_tokens():
    s = _exhausted_with_vps([30, 30, 10], tokens=[{"red": 1}, {"red": 2, "blue": 1}, {}])
    s, events = _pass_out(s, 3)
    r = game_result(s, events)
    assert r["reason"] == "passes" and r["token_seats"] == []
    assert r["winners"] == [1] and r["tie_break"] == "tokens" and not r["shared"]
    assert [p["rank"] for p in r["players"]] == [2, 1, 3]


def test_shared_win_shares_the_rank():
    s = _exhausted_with_vps([30, 10, 30], tokens=[{"red": 2}, {"red": 5}, {"green": 2}])
    s, events = _pass_out(s, 3)
    r = game_result(s, events)
    assert r["winners"] == [0, 2] and r["shared"] and r["tie_break"] == "shared"
    assert [p["rank"] for p in r["players"]] == [1, 3, 1]


@pytest.mark.parametrize("seed", range(6))
def test_random_games_sales_add_up_to_the_vp_totals(seed):
    rng = random.Random(seed)
    s = new_game(2 + seed % 3, seed)
    events = []
    while s.phase != "over":
        s, ev = play(s, s.to_act, rng.choice(legal_actions(s, s.to_act)))
        events += ev
    r = game_result(s, events)
    over = of_type(events, "game_over")[0]
    assert r["winners"] == over["winners"] and r["reason"] == over["reason"]
    for p in r["players"]:
        assert p["vp"] == over["vp"][p["seat"]] == sum(p["vp_by_color"].values())
        assert p["vp"] == sum(x["vp"] for x in p["sales"])
        assert (p["rank"] == 1) == (p["seat"] in r["winners"])
    public = [e for e in events if e["visible_to"] is None]
    assert game_result(s, public) == r
