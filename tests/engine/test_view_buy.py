"""The purchase in the player view (engine/views.py ``buy_options``): the seat to act in a
turn sees its goods, their cost, every legal payment's shape and a suggested payment, all as
the engine's own legality decides them (R-buy-1..3), so a client only chooses among them; no
other seat and no spectator sees them (R-info-2: they follow from that seat's hand)."""
from __future__ import annotations

import json
import random

import pytest

from engine import CARD_VALUES, apply_action, is_over, legal_actions, new_game, play, player_view


def _shape(cards) -> list[int]:
    return [sum(1 for c in cards if CARD_VALUES[c] == v) for v in (2, 3, 5)]


def _turns(players: int, seed: int):
    """Every state of one random game with the seat to act and its legal actions."""
    rng = random.Random(seed)
    s = new_game(players, seed)
    while not is_over(s):
        seat = s.to_act
        acts = legal_actions(s, seat)
        yield s, seat, acts
        s = apply_action(s, seat, rng.choice(acts))


@pytest.mark.parametrize("players,seed", [(2, 4), (3, 11), (4, 23)])
def test_r_buy_1_3_the_view_lists_exactly_the_legal_payments(players, seed):
    bought = 0
    for s, seat, acts in _turns(players, seed):
        view = player_view(s, seat)
        if s.phase != "turn":
            assert "buy" not in view
            continue
        buy = view["buy"]
        buys = [a for a in acts if a.type == "buy"]
        # Every listed shape is the shape of a legal buy and back (R-buy-3).
        assert sorted(map(tuple, buy["payments"])) == sorted({tuple(_shape(a.payment)) for a in buys})
        assert buy["cost"] == sum(CARD_VALUES[c] for c in buy["goods"])
        takes = sorted(a.card for a in acts if a.type == "take")
        assert sorted(buy["goods"]) == takes             # R-buy-1 = R-take-1: the same cards
        if buys:
            assert buy["suggested"] is not None and _shape(buy["suggested"]) in buy["payments"]
            _, events = play(s, seat, {"type": "buy", "payment": buy["suggested"]})
            ev = next(e for e in events if e["type"] == "buy")
            assert ev["goods"] == buy["goods"] and ev["cost"] == buy["cost"]
            bought += 1
        else:
            assert buy["payments"] == [] and buy["suggested"] is None
    assert bought > 5


@pytest.mark.parametrize("players,seed", [(2, 5), (4, 9)])
def test_r_info_2_only_the_seat_to_act_sees_its_purchase(players, seed):
    seen = 0
    for s, seat, _ in _turns(players, seed):
        assert "buy" not in player_view(s, None)
        for other in range(players):
            if other != seat:
                assert "buy" not in player_view(s, other)
        seen += "buy" in player_view(s, seat)
    assert seen > 10


def test_the_purchase_adds_little_to_the_acting_seats_view():
    """A state frame is sent on every action; the purchase keeps it small (a few shapes and
    card ids), however large the hand."""
    worst = 0
    for s, seat, _ in _turns(4, 31):
        if s.phase == "turn":
            buy = json.dumps(player_view(s, seat)["buy"], separators=(",", ":"))
            worst = max(worst, len(buy))
    assert 0 < worst <= 400


def test_r_buy_suggested_keeps_the_icons_of_the_colours_of_own_goods():
    """Of equal values, the suggestion spends a card of a colour the player holds no goods of
    (its icons would insure nothing, R-pay-6)."""
    from engine.coins import suggested_payment
    from engine.cards import COLOR, VALUE
    twos = [c for c in range(len(VALUE)) if VALUE[c] == 2]
    a = next(c for c in twos if COLOR[c] == 0)
    b = next(c for c in twos if COLOR[c] == 1)
    good = next(c for c in range(len(VALUE)) if COLOR[c] == 0 and c not in (a, b))
    assert suggested_payment([a, b], [(good, False)], 2) == [b]
    assert suggested_payment([a, b], [], 2) == [min(a, b)]
    assert suggested_payment([a, b], [], 5) is None
