"""R-turn: start-of-turn refresh, one action per turn, passing, clockwise order."""

from engine import legal_actions
from osaka_builders import (
    act, actions_json, build, farm_ids, market_ids, of_type, refused,
)


def test_r_turn_1_market_with_only_others_reserved_cards_is_refreshed_first(pool):
    a, b = pool.take("red", 2), pool.take("red", 3)
    farm = pool.take("blue", 2, 3)
    deck = pool.take("green", 2, 5)
    s = build(market=[a, (b, 0)], farm=farm, deck=deck, players=[{}, {}])
    s1, events, js = act(s, 0, {"type": "take", "card": a})
    assert js["turn"] == 1 and js["to_act"] == 1
    assert market_ids(js) == [b] + farm + deck[:2]
    assert js["market"][0]["reserved_by"] == 0
    assert farm_ids(js) == deck[2:5]
    [refresh] = of_type(events, "refresh")
    assert refresh["moved"] == farm and refresh["market"] == deck[:2] \
        and refresh["farm"] == deck[2:5]
    # Player 1 can now act on the new cards.
    assert {"type": "take", "card": farm[0]} in actions_json(s1, 1)


def test_r_turn_1_empty_market_is_refreshed_before_the_next_player_acts(pool):
    a = pool.take("red", 2)
    farm = pool.take("blue", 2, 3)
    deck = pool.take("green", 3, 5)
    s = build(market=[a], farm=farm, deck=deck)
    _, events, js = act(s, 0, {"type": "take", "card": a})
    assert market_ids(js) == farm + deck[:2]
    assert farm_ids(js) == deck[2:5]
    assert len(of_type(events, "refresh")) == 1


def test_r_turn_1_own_reserved_card_in_market_means_no_refresh(pool):
    a, b = pool.take("red", 2), pool.take("red", 3)
    farm = pool.take("blue", 2, 3)
    s = build(market=[a, (b, 1)], farm=farm)
    _, events, js = act(s, 0, {"type": "take", "card": a})
    assert market_ids(js) == [b] and farm_ids(js) == farm
    assert not of_type(events, "refresh")


def test_r_turn_2_exactly_one_action_then_the_turn_passes(pool):
    m = pool.take("red", 2, 3)
    hand = pool.take("yellow", 5, 2)
    s = build(market=m, farm=pool.take("blue", 2, 3), players=[{"hand": hand}, {}])
    kinds = {a["type"] for a in actions_json(s, 0)}
    assert kinds == {"buy", "take", "reserve"}
    s1, _, js = act(s, 0, {"type": "reserve", "card": m[0]})
    assert js["turn"] == 1
    assert refused(s1, 0, {"type": "take", "card": m[1]}).code == "not_your_turn"
    assert legal_actions(s1, 0) == []


def _exhausted(pool, *, market=(), farm=(), players=None, num_players=2, **kw):
    """A position with both piles empty; every unplaced card sits in seat 0's VP pile."""
    return build(num_players=num_players, market=market, farm=farm, deck=[], discard=[],
                 rest=("vp", 0), players=players, **kw)


def test_r_turn_3_pass_is_the_only_action_when_nothing_else_is_legal(pool):
    s = _exhausted(pool)
    assert actions_json(s, 0) == [{"type": "pass"}]
    s1, events, js = act(s, 0, {"type": "pass"})
    assert of_type(events, "pass")[0]["seat"] == 0
    assert js["passes"] == 1 and js["turn"] == 1 and js["phase"] == "turn"


def test_r_turn_3_pass_is_refused_when_another_action_is_legal(pool):
    m = pool.take("red", 2)
    s = build(market=[m], farm=pool.take("blue", 2, 3))
    exc = refused(s, 0, {"type": "pass"})
    assert exc.code != "malformed"
    assert {"type": "pass"} not in actions_json(s, 0)


def test_r_turn_3_only_others_reserved_card_left_means_pass(pool):
    """Market holds only another player's reserved card and both piles are empty."""
    r = pool.take("red", 2)
    s = _exhausted(pool, market=[(r, 1)])
    assert actions_json(s, 0) == [{"type": "pass"}]
    assert refused(s, 0, {"type": "take", "card": r}).code == "card_reserved"


def test_r_turn_3_every_player_passing_in_succession_ends_the_game(pool):
    s = _exhausted(pool, num_players=3)
    s, _, js = act(s, 0, {"type": "pass"})
    s, _, js = act(s, 1, {"type": "pass"})
    assert js["phase"] == "turn" and js["passes"] == 2
    s, events, js = act(s, 2, {"type": "pass"})
    assert js["phase"] == "over" and js["to_act"] is None and s.to_act is None
    [over] = of_type(events, "game_over")
    assert over["reason"] == "passes"
    assert js["winners"] == [0] == over["winners"]
    for seat in range(3):
        assert legal_actions(s, seat) == []


def test_r_turn_3_an_action_in_between_resets_the_pass_count(pool):
    """Seat 1 still has its own reserved card to take: the passes are not in succession."""
    r = pool.take("red", 2)
    s = _exhausted(pool, num_players=3, market=[(r, 1)])
    s, _, js = act(s, 0, {"type": "pass"})
    assert js["passes"] == 1
    assert {"type": "take", "card": r} in actions_json(s, 1)
    s, _, js = act(s, 1, {"type": "take", "card": r})
    assert js["passes"] == 0 and js["phase"] == "turn"
    s, _, js = act(s, 2, {"type": "pass"})
    s, _, js = act(s, 0, {"type": "pass"})
    assert js["phase"] == "turn"
    s, _, js = act(s, 1, {"type": "pass"})
    assert js["phase"] == "over"
    assert js.get("end_reason", "passes") == "passes"


def test_r_turn_4_next_player_clockwise_wrapping(pool):
    m = pool.take("red", 2, 4)
    s = build(num_players=3, turn=1, market=m, farm=pool.take("blue", 2, 3))
    s, events, js = act(s, 1, {"type": "take", "card": m[0]})
    assert js["turn"] == 2 and s.to_act == 2
    assert of_type(events, "turn_started")[-1]["seat"] == 2
    s, _, js = act(s, 2, {"type": "take", "card": m[1]})
    assert js["turn"] == 0 and s.to_act == 0
    s, _, js = act(s, 0, {"type": "take", "card": m[2]})
    assert js["turn"] == 1
