"""R-buy, R-take and R-reserve on hand-built positions."""

from collections import Counter
from itertools import combinations

import pytest

from engine import apply_action
from osaka_builders import (
    act, actions_json, build, color_of, farm_ids, goods_ids, market_ids, of_type,
    refused, value_of,
)


# --- R-buy -------------------------------------------------------------------------


def test_r_buy_1_goods_are_all_market_cards_not_reserved_by_others(pool):
    free, mine, theirs = pool.take("red", 2), pool.take("blue", 2), pool.take("green", 2)
    hand = pool.take("yellow", 2, 2)
    s = build(market=[free, (mine, 0), (theirs, 1)], farm=pool.take("red", 3, 3),
              players=[{"hand": hand}, {}])
    _, events, js = act(s, 0, {"type": "buy", "payment": hand})
    [buy] = of_type(events, "buy")
    assert sorted(buy["goods"]) == sorted([free, mine])
    assert sorted(goods_ids(js, 0)) == sorted([free, mine])
    assert theirs in market_ids(js)


def test_r_buy_1_no_goods_means_no_buy(pool):
    theirs = pool.take("green", 2)
    hand = pool.take("yellow", 5, 2)
    s = build(market=[(theirs, 1)], farm=pool.take("red", 3, 3), players=[{"hand": hand}, {}])
    assert all(a["type"] != "buy" for a in actions_json(s, 0))
    refused(s, 0, {"type": "buy", "payment": hand[:1]})


def test_r_buy_2_payment_must_cover_the_cost(pool):
    goods = [pool.take("red", 5), pool.take("blue", 3)]  # cost 8
    hand = [pool.take("yellow", 5), pool.take("yellow", 2), pool.take("green", 3)]
    s = build(market=goods, farm=pool.take("red", 2, 3), players=[{"hand": hand}])
    assert refused(s, 0, {"type": "buy", "payment": hand[:2]}).code == "payment_too_small"
    assert refused(s, 0, {"type": "buy", "payment": []}).code == "payment_too_small"
    _, events, js = act(s, 0, {"type": "buy", "payment": [hand[0], hand[2]]})
    assert of_type(events, "buy")[0]["cost"] == 8
    assert js["players"][0]["hand"] == [hand[1]]  # no change given


def test_r_buy_2_cannot_afford_means_no_buy_action(pool):
    goods = [pool.take("red", 5), pool.take("blue", 5)]
    hand = [pool.take("yellow", 2), pool.take("yellow", 3)]
    s = build(market=goods, farm=pool.take("red", 2, 3), players=[{"hand": hand}])
    assert all(a["type"] != "buy" for a in actions_json(s, 0))
    assert refused(s, 0, {"type": "buy", "payment": hand}).code == "payment_too_small"


def test_r_buy_3_non_minimal_payment_is_refused(pool):
    goods = pool.take("red", 2, 2)  # cost 4
    twos = pool.take("blue", 2, 3)
    five = pool.take("blue", 5)
    s = build(market=goods, farm=pool.take("green", 2, 3),
              players=[{"hand": twos + [five]}])
    assert refused(s, 0, {"type": "buy", "payment": twos}).code == "payment_not_minimal"
    assert refused(s, 0, {"type": "buy", "payment": [five, twos[0]]}).code == \
        "payment_not_minimal"
    assert refused(s, 0, {"type": "buy", "payment": twos + [five]}).code == \
        "payment_not_minimal"


def test_r_buy_3_overpaying_because_of_denominations_is_fine(pool):
    goods = [pool.take("red", 2), pool.take("red", 2)]  # cost 4
    five = pool.take("blue", 5)
    s = build(market=goods, farm=pool.take("green", 2, 3), players=[{"hand": [five]}])
    _, events, js = act(s, 0, {"type": "buy", "payment": [five]})
    assert of_type(events, "buy")[0]["payment"] == [five]
    assert five in js["discard"]


def test_r_buy_3_five_plus_three_for_seven_is_minimal(pool):
    goods = [pool.take("red", 2), pool.take("red", 5)]  # cost 7
    hand = [pool.take("blue", 5), pool.take("blue", 3), pool.take("blue", 2)]
    s = build(market=goods, farm=pool.take("green", 2, 3), players=[{"hand": hand}])
    apply_action(s, 0, {"type": "buy", "payment": [hand[0], hand[1]]})
    apply_action(s, 0, {"type": "buy", "payment": [hand[0], hand[2]]})
    assert refused(s, 0, {"type": "buy", "payment": hand}).code == "payment_not_minimal"


def _minimal_payments(hand: list[int], cost: int) -> list[tuple[int, ...]]:
    out = []
    for k in range(1, len(hand) + 1):
        for combo in combinations(hand, k):
            total = sum(value_of(c) for c in combo)
            if total >= cost and all(total - value_of(c) < cost for c in combo):
                out.append(combo)
    return out


def _kind(payment) -> tuple:
    return tuple(sorted(Counter((color_of(c), value_of(c)) for c in payment).items()))


@pytest.mark.parametrize("cost_cards", [
    [("red", 2), ("red", 2)],
    [("red", 5), ("blue", 3)],
    [("red", 5), ("blue", 5), ("yellow", 3)],
    [("green", 2)],
])
def test_r_buy_3_legal_buys_are_exactly_the_minimal_payments(pool, cost_cards):
    """One listed buy per distinct minimal payment up to interchangeable cards, and
    apply_action accepts every minimal payment (whichever interchangeable ids)."""
    goods = [pool.take(c, v) for c, v in cost_cards]
    cost = sum(v for _, v in cost_cards)
    hand = pool.take("yellow", 2, 3) + pool.take("green", 3, 2) + pool.take("blue", 5, 2) \
        + [pool.take("red", 2)]
    s = build(market=goods, farm=pool.take("green", 2, 3), players=[{"hand": hand}])
    listed = [a["payment"] for a in actions_json(s, 0) if a["type"] == "buy"]
    minimal = _minimal_payments(hand, cost)
    assert {_kind(p) for p in listed} == {_kind(p) for p in minimal}
    assert len(listed) == len({_kind(p) for p in listed})
    for p in minimal:
        js = apply_action(s, 0, {"type": "buy", "payment": list(p)}).to_json()
        assert sorted(goods_ids(js, 0)) == sorted(goods)


def test_r_buy_3_payment_with_cards_not_in_hand_or_repeated_is_refused(pool):
    goods = [pool.take("red", 2)]
    mine, other = pool.take("blue", 2), pool.take("blue", 2)
    s = build(market=goods, farm=pool.take("green", 2, 3),
              players=[{"hand": [mine]}, {"hand": [other]}])
    refused(s, 0, {"type": "buy", "payment": [other]})
    refused(s, 0, {"type": "buy", "payment": [mine, mine]})
    refused(s, 0, {"type": "buy", "payment": [goods[0]]})


def test_r_buy_4_paid_cards_discarded_goods_uninsured_and_piece_returns(pool):
    free, mine = pool.take("red", 2), pool.take("blue", 3)
    hand = [pool.take("yellow", 5)]
    old_discard = [pool.take("green", 2)]
    s = build(market=[free, (mine, 0)], farm=pool.take("red", 3, 3), discard=old_discard,
              players=[{"hand": hand}, {}])
    _, _, js = act(s, 0, {"type": "buy", "payment": hand})
    assert js["discard"] == old_discard + hand
    assert sorted(goods_ids(js, 0)) == sorted([free, mine])
    assert all(g["insured"] is False for g in js["players"][0]["goods"])
    assert js["players"][0]["hand"] == []
    assert all(slot["reserved_by"] != 0 for slot in js["market"] + js["farm"])


def test_r_buy_4_buying_own_reserved_card_gives_the_piece_back(pool):
    mine = pool.take("blue", 3)
    hand = [pool.take("yellow", 3)]
    s = build(market=[(mine, 0)], farm=pool.take("red", 3, 3), players=[{"hand": hand}, {}])
    s1, _, js = act(s, 0, {"type": "buy", "payment": hand})
    assert goods_ids(js, 0) == [mine]
    s2, _, _ = act(s1, 1, {"type": "take", "card": js["market"][0]["card"]})
    assert any(a["type"] == "reserve" for a in actions_json(s2, 0))


@pytest.mark.parametrize("bought,start,end", [
    ([("yellow", 2)], 0, 1),
    ([("yellow", 2), ("yellow", 3)], 0, 2),
    ([("blue", 2), ("blue", 3), ("blue", 5)], 1, 3),
    ([("green", 2)], 4, 5),
    ([("green", 2), ("green", 3)], 4, 5),  # never past Edo
])
def test_r_buy_5_ship_steps_one_for_one_good_two_for_two_or_more(pool, bought, start, end):
    goods = [pool.take(c, v) for c, v in bought]
    color = bought[0][0]
    hand = pool.take("red", 5, 3)
    cost = sum(v for _, v in bought)
    payment = hand[: (cost + 4) // 5]
    s = build(market=goods, farm=pool.take("red", 3, 3), ships={color: start},
              players=[{"hand": hand}, {}])
    _, events, js = act(s, 0, {"type": "buy", "payment": payment})
    [moved] = of_type(events, "ship_moved")
    assert (moved["color"], moved["from"], moved["to"]) == (color, start, end)
    if end < 5:
        assert js["ships"][color] == end
    else:
        assert of_type(events, "payment")


def test_r_buy_5_each_colour_moves_on_its_own(pool):
    goods = [pool.take("red", 2), pool.take("blue", 2), pool.take("blue", 2)]
    hand = pool.take("green", 3, 2)
    s = build(market=goods, farm=pool.take("yellow", 3, 3), players=[{"hand": hand}])
    _, events, js = act(s, 0, {"type": "buy", "payment": hand})
    assert js["ships"] == {"red": 1, "blue": 2, "yellow": 0, "green": 0}
    assert {(e["color"], e["from"], e["to"]) for e in of_type(events, "ship_moved")} == \
        {("red", 0, 1), ("blue", 0, 2)}


def test_r_buy_6_no_ship_at_edo_no_payment(pool):
    goods = [pool.take("red", 2)]
    hand = [pool.take("green", 2)]
    s = build(market=goods, farm=pool.take("yellow", 3, 3), ships={"red": 3, "blue": 4},
              players=[{"hand": hand}, {"goods": [pool.take("blue", 2)]}])
    _, events, js = act(s, 0, {"type": "buy", "payment": hand})
    assert not of_type(events, "payment") and not of_type(events, "black_tide")
    assert js["ships"]["red"] == 4 and js["ships"]["blue"] == 4  # no sinking either
    assert len(js["players"][1]["goods"]) == 1


def test_r_buy_6_ship_reaching_edo_triggers_payment(pool):
    goods = [pool.take("red", 2)]
    hand = [pool.take("green", 2)]
    s = build(market=goods, farm=pool.take("yellow", 3, 3), ships={"red": 4},
              players=[{"hand": hand}, {}])
    _, events, js = act(s, 0, {"type": "buy", "payment": hand})
    [pay] = of_type(events, "payment")
    assert pay["colors"] == ["red"]
    [sale] = of_type(events, "sale")
    assert sale["seat"] == 0 and sale["cards"] == goods and sale["vp"] == 1
    assert js["ships"]["red"] == 0


def test_r_buy_7_market_and_farm_refreshed_after_the_purchase(pool):
    goods = [pool.take("red", 2)]
    hand = [pool.take("green", 2)]
    farm = pool.take("yellow", 3, 3)
    deck = pool.take("blue", 2, 5)
    s = build(market=goods, farm=farm, deck=deck, players=[{"hand": hand}, {}])
    _, events, js = act(s, 0, {"type": "buy", "payment": hand})
    assert market_ids(js) == farm + deck[:2]
    assert farm_ids(js) == deck[2:]
    [refresh] = of_type(events, "refresh")
    assert refresh == {**refresh, "moved": farm, "market": deck[:2], "farm": deck[2:]}


def test_r_buy_7_payment_is_resolved_before_the_refresh(pool):
    """The VP card drawn at payment is the top of the draw pile; the refresh draws after."""
    goods = [pool.take("red", 5)]
    hand = [pool.take("green", 5)]
    farm = pool.take("yellow", 3, 3)
    deck = pool.take("blue", 2, 7)
    # red 5 with 1 red token: 6 → 10 → 2 VPs: the card plus deck[0].
    s = build(market=goods, farm=farm, deck=deck, ships={"red": 4},
              players=[{"hand": hand, "tokens": {"red": 1}}, {}])
    _, events, js = act(s, 0, {"type": "buy", "payment": hand})
    kinds = [e["type"] for e in events]
    assert kinds.index("sale") < kinds.index("refresh")
    assert sorted(js["players"][0]["vp_cards"]) == sorted(goods + deck[:1])
    assert market_ids(js) == farm + deck[1:3]
    assert farm_ids(js) == deck[3:6]


# --- R-take ------------------------------------------------------------------------


def test_r_take_1_take_an_unreserved_market_card_into_hand(pool):
    m = pool.take("red", 3, 2)
    s = build(market=m, farm=pool.take("blue", 2, 3))
    _, events, js = act(s, 0, {"type": "take", "card": m[1]})
    assert js["players"][0]["hand"] == [m[1]]
    assert market_ids(js) == [m[0]]
    assert of_type(events, "take")[0]["card"] == m[1]


def test_r_take_1_own_reserved_card_returns_the_piece(pool):
    m = pool.take("red", 3, 2)
    farm = pool.take("blue", 2, 3)
    s = build(market=[(m[0], 0), m[1]], farm=farm)
    s1, _, js = act(s, 0, {"type": "take", "card": m[0]})
    assert m[0] in js["players"][0]["hand"]
    # Piece back: seat 0 may reserve again on its next turn.
    s2, _, _ = act(s1, 1, {"type": "take", "card": m[1]})
    assert any(a["type"] == "reserve" for a in actions_json(s2, 0))


def test_r_take_1_never_from_the_farm_nor_another_players_reserved_card(pool):
    m = pool.take("red", 3)
    theirs = pool.take("red", 2)
    farm = pool.take("blue", 2, 3)
    s = build(market=[m, (theirs, 1)], farm=farm)
    assert refused(s, 0, {"type": "take", "card": farm[0]}).code == "card_not_in_market"
    assert refused(s, 0, {"type": "take", "card": theirs}).code == "card_reserved"
    assert refused(s, 0, {"type": "take", "card": pool.take("green", 2)}).code == \
        "card_not_in_market"
    takes = [a["card"] for a in actions_json(s, 0) if a["type"] == "take"]
    assert takes == [m]


def test_r_take_2_no_hand_limit(pool):
    hand = pool.take("green", 2, 11) + pool.take("green", 3, 9) + pool.take("yellow", 2, 11)
    m = pool.take("red", 3)
    s = build(market=[m], farm=pool.take("blue", 2, 3), players=[{"hand": hand}])
    _, _, js = act(s, 0, {"type": "take", "card": m})
    assert len(js["players"][0]["hand"]) == 32


# --- R-reserve ---------------------------------------------------------------------


def test_r_reserve_1_only_with_a_free_piece(pool):
    mine = pool.take("red", 3)
    m = pool.take("red", 2, 2)
    s = build(market=[(mine, 0)] + m, farm=pool.take("blue", 2, 3))
    assert all(a["type"] != "reserve" for a in actions_json(s, 0))
    assert refused(s, 0, {"type": "reserve", "card": m[0]}).code == "no_reservation_piece"


def test_r_reserve_2_any_unreserved_market_or_farm_card(pool):
    m = pool.take("red", 2, 2)
    theirs = pool.take("red", 3)
    farm = pool.take("blue", 2, 2)
    farm_theirs = pool.take("blue", 3)
    s = build(num_players=3, market=m + [(theirs, 1)], farm=farm + [(farm_theirs, 2)])
    reserves = sorted(a["card"] for a in actions_json(s, 0) if a["type"] == "reserve")
    assert reserves == sorted(m + farm)
    _, events, js = act(s, 0, {"type": "reserve", "card": farm[1]})
    assert js["farm"][1] == {"card": farm[1], "reserved_by": 0}
    [ev] = of_type(events, "reserve")
    assert (ev["seat"], ev["card"], ev["where"]) == (0, farm[1], "farm")
    _, events, js = act(s, 0, {"type": "reserve", "card": m[0]})
    assert js["market"][0] == {"card": m[0], "reserved_by": 0}
    assert of_type(events, "reserve")[0]["where"] == "market"
    refused(s, 0, {"type": "reserve", "card": theirs})
    refused(s, 0, {"type": "reserve", "card": farm_theirs})
    refused(s, 0, {"type": "reserve", "card": pool.take("green", 2)})


def test_r_reserve_2_reserving_keeps_the_card_in_place(pool):
    m = pool.take("red", 2, 3)
    s = build(market=m, farm=pool.take("blue", 2, 3))
    _, _, js = act(s, 0, {"type": "reserve", "card": m[1]})
    assert market_ids(js) == m
    assert js["players"][0]["hand"] == []


def test_r_reserve_3_reserved_card_bought_or_taken_only_by_the_reserver(pool):
    r = pool.take("red", 5)
    other = pool.take("red", 2)
    hand1 = [pool.take("yellow", 5)]
    s = build(market=[(r, 0), other], farm=pool.take("blue", 2, 3), turn=1,
              players=[{}, {"hand": hand1}])
    assert refused(s, 1, {"type": "take", "card": r}).code == "card_reserved"
    _, _, js = act(s, 1, {"type": "buy", "payment": hand1})
    assert goods_ids(js, 1) == [other]
    assert js["market"][0] == {"card": r, "reserved_by": 0}


def test_r_reserve_3_piece_stays_on_farm_card_moving_to_the_market(pool):
    m = pool.take("red", 2)
    farm = pool.take("blue", 2, 3)
    deck = pool.take("green", 2, 5)
    s = build(market=[m], farm=[farm[0], (farm[1], 1), farm[2]], deck=deck)
    _, _, js = act(s, 0, {"type": "take", "card": m})  # empty Market → refresh (R-turn-1)
    assert js["market"][:3] == [{"card": farm[0], "reserved_by": None},
                                {"card": farm[1], "reserved_by": 1},
                                {"card": farm[2], "reserved_by": None}]
    s1 = build(market=[m], farm=[farm[0], (farm[1], 1), farm[2]], deck=deck)
    s1, _, _ = act(s1, 0, {"type": "take", "card": m})
    assert all(a["type"] != "reserve" for a in actions_json(s1, 1))  # piece still out
    assert {"type": "take", "card": farm[1]} in actions_json(s1, 1)


def test_r_take_1_own_reserved_farm_card_cannot_be_taken_or_bought_yet(pool):
    m = pool.take("red", 2)
    farm = pool.take("blue", 2, 3)
    hand = pool.take("yellow", 5, 2)
    s = build(market=[m], farm=[(farm[0], 0), farm[1], farm[2]], players=[{"hand": hand}])
    assert refused(s, 0, {"type": "take", "card": farm[0]}).code == "card_not_in_market"
    _, events, js = act(s, 0, {"type": "buy", "payment": hand[:1]})
    assert of_type(events, "buy")[0]["goods"] == [m]
    assert js["market"][0] == {"card": farm[0], "reserved_by": 0}
