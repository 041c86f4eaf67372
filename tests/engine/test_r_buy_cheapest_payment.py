"""``engine.cheapest_payment`` (R-buy-2, R-buy-3): the one payment helper the tests, the bots
and the app's test clients share. It must always give a payment the engine accepts, with the
least overpayment, then the fewest insurance icons spent (R-comp-2)."""
from __future__ import annotations

import random

import pytest

from engine import apply_action, cheapest_payment, legal_actions
from osaka_builders import build, icons_of, value_of


def test_r_buy_3_cheapest_payment_doc_example():
    assert cheapest_payment([20, 11, 12], 6) == [11, 12]  # red 5, 3, 3: 3 + 3, not 5 + 3


def test_r_buy_2_cheapest_payment_none_when_the_hand_cannot_cover():
    assert cheapest_payment([0, 1], 5) is None
    assert cheapest_payment([], 2) is None


@pytest.mark.parametrize("seed", range(60))
def test_r_buy_3_cheapest_payment_is_listed_accepted_and_least(pool, seed):
    rng = random.Random(seed)
    colours = ["red", "blue", "yellow", "green"]
    hand = [pool.take(rng.choice(colours), rng.choice([2, 2, 3, 3, 5]))
            for _ in range(rng.randint(1, 9))]
    goods = [pool.take(rng.choice(colours), rng.choice([2, 3, 5]))
             for _ in range(rng.randint(1, 4))]
    cost = sum(map(value_of, goods))
    s = build(market=goods, farm=[], players=[{"hand": hand}])
    pay = cheapest_payment(hand, cost)
    listed = [a.payment for a in legal_actions(s, 0) if a.type == "buy"]
    if sum(map(value_of, hand)) < cost:
        assert pay is None and listed == []
        return
    assert pay is not None and len(set(pay)) == len(pay) and set(pay) <= set(hand)
    apply_action(s, 0, {"type": "buy", "payment": pay})  # accepted: minimal (R-buy-3)
    best = min((sum(map(value_of, p)), sum(map(icons_of, p))) for p in listed)
    assert (sum(map(value_of, pay)), sum(map(icons_of, pay))) == best
