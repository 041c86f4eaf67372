"""R-refresh: the Farm moves to the Market, 2 + 3 cards drawn, reshuffles, empty piles."""

from collections import Counter

from osaka_builders import (
    ALL_CARDS, act, all_card_places, build, farm_ids, market_ids, of_type,
)


def test_r_refresh_1_farm_moves_with_its_pieces_behind_others_reserved_cards(pool):
    """After a buy, cards reserved by others stay; the Market may exceed five cards."""
    free = pool.take("red", 2)
    kept2, kept1 = pool.take("red", 3), pool.take("red", 5)
    farm = [pool.take("blue", 2), pool.take("blue", 3), pool.take("blue", 5)]
    deck = pool.take("green", 2, 5)
    hand = [pool.take("yellow", 2)]
    s = build(num_players=3, market=[(kept2, 2), free, (kept1, 1)],
              farm=[farm[0], (farm[1], 0), farm[2]], deck=deck,
              players=[{"hand": hand}, {}, {}])
    _, _, js = act(s, 0, {"type": "buy", "payment": hand})
    assert js["market"] == [
        {"card": kept2, "reserved_by": 2},
        {"card": kept1, "reserved_by": 1},
        {"card": farm[0], "reserved_by": None},
        {"card": farm[1], "reserved_by": 0},
        {"card": farm[2], "reserved_by": None},
        {"card": deck[0], "reserved_by": None},
        {"card": deck[1], "reserved_by": None},
    ]
    assert len(js["market"]) == 7
    assert farm_ids(js) == deck[2:5]
    assert all(slot["reserved_by"] is None for slot in js["farm"])


def test_r_refresh_2_two_cards_to_the_market_then_three_to_the_farm(pool):
    m = pool.take("red", 2)
    farm = pool.take("blue", 2, 3)
    deck = pool.take("green", 2, 6)
    s = build(market=[m], farm=farm, deck=deck)
    _, events, js = act(s, 0, {"type": "take", "card": m})
    assert market_ids(js) == farm + deck[:2]
    assert farm_ids(js) == deck[2:5]
    assert js["deck"][0] == deck[5]
    assert len(js["deck"]) == 108 - 1 - 3 - 5


def test_r_refresh_3_empty_draw_pile_reshuffles_the_discard(pool):
    m = pool.take("red", 2)
    farm = pool.take("blue", 2, 3)
    s = build(market=[m], farm=farm, deck=[], rest="discard", shuffles=1)
    old_discard = s.to_json()["discard"]
    s1, events, js = act(s, 0, {"type": "take", "card": m})
    assert js["shuffles"] == 2
    [resh] = of_type(events, "reshuffle")
    assert resh["size"] == len(old_discard)
    assert js["discard"] == []
    drawn = market_ids(js)[3:] + farm_ids(js)
    assert len(drawn) == 5 and set(drawn) <= set(old_discard)
    assert sorted(drawn + js["deck"]) == sorted(old_discard)
    assert all_card_places(js) == Counter(ALL_CARDS)
    # The new order is a shuffle, not the discard order, and depends only on the state.
    assert drawn + js["deck"] != old_discard
    assert act(s, 0, {"type": "take", "card": m})[2] == js
    other_seed = build(market=[m], farm=farm, deck=[], rest="discard", seed=8)
    assert act(other_seed, 0, {"type": "take", "card": m})[2]["deck"] != js["deck"]


def test_r_refresh_3_draw_pile_runs_out_in_the_middle_of_a_refresh(pool):
    m = pool.take("red", 2)
    farm = pool.take("blue", 2, 3)
    top = pool.take("green", 5)
    s = build(market=[m], farm=farm, deck=[top], rest="discard")
    old_discard = s.to_json()["discard"]
    _, events, js = act(s, 0, {"type": "take", "card": m})
    assert market_ids(js)[:4] == farm + [top]
    assert len(market_ids(js)) == 5 and len(farm_ids(js)) == 3
    assert set(market_ids(js)[4:] + farm_ids(js)) <= set(old_discard)
    assert len(of_type(events, "reshuffle")) == 1 and js["shuffles"] == 2


def test_r_refresh_3_both_piles_empty_draws_what_there_is(pool):
    m = pool.take("red", 2)
    farm = pool.take("blue", 2, 3)
    deck = pool.take("green", 2, 3)
    s = build(market=[m], farm=farm, deck=deck, discard=[], rest=("vp", 1))
    _, events, js = act(s, 0, {"type": "take", "card": m})
    assert market_ids(js) == farm + deck[:2]
    assert farm_ids(js) == deck[2:]
    assert js["deck"] == [] and js["discard"] == []
    assert js["phase"] == "turn" and js["turn"] == 1
    assert js["shuffles"] == 1  # nothing to shuffle
    [refresh] = of_type(events, "refresh")
    assert refresh["market"] == deck[:2] and refresh["farm"] == deck[2:]


def test_r_refresh_3_nothing_left_at_all_gives_an_empty_farm(pool):
    m = pool.take("red", 2)
    farm = pool.take("blue", 2, 3)
    s = build(market=[m], farm=farm, deck=[], discard=[], rest=("vp", 1))
    _, _, js = act(s, 0, {"type": "take", "card": m})
    assert market_ids(js) == farm and farm_ids(js) == []
