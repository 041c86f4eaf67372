"""The rulebook's worked examples (bottom of RULES.md) played through the engine.

The start-player example is in test_r_comp_setup.py (R-setup-4), checked over 200 seeds.
"""

from osaka_builders import act, build, goods_ids, market_ids, of_type


def _sell(pool, color, owned, bought, tokens=0, deck=()):
    """Seat 0 owns ``owned`` goods of ``color`` and buys ``bought`` (one card of ``color``)
    with a single blue/red 5, moving the ship from 4 to Edo; returns (state after, events,
    JSON, the set's cards)."""
    owned_ids = [pool.take(color, v) for v in owned]
    good = pool.take(color, bought)
    pay = pool.take("blue" if color != "blue" else "red", 5)
    farm = pool.take("green" if color != "green" else "red", 3, 3)
    s = build(market=[good], farm=farm, ships={color: 4}, deck=list(deck),
              players=[{"hand": [pay], "goods": owned_ids, "tokens": {color: tokens}}, {}])
    s2, events, js = act(s, 0, {"type": "buy", "payment": [pay]})
    return s2, events, js, owned_ids + [good], farm


def test_example_red_5_5_5_no_tokens_gives_3_vps(pool):
    deck = pool.take("yellow", 2, 5)
    _, events, js, set_, farm = _sell(pool, "red", [5, 5], 5, deck=deck)
    [sale] = of_type(events, "sale")
    assert (sale["price"], sale["value"], sale["vp"], sale["drawn"]) == (5, 15, 3, 0)
    assert sorted(js["players"][0]["vp_cards"]) == sorted(set_)
    assert market_ids(js) == farm + deck[:2]  # nothing was drawn for VPs


def test_example_yellow_single_2_gives_1_vp(pool):
    _, events, js, set_, _ = _sell(pool, "yellow", [], 2)
    [sale] = of_type(events, "sale")
    assert (sale["price"], sale["value"], sale["vp"]) == (2, 5, 1)
    assert js["players"][0]["vp_cards"] == set_


def test_example_green_5_three_cards_two_tokens_gives_5_vps_two_drawn(pool):
    deck = pool.take("yellow", 3, 7)
    _, events, js, set_, farm = _sell(pool, "green", [5, 3], 2, tokens=2, deck=deck)
    [sale] = of_type(events, "sale")
    assert (sale["price"], sale["value"], sale["vp"], sale["drawn"]) == (7, 25, 5, 2)
    assert sorted(js["players"][0]["vp_cards"]) == sorted(set_ + deck[:2])
    assert js["players"][0]["tokens"]["green"] == 3
    assert market_ids(js) == farm + deck[2:4]


def test_example_yellow_3_3_2_gives_2_vps_the_2_and_one_3(pool):
    _, events, js, set_, _ = _sell(pool, "yellow", [3, 3], 2)
    three_a, three_b, two = set_
    [sale] = of_type(events, "sale")
    assert (sale["price"], sale["value"], sale["vp"]) == (3, 10, 2)
    vp = js["players"][0]["vp_cards"]
    assert len(vp) == 2 and two in vp and len({three_a, three_b} & set(vp)) == 1
    [discarded] = sale["discarded"]
    assert discarded in (three_a, three_b) and discarded in js["discard"]
    assert goods_ids(js, 0) == []


def test_example_two_yellow_goods_move_the_yellow_ship_two_steps(pool):
    goods = pool.take("yellow", 2, 2)
    pay = pool.take("red", 5)
    s = build(market=goods, farm=pool.take("green", 3, 3), players=[{"hand": [pay]}, {}])
    _, events, js = act(s, 0, {"type": "buy", "payment": [pay]})
    assert js["ships"]["yellow"] == 2


def test_example_three_blue_goods_move_the_blue_ship_two_steps(pool):
    goods = pool.take("blue", 2, 3)
    pay = pool.take("red", 5, 2)
    s = build(market=goods, farm=pool.take("green", 3, 3), players=[{"hand": pay}, {}])
    _, events, js = act(s, 0, {"type": "buy", "payment": pay})
    assert js["ships"]["blue"] == 2
    assert [(e["from"], e["to"]) for e in of_type(events, "ship_moved")] == [(0, 2)]
