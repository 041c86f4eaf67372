"""The engine contract (docs/engine.md): immutability, error codes, JSON forms, from_json."""

import copy
import json

import pytest

from engine import (
    Action, GameState, IllegalAction, action_from_json, apply_action, legal_actions,
    new_game, play,
)
from osaka_builders import build, refused, state_dict

JUNK = [
    None, 0, 1, -1, 2**70, True, False, 1.5, float("nan"), "", "take", [], [1, 2], {},
    {"type": None}, {"type": 3}, {"type": "fly"}, {"type": "TAKE", "card": 1},
    {"type": "take"}, {"type": "take", "card": None}, {"type": "take", "card": "3"},
    {"type": "take", "card": 3.0}, {"type": "take", "card": True}, {"type": "take", "card": -1},
    {"type": "take", "card": 108}, {"type": "take", "card": 2**64}, {"type": "take", "card": [3]},
    {"type": "reserve"}, {"type": "reserve", "card": {"id": 3}}, {"type": "reserve", "card": -5},
    {"type": "buy"}, {"type": "buy", "payment": None}, {"type": "buy", "payment": 3},
    {"type": "buy", "payment": "3,4"}, {"type": "buy", "payment": [None]},
    {"type": "buy", "payment": [True]}, {"type": "buy", "payment": [-1]},
    {"type": "buy", "payment": [10**30]}, {"type": "buy", "payment": {"a": 1}},
    {"type": "insure"}, {"type": "insure", "discard": [], "goods": None},
    {"type": "insure", "discard": 1, "goods": []}, {"type": "insure", "discard": [[1]], "goods": []},
    {"type": "choose_token"}, {"type": "choose_token", "color": 0},
    {"type": "choose_token", "color": "Red"}, {"type": "choose_token", "color": ["red"]},
    {"type": "pass", "card": 3}, ("take", 3), {"card": 3}, b"take",
]


def _position(pool):
    """Seat 0 to act with a Market, a Farm and a hand; seat 1 has a hand too."""
    return build(market=[pool.take("red", 2), pool.take("red", 3)],
                 farm=pool.take("blue", 2, 3),
                 players=[{"hand": pool.take("yellow", 5, 2)},
                          {"hand": pool.take("green", 2, 2)}])


@pytest.mark.parametrize("junk", JUNK, ids=[repr(j)[:40] for j in JUNK])
def test_junk_actions_raise_illegal_action_and_change_nothing(pool, junk):
    s = _position(pool)
    exc = refused(s, 0, junk)
    assert exc.code and exc.code == exc.code.strip().lower() and " " not in exc.code
    with pytest.raises(IllegalAction):
        play(s, 0, junk)


@pytest.mark.parametrize("junk", JUNK, ids=[repr(j)[:40] for j in JUNK])
def test_action_from_json_refuses_junk_as_malformed(junk):
    with pytest.raises(IllegalAction) as info:
        action = action_from_json(junk)
        # A few items are well-formed JSON actions (e.g. pass with an extra key may be
        # tolerated): those must at least round-trip.
        assert action_from_json(action.to_json()).to_json() == action.to_json()
        raise IllegalAction("malformed", "tolerated")
    assert info.value.code == "malformed"


def test_bool_is_not_a_card_id(pool):
    """JSON ``true`` must not be read as card 1 (a bool is not an id)."""
    one = 1  # red 2 number 1
    s = build(market=[one], farm=pool.take("blue", 2, 3))
    refused(s, 0, {"type": "take", "card": True})
    with pytest.raises(IllegalAction) as info:
        action_from_json({"type": "take", "card": True})
    assert info.value.code == "malformed"


def test_other_players_hand_cards_are_not_a_payment(pool):
    s = _position(pool)
    theirs = s.to_json()["players"][1]["hand"]
    refused(s, 0, {"type": "buy", "payment": theirs})
    refused(s, 0, {"type": "take", "card": theirs[0]})


def test_stable_codes_for_common_refusals(pool):
    s = _position(pool)
    js = s.to_json()
    m = js["market"][0]["card"]
    assert refused(s, 1, {"type": "take", "card": m}).code == "not_your_turn"
    assert refused(s, 0, {"type": "take", "card": js["farm"][0]["card"]}).code == \
        "card_not_in_market"
    assert refused(s, 0, {"type": "take", "card": "x"}).code == "malformed"
    assert refused(s, 0, {"type": "buy", "payment": js["players"][0]["hand"]}).code == \
        "payment_not_minimal"


def test_seats_outside_the_table_are_refused(pool):
    s = _position(pool)
    m = s.to_json()["market"][0]["card"]
    for seat in (2, 3, -1, 99):
        refused(s, seat, {"type": "take", "card": m})
        assert legal_actions(s, seat) == []


def test_apply_action_accepts_action_objects_and_json(pool):
    s = _position(pool)
    a = legal_actions(s, 0)[0]
    assert isinstance(a, Action)
    assert apply_action(s, 0, a) == apply_action(s, 0, a.to_json())
    assert action_from_json(a.to_json()).to_json() == a.to_json()


def test_apply_action_never_mutates_its_input(pool):
    s = _position(pool)
    before = s.to_json()
    snapshot = copy.deepcopy(before)
    for a in legal_actions(s, 0):
        apply_action(s, 0, a)
        assert s.to_json() == snapshot
    assert before == snapshot  # to_json hands out data the engine does not share


def test_to_json_result_is_not_shared_with_the_state(pool):
    s = _position(pool)
    js = s.to_json()
    js["market"].clear()
    js["players"][0]["hand"].append(99)
    assert s.to_json()["market"] and 99 not in s.to_json()["players"][0]["hand"]


def test_from_json_accepts_only_contract_keys_and_round_trips(pool):
    d = state_dict(market=[pool.take("red", 2)], farm=pool.take("blue", 2, 3))
    s = GameState.from_json(d)
    assert GameState.from_json(s.to_json()) == s
    assert GameState.from_json(json.loads(json.dumps(s.to_json()))) == s
    for key in d:
        assert s.to_json()[key] == d[key], key


def test_from_json_does_not_keep_a_reference_to_its_argument(pool):
    d = state_dict(market=[pool.take("red", 2)], farm=pool.take("blue", 2, 3))
    s = GameState.from_json(d)
    before = s.to_json()
    d["market"].clear()
    d["players"][0]["hand"].append(5)
    assert s.to_json() == before


def _broken(mutate):
    d = state_dict(market=[0], farm=[1, 2, 3])
    mutate(d)
    return d


@pytest.mark.parametrize("mutate", [
    lambda d: d["deck"].pop(),                               # a card missing
    lambda d: d["deck"].append(0),                           # a card twice
    lambda d: d.__setitem__("phase", "lunch"),               # unknown phase
    lambda d: d["ships"].__setitem__("red", 6),              # off the route
    lambda d: d["ships"].__setitem__("red", -1),
    lambda d: d["deck"].append(108),                         # no such card
    lambda d: d.__setitem__("num_players", 5),
    lambda d: d.__setitem__("players", d["players"][:1]),
    lambda d: d["market"].append({"card": d["deck"].pop(), "reserved_by": 7}),
    lambda d: d.__setitem__("deck", None),
    lambda d: d.pop("players"),
])
def test_from_json_refuses_states_that_are_not_well_formed(mutate):
    with pytest.raises(ValueError):
        GameState.from_json(_broken(mutate))


def test_new_game_state_is_json_ready_and_round_trips():
    for n in (2, 3, 4):
        s = new_game(n, 77)
        js = s.to_json()
        assert json.loads(json.dumps(js)) == js
        assert GameState.from_json(js) == s
        assert s.phase == js["phase"] and s.to_act == js["to_act"]


def test_an_internal_error_is_not_turned_into_a_refusal(pool):
    """Only bad input shapes are ``malformed`` (issue 10): a state the engine itself got wrong
    (here a hand that is not a tuple of ids) surfaces as the bug it is, not as IllegalAction."""
    s = _position(pool)
    broken = s.copy()
    broken.hands = (None, broken.hands[1])
    m = s.to_json()["market"][0]["card"]
    with pytest.raises(Exception) as info:
        apply_action(broken, 0, {"type": "buy", "payment": [1]})
    assert not isinstance(info.value, IllegalAction)
    # The same input shapes on a sound state are refused or applied as usual.
    assert refused(s, 0, {"type": "buy", "payment": [m]}).code == "card_not_in_hand"


def test_action_objects_are_immutable_and_valid_by_construction(pool):
    """An Action object cannot be changed, and cannot be built with fields its JSON form
    could not hold (``malformed``), so apply_action can trust it."""
    s = _position(pool)
    take = next(a for a in legal_actions(s, 0) if a.type == "take")
    buy = next(a for a in legal_actions(s, 0) if a.type == "buy")
    with pytest.raises(AttributeError):
        take.card = 5
    with pytest.raises(AttributeError):
        buy.payment = ()
    for bad in ("3", 108, True, None, -1):
        with pytest.raises(IllegalAction) as info:
            type(take)(bad)
        assert info.value.code == "malformed"
    with pytest.raises(IllegalAction) as info:
        type(buy)([buy.payment[0], None])
    assert info.value.code == "malformed"
    assert type(take)(take.card) == take and type(buy)(list(buy.payment)) == buy
