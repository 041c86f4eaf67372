"""R-pay: scoring, VP cards, tokens, the end check, the Black Tide, insurance, return."""

from collections import Counter

import pytest

from engine import GameState, legal_actions, player_view
from osaka_builders import (
    ALL_CARDS, act, actions_json, all_card_places, build, goods_ids, market_ids, of_type,
    refused, types, vp_of,
)


def _buy_to_edo(pool, color, *, players, num_players=None, ships=None, deck=(), **kw):
    """Seat ``turn`` buys one ``color`` 2 that moves that ship from 4 to Edo.

    The buyer pays with one extra card added to its hand (a red/green 2 not of ``color``).
    Returns (state, good id, payment ids).
    """
    good = pool.take(color, 2)
    pay_color = "green" if color != "green" else "red"
    pay = pool.take(pay_color, 2)
    turn = kw.pop("turn", 0)
    players = [dict(p) for p in players]
    players[turn]["hand"] = list(players[turn].get("hand", [])) + [pay]
    s = build(num_players=num_players or len(players), market=[good],
              farm=kw.pop("farm", None) or pool.take("blue", 3, 3),
              ships={color: 4, **(ships or {})}, players=players, deck=deck, turn=turn, **kw)
    return s, good, [pay]


# --- R-pay-1 scoring ------------------------------------------------------------------


def test_r_pay_1_every_player_sells_all_merchandise_of_the_colour_insured_or_not(pool):
    p1 = [(pool.take("red", 5), True), pool.take("red", 3)]
    p2 = [pool.take("red", 3)]
    blue = pool.take("blue", 5)
    s, good, pay = _buy_to_edo(pool, "red", num_players=3, players=[
        {}, {"goods": p1 + [blue], "tokens": {"red": 1}}, {"goods": p2}])
    _, events, js = act(s, 0, {"type": "buy", "payment": pay})
    sales = {e["seat"]: e for e in of_type(events, "sale")}
    assert set(sales) == {0, 1, 2}
    # Seat 1: highest 5 + 1 token = 6; × 2 = 12 → 15 → 3 VPs.
    assert (sales[1]["price"], sales[1]["value"], sales[1]["vp"]) == (6, 15, 3)
    assert sorted(sales[1]["cards"]) == sorted([p1[0][0], p1[1]])
    # Seat 2: 3 × 1 = 3 → 5 → 1 VP. Seat 0: its bought 2 → 1 VP.
    assert (sales[2]["price"], sales[2]["value"], sales[2]["vp"]) == (3, 5, 1)
    assert (sales[0]["price"], sales[0]["value"], sales[0]["vp"]) == (2, 5, 1)
    assert goods_ids(js, 1) == [blue]  # other colours are not sold
    assert goods_ids(js, 0) == [] and goods_ids(js, 2) == []
    assert [vp_of(js, i) for i in range(3)] == [1, 3, 1]


@pytest.mark.parametrize("values,tokens,value,vp", [
    ([5, 5], 0, 10, 2),        # a multiple of 5 stays
    ([2, 2, 2, 2], 0, 10, 2),  # 2 × 4 = 8 → 10
    ([3, 2], 2, 10, 2),        # (3 + 2) × 2 = 10
    ([5, 3, 3, 2], 1, 25, 5),  # 6 × 4 = 24 → 25
    ([2], 3, 5, 1),            # 5 stays 5
    ([2], 4, 10, 2),           # 6 → 10: the card plus one drawn
])
def test_r_pay_1_price_is_highest_plus_tokens_value_rounded_up_to_five(
        pool, values, tokens, value, vp):
    set_ = [pool.take("blue", v) for v in values]
    # Seat 1 owns the whole set; seat 0's purchase brings the blue ship to Edo.
    s, good, pay = _buy_to_edo(pool, "blue", players=[
        {}, {"goods": set_, "tokens": {"blue": tokens}}])
    _, events, js = act(s, 0, {"type": "buy", "payment": pay})
    sale = next(e for e in of_type(events, "sale") if e["seat"] == 1)
    assert sale["price"] == max(values) + tokens
    assert sale["value"] == value and sale["vp"] == vp
    assert vp_of(js, 1) == vp


def test_r_pay_1_two_ships_at_edo_are_paid_in_colour_order(pool):
    """Blue comes first in the Market, yet red is scored first (red, blue, yellow, green)."""
    blue_good, red_good = pool.take("blue", 2), pool.take("red", 2)
    hand = [pool.take("green", 5)]
    red1, blue1 = pool.take("red", 5), pool.take("blue", 5)
    deck = pool.take("yellow", 2, 8)
    s = build(market=[blue_good, red_good], farm=pool.take("green", 3, 3),
              ships={"red": 4, "blue": 4}, deck=deck,
              players=[{"hand": hand},
                       {"goods": [blue1, red1], "tokens": {"red": 2, "blue": 2}}])
    _, events, js = act(s, 0, {"type": "buy", "payment": hand})
    [pay] = of_type(events, "payment")
    assert pay["colors"] == ["red", "blue"]
    assert [e["color"] for e in of_type(events, "sale")] == ["red", "red", "blue", "blue"]
    # Seat 1: red (5+2)×1 = 7 → 10 → 2 VPs (card + deck[0]); blue likewise (+ deck[1]).
    assert sorted(js["players"][1]["vp_cards"]) == sorted([red1, blue1, deck[0], deck[1]])
    assert js["ships"]["red"] == 0 and js["ships"]["blue"] == 0
    assert js["players"][1]["tokens"] == {"red": 3, "blue": 3, "yellow": 0, "green": 0}
    assert js["players"][0]["tokens"] == {"red": 1, "blue": 1, "yellow": 0, "green": 0}
    returned = {e["color"]: (e["from"], e["to"]) for e in of_type(events, "ship_returned")}
    assert returned == {"red": (5, 0), "blue": (5, 0)}


def test_r_pay_1_three_ships_at_edo_in_one_purchase(pool):
    goods = [pool.take("green", 2), pool.take("yellow", 2), pool.take("yellow", 3),
             pool.take("red", 2)]
    hand = pool.take("blue", 5, 2)
    s = build(market=goods, farm=pool.take("blue", 3, 3),
              ships={"red": 4, "yellow": 3, "green": 4}, players=[{"hand": hand}, {}])
    _, events, js = act(s, 0, {"type": "buy", "payment": hand})
    assert of_type(events, "payment")[0]["colors"] == ["red", "yellow", "green"]
    assert [e["color"] for e in of_type(events, "sale")] == ["red", "yellow", "green"]
    assert js["ships"] == {"red": 0, "blue": 0, "yellow": 0, "green": 0}


# --- R-pay-2 VP cards -----------------------------------------------------------------


def test_r_pay_2_lowest_cards_become_vps_rest_discarded(pool):
    three = pool.take("green", 3)
    twos = pool.take("green", 2, 3)
    s, good, pay = _buy_to_edo(pool, "green", players=[{}, {"goods": [three] + twos}])
    _, events, js = act(s, 0, {"type": "buy", "payment": pay})
    # Seat 1: 3 × 4 = 12 → 15 → 3 VPs: the three 2s; the 3 is discarded.
    assert sorted(js["players"][1]["vp_cards"]) == sorted(twos)
    assert three in js["discard"] and goods_ids(js, 1) == []
    sale = next(e for e in of_type(events, "sale") if e["seat"] == 1)
    assert sale["discarded"] == [three] and sale["drawn"] == 0


def test_r_pay_2_vp_cards_drawn_when_set_too_small(pool):
    deck = pool.take("yellow", 2, 8)
    five = pool.take("red", 5)
    s, good, pay = _buy_to_edo(pool, "red", players=[{}, {"goods": [five],
                                                         "tokens": {"red": 5}}], deck=deck)
    _, events, js = act(s, 0, {"type": "buy", "payment": pay})
    # Seat 0 sells its 2 first (no draw); seat 1: (5 + 5) × 1 = 10 → 2 VPs: 5 + deck[0].
    sale = next(e for e in of_type(events, "sale") if e["seat"] == 1)
    assert sale["vp"] == 2 and sale["drawn"] == 1
    assert sorted(js["players"][1]["vp_cards"]) == sorted([five, deck[0]])
    assert deck[0] not in market_ids(js)


def test_r_pay_2_vp_draw_reshuffles_the_discard(pool):
    five = pool.take("red", 5)
    s, good, pay = _buy_to_edo(pool, "red", players=[{}, {"goods": [five],
                                                         "tokens": {"red": 5}}],
                               rest="discard")
    old_discard = s.to_json()["discard"]
    _, events, js = act(s, 0, {"type": "buy", "payment": pay})
    assert of_type(events, "reshuffle")
    extra = [c for c in js["players"][1]["vp_cards"] if c != five]
    assert len(extra) == 1 and extra[0] in old_discard + pay
    assert all_card_places(js) == Counter(ALL_CARDS)


def test_r_pay_2_vp_that_cannot_be_drawn_counts_as_a_substitute(pool):
    """Both piles empty: the payment card is reshuffled and drawn, then substitutes."""
    set_ = [pool.take("green", 5), pool.take("green", 5)]
    s, good, pay = _buy_to_edo(pool, "green", players=[
        {"goods": set_, "tokens": {"green": 3}}, {}], deck=[], discard=[], rest=("vp", 1))
    # Set 5, 5, 2 with 3 tokens: 8 × 3 = 24 → 25 → 5 VPs: 3 cards + pay card + 1 substitute.
    _, events, js = act(s, 0, {"type": "buy", "payment": pay})
    p0 = js["players"][0]
    assert sorted(p0["vp_cards"]) == sorted(set_ + [good] + pay)
    assert p0["vp_substitutes"] == 1
    assert player_view(GameState.from_json(js), 0)["players"][0]["vp"] == 5
    assert js["deck"] == [] and js["discard"] == []
    assert all_card_places(js) == Counter(ALL_CARDS)


# --- R-pay-3 tokens -------------------------------------------------------------------


def test_r_pay_3_one_token_per_colour_scored(pool):
    red = pool.take("red", 2, 4)
    blue = [pool.take("blue", 3)]
    goods = [pool.take("red", 3), pool.take("blue", 2)]
    hand = [pool.take("green", 5)]
    s = build(market=goods, farm=pool.take("green", 3, 3), ships={"red": 4, "blue": 4},
              players=[{"hand": hand}, {"goods": red + blue}])
    _, _, js = act(s, 0, {"type": "buy", "payment": hand})
    assert js["players"][1]["tokens"] == {"red": 1, "blue": 1, "yellow": 0, "green": 0}
    assert js["players"][0]["tokens"] == {"red": 1, "blue": 1, "yellow": 0, "green": 0}


def test_r_pay_3_no_merchandise_no_token(pool):
    s, good, pay = _buy_to_edo(pool, "yellow", players=[{}, {"goods": [pool.take("red", 5)]}])
    _, events, js = act(s, 0, {"type": "buy", "payment": pay})
    assert sum(js["players"][1]["tokens"].values()) == 0
    assert [e["seat"] for e in of_type(events, "token_gained")] == [0]


# --- R-pay-4 end check ----------------------------------------------------------------


def _tokens_end_position(pool, *, seller_tokens=None, p1_vp=0):
    """Seat 0 (7 tokens) buys red to Edo; blue at 3 would sink; seat 1 could insure."""
    blue_goods = [pool.take("blue", 5)]
    s, good, pay = _buy_to_edo(pool, "red", ships={"blue": 3}, players=[
        {"tokens": seller_tokens or {"blue": 4, "green": 3}},
        {"goods": blue_goods, "hand": [pool.take("blue", 2)],
         "vp_cards": [pool.take("yellow", 3) for _ in range(p1_vp)]}])
    return s, good, pay, blue_goods


def test_r_pay_4_eight_tokens_end_the_game_before_the_black_tide(pool):
    s, good, pay, blue_goods = _tokens_end_position(pool)
    before = s.to_json()
    s2, events, js = act(s, 0, {"type": "buy", "payment": pay})
    assert sum(js["players"][0]["tokens"].values()) == 8
    assert js["phase"] == "over" and js["to_act"] is None and s2.to_act is None
    assert js["ships"] == {**before["ships"], "red": 5}  # no sinking, no return
    assert goods_ids(js, 1) == blue_goods  # nothing lost to the Black Tide
    assert not of_type(events, "black_tide") and not of_type(events, "ship_returned")
    assert not of_type(events, "refresh")
    assert market_ids(js) == [] and js["farm"] == before["farm"]
    [over] = of_type(events, "game_over")
    assert over["reason"] == "tokens" and js.get("end_reason", "tokens") == "tokens"
    assert js["winners"] == [0] == over["winners"]
    assert types(events)[-1] == "game_over"
    assert all(legal_actions(s2, i) == [] for i in range(2))


def test_r_pay_4_any_player_reaching_eight_ends_it_not_only_the_buyer(pool):
    red = pool.take("red", 3)
    s, good, pay = _buy_to_edo(pool, "red", players=[
        {}, {"goods": [red], "tokens": {"green": 7}}])
    _, _, js = act(s, 0, {"type": "buy", "payment": pay})
    assert js["phase"] == "over"
    assert js["winners"] == [1]  # 1 VP each, seat 1 has more tokens (R-end-2)


def test_r_pay_4_seven_tokens_do_not_end_the_game(pool):
    s, good, pay, _ = _tokens_end_position(pool, seller_tokens={"blue": 3, "green": 3})
    _, events, js = act(s, 0, {"type": "buy", "payment": pay})
    assert js["phase"] == "insurance"  # the Black Tide happened; seat 1 may insure
    assert of_type(events, "black_tide")[0]["colors"] == ["blue"]


# --- R-pay-5 Black Tide ---------------------------------------------------------------


def test_r_pay_5_ships_on_enshunada_sink_even_if_they_just_moved_there(pool):
    goods = [pool.take("red", 2), pool.take("blue", 2), pool.take("blue", 3),
             pool.take("yellow", 2)]
    hand = pool.take("green", 5, 2)
    s = build(market=goods, farm=pool.take("green", 3, 3),
              ships={"red": 4, "blue": 1, "yellow": 3, "green": 2},
              players=[{"hand": hand}, {}])
    _, events, js = act(s, 0, {"type": "buy", "payment": hand})
    # blue 1 → 3, yellow 3 → 4: both on Enshunada when red reaches Edo.
    assert of_type(events, "black_tide")[0]["colors"] == ["blue", "yellow"]
    assert js["ships"] == {"red": 0, "blue": 2, "yellow": 2, "green": 2}
    # Seat 0's new blue and yellow goods were uninsured and are lost (no icons in hand).
    assert goods_ids(js, 0) == []


def test_r_pay_5_no_payment_no_black_tide(pool):
    goods = [pool.take("blue", 2), pool.take("blue", 3)]
    hand = [pool.take("green", 5)]
    s = build(market=goods, farm=pool.take("green", 3, 3), ships={"blue": 1, "yellow": 4},
              players=[{"hand": hand}, {"goods": [pool.take("yellow", 2)]}])
    _, events, js = act(s, 0, {"type": "buy", "payment": hand})
    assert js["ships"]["blue"] == 3 and js["ships"]["yellow"] == 4
    assert not of_type(events, "black_tide")
    assert len(goods_ids(js, 1)) == 1


# --- R-pay-6 insurance ----------------------------------------------------------------


def _tide_3p(pool, *, active=1):
    """Seat ``active`` buys red to Edo; blue (4) and yellow (3) sink.

    seat 0: blue 5 good, blue 2 in hand          → asked
    seat 1: yellow 2 good, yellow 3 in hand      → asked
    seat 2: blue 3 good, yellow 2 in hand        → skipped (colours do not match)
    """
    g = {"b5": pool.take("blue", 5), "y2": pool.take("yellow", 2), "b3": pool.take("blue", 3)}
    h = {"b2": pool.take("blue", 2), "y3": pool.take("yellow", 3), "y2": pool.take("yellow", 2)}
    players = [{"goods": [g["b5"]], "hand": [h["b2"]]},
               {"goods": [g["y2"]], "hand": [h["y3"]]},
               {"goods": [g["b3"]], "hand": [h["y2"]]}]
    s, good, pay = _buy_to_edo(pool, "red", num_players=3, players=players, turn=active,
                               ships={"blue": 4, "yellow": 3})
    return s, pay, g, h


def test_r_pay_6_insurance_clockwise_from_the_active_player_with_skips(pool):
    s, pay, g, h = _tide_3p(pool, active=1)
    market_before = s.to_json()["market"]
    s, events, js = act(s, 1, {"type": "buy", "payment": pay})
    assert js["phase"] == "insurance" and js["sinking"] == ["blue", "yellow"]
    # R-buy-7: the refresh waits until the payment, insurance included, is over.
    assert not of_type(events, "refresh") and not of_type(events, "ship_returned")
    assert js["market"] == [] and len(market_before) == 1
    assert js["ships"]["red"] == 5 and js["ships"]["blue"] == 4
    assert js["insurance_queue"] == [1, 0] and s.to_act == 1 and js["turn"] == 1
    assert legal_actions(s, 0) == [] and legal_actions(s, 2) == []
    assert refused(s, 0, {"type": "insure", "discard": [], "goods": []}).code == \
        "not_your_turn"
    assert {"type": "insure", "discard": [], "goods": []} in actions_json(s, 1)
    assert {"type": "insure", "discard": [h["y3"]], "goods": [g["y2"]]} in actions_json(s, 1)
    s, events, js = act(s, 1, {"type": "insure", "discard": [h["y3"]], "goods": [g["y2"]]})
    assert js["phase"] == "insurance" and js["insurance_queue"] == [0] and s.to_act == 0
    assert h["y3"] in js["discard"]  # discards are public, face up
    ev = of_type(events, "insure")[0]
    assert (ev["seat"], ev["discard"], ev["goods"], ev["visible_to"]) == \
        (1, [h["y3"]], [g["y2"]], None)
    s, events, js = act(s, 0, {"type": "insure", "discard": [], "goods": []})
    # R-pay-8: uninsured goods of sinking colours are lost, for every player.
    assert goods_ids(js, 0) == [] and goods_ids(js, 2) == []
    assert js["players"][1]["goods"] == [{"card": g["y2"], "insured": True}]
    assert g["b5"] in js["discard"] and g["b3"] in js["discard"]
    sunk = {(e["seat"], e["color"]): e["cards"] for e in of_type(events, "sunk")}
    assert sunk == {(0, "blue"): [g["b5"]], (2, "blue"): [g["b3"]]}
    # R-pay-9 and the next turn.
    assert js["ships"] == {"red": 0, "blue": 2, "yellow": 2, "green": 0}
    assert js["phase"] == "turn" and js["turn"] == 2 and js["to_act"] == 2
    assert js["sinking"] == [] and js["insurance_queue"] == []
    assert of_type(events, "refresh")


def test_r_pay_6_queue_wraps_clockwise(pool):
    s, pay, g, h = _tide_3p(pool, active=2)
    s, _, js = act(s, 2, {"type": "buy", "payment": pay})
    assert js["insurance_queue"] == [0, 1]


@pytest.mark.parametrize("goods,hand,asked", [
    ([("blue", 2, False)], [("blue", 2)], True),
    ([("blue", 2, False)], [("blue", 3)], True),
    ([("blue", 2, False)], [("blue", 5)], False),           # no icon
    ([("blue", 2, True)], [("blue", 2)], False),            # already insured
    ([("blue", 2, False)], [("yellow", 2)], False),         # icon of another sinking colour
    ([], [("blue", 2)], False),                             # nothing to insure
    ([("green", 2, False)], [("green", 2)], False),         # green is not sinking
    ([("blue", 2, True), ("yellow", 3, False)], [("yellow", 2)], True),
])
def test_r_pay_6_only_players_who_could_insure_are_asked(pool, goods, hand, asked):
    mine = [(pool.take(c, v), ins) for c, v, ins in goods]
    cards = [pool.take(c, v) for c, v in hand]
    s, good, pay = _buy_to_edo(pool, "red", ships={"blue": 4, "yellow": 3},
                               players=[{}, {"goods": mine, "hand": cards}])
    s, events, js = act(s, 0, {"type": "buy", "payment": pay})
    if asked:
        assert js["phase"] == "insurance" and js["insurance_queue"] == [1]
        assert s.to_act == 1
    else:
        assert js["phase"] == "turn" and js["turn"] == 1 and js["insurance_queue"] == []
        assert not of_type(events, "insure")
        kept = [c for c, ins in mine if ins or c // 27 not in (1, 2)]
        assert sorted(goods_ids(js, 1)) == sorted(kept)


def _insure_position(pool, goods_spec, hand_spec, other_goods=()):
    """Seat 0 in the insurance phase, blue and yellow sinking."""
    goods = [pool.take(c, v) for c, v in goods_spec]
    hand = [pool.take(c, v) for c, v in hand_spec]
    s = build(phase="insurance", sinking=["blue", "yellow"], insurance_queue=[0],
              ships={"red": 5, "blue": 4, "yellow": 3}, farm=pool.take("red", 3, 3),
              players=[{"goods": goods, "hand": hand}, {"goods": list(other_goods)}])
    return s, goods, hand


def test_r_pay_6_player_chooses_which_goods_to_insure(pool):
    s, goods, hand = _insure_position(pool, [("blue", 5), ("blue", 2), ("blue", 2)],
                                      [("blue", 3)])
    _, _, js = act(s, 0, {"type": "insure", "discard": hand, "goods": [goods[0]]})
    assert js["players"][0]["goods"] == [{"card": goods[0], "insured": True}]
    assert set(goods[1:]) <= set(js["discard"])


def test_r_pay_6_icons_insure_goods_of_the_cards_own_colour_only(pool):
    s, goods, hand = _insure_position(pool, [("blue", 5), ("yellow", 5)], [("blue", 2)])
    refused(s, 0, {"type": "insure", "discard": hand, "goods": [goods[1]]})
    _, _, js = act(s, 0, {"type": "insure", "discard": hand, "goods": goods[:1]})
    assert js["players"][0]["goods"] == [{"card": goods[0], "insured": True}]


def test_r_pay_6_icons_are_counted_per_card(pool):
    s, goods, hand = _insure_position(
        pool, [("blue", 5), ("blue", 5), ("blue", 5)], [("blue", 2), ("blue", 3)])
    refused(s, 0, {"type": "insure", "discard": hand[:1], "goods": goods})
    refused(s, 0, {"type": "insure", "discard": hand[1:], "goods": goods[:2]})
    _, _, js = act(s, 0, {"type": "insure", "discard": hand, "goods": goods})
    assert all(g["insured"] for g in js["players"][0]["goods"])
    assert len(js["players"][0]["goods"]) == 3


def test_r_pay_6_unused_icons_are_lost(pool):
    s, goods, hand = _insure_position(pool, [("blue", 5)], [("blue", 2)])
    s2, _, js = act(s, 0, {"type": "insure", "discard": hand, "goods": goods})
    assert js["players"][0]["goods"] == [{"card": goods[0], "insured": True}]
    assert js["players"][0]["hand"] == [] and hand[0] in js["discard"]


def test_r_pay_6_only_own_uninsured_goods_of_sinking_colours(pool):
    theirs = pool.take("blue", 3)
    s, goods, hand = _insure_position(
        pool, [("blue", 5), ("green", 5)], [("blue", 2), ("green", 2)], other_goods=[theirs])
    refused(s, 0, {"type": "insure", "discard": hand[1:], "goods": goods[1:]})  # green
    refused(s, 0, {"type": "insure", "discard": hand[:1], "goods": [theirs]})
    refused(s, 0, {"type": "insure", "discard": [pool.take("blue", 2)], "goods": goods[:1]})
    refused(s, 0, {"type": "insure", "discard": hand[:1], "goods": [goods[0], goods[0]]})
    refused(s, 1, {"type": "insure", "discard": [], "goods": []})
    refused(s, 0, {"type": "take", "card": 0})
    refused(s, 0, {"type": "buy", "payment": hand[:1]})


def test_r_pay_6_insuring_nothing_is_always_allowed(pool):
    s, goods, hand = _insure_position(pool, [("blue", 5)], [("blue", 2)])
    _, _, js = act(s, 0, {"type": "insure", "discard": [], "goods": []})
    assert js["players"][0]["hand"] == hand
    assert goods[0] in js["discard"]


def test_r_pay_6_every_listed_insurance_choice_is_accepted(pool):
    s, goods, hand = _insure_position(
        pool, [("blue", 5), ("blue", 2), ("yellow", 3)],
        [("blue", 2), ("blue", 3), ("yellow", 3), ("yellow", 5)])
    listed = actions_json(s, 0)
    assert {"type": "insure", "discard": [], "goods": []} in listed
    assert all(a["type"] == "insure" for a in listed)
    for a in listed:
        js = act(s, 0, a)[2]
        insured = {g["card"] for g in js["players"][0]["goods"] if g["insured"]}
        assert insured == set(a["goods"])
    best = [a for a in listed if len(a["goods"]) == 3]
    assert best, listed


# --- R-pay-7/8/9 ----------------------------------------------------------------------


def test_r_pay_7_insured_goods_survive_later_sinkings(pool):
    kept = pool.take("blue", 5)
    lost = pool.take("blue", 3)
    s, good, pay = _buy_to_edo(pool, "red", ships={"blue": 3},
                               players=[{}, {"goods": [(kept, True), lost]}])
    _, events, js = act(s, 0, {"type": "buy", "payment": pay})
    assert js["players"][1]["goods"] == [{"card": kept, "insured": True}]
    assert lost in js["discard"]
    assert {(e["seat"], e["color"]): e["cards"] for e in of_type(events, "sunk")} == \
        {(1, "blue"): [lost]}


def test_r_pay_7_insured_goods_are_sold_at_edo(pool):
    kept = pool.take("red", 5)
    s, good, pay = _buy_to_edo(pool, "red", players=[{}, {"goods": [(kept, True)]}])
    _, _, js = act(s, 0, {"type": "buy", "payment": pay})
    assert goods_ids(js, 1) == [] and js["players"][1]["vp_cards"] == [kept]


def test_r_pay_8_uninsured_goods_of_sinking_colours_are_discarded_for_everyone(pool):
    b = [pool.take("blue", 2), pool.take("blue", 3)]
    y = pool.take("yellow", 5)
    gr = pool.take("green", 5)
    s, good, pay = _buy_to_edo(pool, "red", num_players=3, ships={"blue": 4, "yellow": 4},
                               players=[{"goods": [b[0]]}, {"goods": [b[1], gr]},
                                        {"goods": [y]}])
    _, _, js = act(s, 0, {"type": "buy", "payment": pay})
    assert goods_ids(js, 0) == [] and goods_ids(js, 1) == [gr] and goods_ids(js, 2) == []
    assert set(b + [y]) <= set(js["discard"])


def test_r_pay_9_edo_ships_to_osaka_sunk_ships_to_anori_others_stay(pool):
    s, good, pay = _buy_to_edo(pool, "green", ships={"red": 3, "blue": 2, "yellow": 1},
                               players=[{}, {}])
    _, events, js = act(s, 0, {"type": "buy", "payment": pay})
    assert js["ships"] == {"red": 2, "blue": 2, "yellow": 1, "green": 0}
    returned = {e["color"]: (e["from"], e["to"]) for e in of_type(events, "ship_returned")}
    assert returned == {"green": (5, 0), "red": (3, 2)}
