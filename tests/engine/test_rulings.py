"""The rulings docs/rules.md adds where RULES.md is open (R-pay-6a, R-pay-1a, R-pay-2a,
R-turn-1a, R-refresh-3a); R-setup-3a and R-setup-4a are in test_r_comp_setup.py and
test_r_end_info.py."""

from osaka_builders import act, actions_json, build, farm_ids, market_ids, of_type, refused


def _insure_position(pool, goods_spec, hand_spec):
    goods = [pool.take(c, v) for c, v in goods_spec]
    hand = [pool.take(c, v) for c, v in hand_spec]
    s = build(phase="insurance", sinking=["blue", "yellow"], insurance_queue=[0],
              ships={"red": 5, "blue": 4, "yellow": 3}, farm=pool.take("red", 3, 3),
              players=[{"goods": goods, "hand": hand}, {}])
    return s, goods, hand


def test_r_pay_6a_insurance_discards_are_minimal(pool):
    s, goods, hand = _insure_position(pool, [("blue", 5)], [("blue", 2), ("blue", 3)])
    assert refused(s, 0, {"type": "insure", "discard": hand, "goods": goods}).code == \
        "discard_not_minimal"
    assert refused(s, 0, {"type": "insure", "discard": hand[:1], "goods": []}).code == \
        "discard_not_minimal"
    act(s, 0, {"type": "insure", "discard": hand[:1], "goods": goods})
    act(s, 0, {"type": "insure", "discard": hand[1:], "goods": goods})


def test_r_pay_6a_codes_too_few_icons_and_not_insurable(pool):
    s, goods, hand = _insure_position(
        pool, [("blue", 5), ("blue", 3), ("green", 2)],
        [("blue", 3), ("blue", 5), ("green", 2)])
    assert refused(s, 0, {"type": "insure", "discard": hand[:1], "goods": goods[:2]}).code \
        == "too_few_icons"
    assert refused(s, 0, {"type": "insure", "discard": hand[1:2], "goods": []}).code == \
        "not_insurable"  # a 5 has no icon
    assert refused(s, 0, {"type": "insure", "discard": hand[2:], "goods": goods[2:]}).code \
        == "not_insurable"  # green is not sinking


def test_r_pay_1a_sales_within_a_colour_clockwise_from_the_active_player(pool):
    """Seat 1 buys: red sales go 1, 2, 0; VP draws follow that order."""
    good, pay = pool.take("red", 2), pool.take("green", 2)
    r0, r2 = pool.take("red", 5), pool.take("red", 5)
    deck = pool.take("yellow", 2, 8)
    s = build(num_players=3, turn=1, market=[good], farm=pool.take("blue", 3, 3),
              ships={"red": 4}, deck=deck,
              players=[{"goods": [r0], "tokens": {"red": 2}}, {"hand": [pay]},
                       {"goods": [r2], "tokens": {"red": 2}}])
    _, events, js = act(s, 1, {"type": "buy", "payment": [pay]})
    assert [e["seat"] for e in of_type(events, "sale")] == [1, 2, 0]
    assert sorted(js["players"][2]["vp_cards"]) == sorted([r2, deck[0]])
    assert sorted(js["players"][0]["vp_cards"]) == sorted([r0, deck[1]])


def test_r_pay_2a_equal_values_the_first_bought_becomes_the_vp(pool):
    three_a, two, three_b = pool.take("yellow", 3), pool.take("yellow", 2), \
        pool.take("yellow", 3)
    good, pay = pool.take("yellow", 2), pool.take("red", 2)
    s = build(market=[good], farm=pool.take("blue", 3, 3), ships={"yellow": 4},
              players=[{"hand": [pay]}, {"goods": [three_a, two, three_b]}])
    _, events, js = act(s, 0, {"type": "buy", "payment": [pay]})
    assert sorted(js["players"][1]["vp_cards"]) == sorted([two, three_a])
    sale = next(e for e in of_type(events, "sale") if e["seat"] == 1)
    assert sale["discarded"] == [three_b]


def test_r_turn_1a_first_turn_after_the_draft_starts_refreshed(pool):
    farm = pool.take("blue", 2, 3)
    deck = pool.take("green", 2, 5)
    s = build(phase="token_draft", start_player=0, to_act=1, market=[], farm=farm,
              deck=deck, players=[{"tokens": {"red": 1}}, {}])
    s2, events, js = act(s, 1, {"type": "choose_token", "color": "blue"})
    assert js["phase"] == "turn" and js["turn"] == 0
    assert market_ids(js) == farm + deck[:2] and farm_ids(js) == deck[2:]
    assert {"type": "take", "card": farm[0]} in actions_json(s2, 0)


def test_r_refresh_3a_reshuffle_order_depends_on_seed_and_shuffle_count(pool):
    m = pool.take("red", 2)
    farm = pool.take("blue", 2, 3)

    def reshuffled(seed, shuffles):
        s = build(market=[m], farm=farm, deck=[], rest="discard", seed=seed,
                  shuffles=shuffles)
        js = act(s, 0, {"type": "take", "card": m})[2]
        return market_ids(js)[3:] + farm_ids(js) + js["deck"]

    assert reshuffled(3, 1) == reshuffled(3, 1)
    assert reshuffled(3, 1) != reshuffled(3, 2)
    assert reshuffled(3, 1) != reshuffled(4, 1)
