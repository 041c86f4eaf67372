"""Random-playout conformance: from random seeds and random legal play, for 2, 3 and 4
players, the invariants of the contract and of the rules hold at every step.

A playout picks uniformly among ``legal_actions`` under one of three policies: "uniform",
"hoard" (mostly take coins, so the piles run dry and the game can end by passes,
R-turn-3) and "reserve" (mostly reserve, exercising R-reserve-3 and R-refresh-1).
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    GameState, IllegalAction, action_from_json, apply_action, legal_actions, new_game,
    play, player_view,
)
from osaka_builders import ALL_CARDS, COLORS, all_card_places, value_of

MAX_STEPS = 3000
FORBIDDEN = {"deck", "seed", "vp_cards", "vp_substitutes"}
PROPS = settings(max_examples=40, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow])

seeds = st.integers(min_value=0, max_value=2**32 - 1)
players = st.sampled_from([2, 3, 4])
policies = st.sampled_from(["uniform", "hoard", "reserve"])


def _choose(rng: random.Random, acts: list, policy: str):
    if policy != "uniform":
        want = "take" if policy == "hoard" else "reserve"
        pick = [a for a in acts if a.to_json()["type"] == want]
        if pick and rng.random() < 0.85:
            return rng.choice(pick)
    return rng.choice(acts)


def playout(n: int, seed: int, policy: str, on_step=None):
    """Play a game to its end with seeded random legal actions.

    ``on_step(before, seat, action, after, events)`` is called after every action.
    Returns (final state, list of action JSON, list of state JSON after each step).
    """
    rng = random.Random(seed ^ 0x5EED)
    s = new_game(n, seed)
    actions, states = [], [s.to_json()]
    for _ in range(MAX_STEPS):
        if s.phase == "over":
            return s, actions, states
        seat = s.to_act
        acts = legal_actions(s, seat)
        assert acts, f"no legal action for seat {seat} in phase {s.phase}"
        a = _choose(rng, acts, policy)
        after, events = play(s, seat, a)
        if on_step:
            on_step(s, seat, a, after, events)
        actions.append(a.to_json())
        states.append(after.to_json())
        s = after
    raise AssertionError(f"game did not end within {MAX_STEPS} actions")


def _keys(obj):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield k
            yield from _keys(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _keys(v)


def _vp(p: dict) -> int:
    return len(p["vp_cards"]) + p["vp_substitutes"]


def _winners(js: dict) -> list[int]:
    """R-end-2: most VPs, then most tokens, then all tied."""
    key = [(_vp(p), sum(p["tokens"].values())) for p in js["players"]]
    best = max(key)
    return [i for i, k in enumerate(key) if k == best]


# --- state invariants -------------------------------------------------------------------


def check_state(s: GameState) -> dict:
    js = s.to_json()
    n = js["num_players"]
    # R-comp-1: every card in exactly one place.
    assert all_card_places(js) == Counter(ALL_CARDS)
    # Round trip, also through a JSON string (persistence).
    assert GameState.from_json(js) == s
    assert GameState.from_json(js).to_json() == js
    assert GameState.from_json(json.loads(json.dumps(js))) == s
    assert s.phase == js["phase"] and s.to_act == js["to_act"]
    assert all(0 <= js["ships"][c] <= 5 for c in COLORS)
    # One Reservation piece per player (R-comp-5).
    pieces = [x["reserved_by"] for x in js["market"] + js["farm"] if x["reserved_by"] is not None]
    assert len(pieces) == len(set(pieces)) and all(0 <= p < n for p in pieces)
    assert len(js["farm"]) <= 3
    # legal_actions: non-empty for to_act until the end, [] for everyone else.
    for seat in range(n):
        acts = legal_actions(s, seat)
        if js["phase"] != "over" and seat == js["to_act"]:
            assert acts
            kinds = {a.to_json()["type"] for a in acts}
            if "pass" in kinds:
                assert kinds == {"pass"} and len(acts) == 1  # R-turn-3
            allowed = {"token_draft": {"choose_token"}, "turn": {"buy", "take", "reserve", "pass"},
                       "insurance": {"insure"}}[js["phase"]]
            assert kinds <= allowed
        else:
            assert acts == []
    if js["phase"] != "over":
        # R-pay-4: 8 or more tokens end the game at once.
        assert all(sum(p["tokens"].values()) < 8 for p in js["players"])
    if js["phase"] == "turn":
        # R-turn-1: the active player starts with a card to take unless nothing is left.
        takeable = [x for x in js["market"] if x["reserved_by"] in (None, js["turn"])]
        assert takeable or (not js["deck"] and not js["discard"])
        # R-turn-3: passing is possible only once both piles are exhausted.
        if {"type": "pass"} in [a.to_json() for a in legal_actions(s, js["to_act"])]:
            assert not js["deck"] and not js["discard"]
    if js["phase"] == "insurance":
        assert js["sinking"] and js["insurance_queue"][0] == js["to_act"]
    if js["phase"] == "over":
        assert js["to_act"] is None and js["winners"] == _winners(js)
    else:
        assert js["winners"] is None and js["to_act"] is not None
    return js


def check_views(s: GameState, js: dict) -> None:
    """R-info: no leaks; public facts match the state."""
    n = js["num_players"]
    over = js["phase"] == "over"
    for seat in [None] + list(range(n)):
        v = player_view(s, seat)
        assert json.loads(json.dumps(v)) == v
        assert not set(_keys(v)) & FORBIDDEN
        assert v["deck_size"] == len(js["deck"]) and v["discard"] == js["discard"]
        assert v["market"] == js["market"] and v["farm"] == js["farm"]
        assert v["ships"] == js["ships"] and v["to_act"] == js["to_act"]
        for i, p in enumerate(v["players"]):
            full = js["players"][i]
            assert p["hand_size"] == len(full["hand"])
            assert p["goods"] == full["goods"] and p["tokens"] == full["tokens"]
            reserved = any(x["reserved_by"] == i for x in js["market"] + js["farm"])
            assert p["reservation_free"] is (not reserved)
            if i == seat:
                assert p["hand"] == full["hand"] and p["vp"] == _vp(full)
            else:
                assert "hand" not in p
                assert ("vp" in p) is over
                if over:
                    assert p["vp"] == _vp(full)


def check_events(before: dict, after: dict, events: list[dict]) -> None:
    n = before["num_players"]
    assert events, "every action produces at least one event"
    hidden_vp_draws = set()
    for p0, p1 in zip(before["players"], after["players"]):
        hidden_vp_draws |= set(p1["vp_cards"]) - set(p0["vp_cards"])
    for e in events:
        if e["type"] == "sale":
            hidden_vp_draws -= set(e["cards"])
    for e in events:
        assert isinstance(e.get("type"), str) and "visible_to" in e
        assert e["visible_to"] is None or e["visible_to"] in range(n)
        assert json.loads(json.dumps(e)) == e
        assert not set(_keys(e)) & FORBIDDEN
        if e["type"] == "vp_total":
            assert e["visible_to"] == e["seat"]
        if e["type"] == "sale":
            tokens = before["players"][e["seat"]]["tokens"][e["color"]]
            assert e["price"] == max(value_of(c) for c in e["cards"]) + tokens
            assert e["value"] == 5 * math.ceil(e["price"] * len(e["cards"]) / 5)
            assert e["vp"] == e["value"] // 5
            assert all(c // 27 == COLORS.index(e["color"]) for c in e["cards"])
        if e["type"] == "ship_moved":
            assert 0 <= e["from"] < e["to"] <= 5 and e["to"] - e["from"] in (1, 2)
        if e["type"] == "buy":
            assert e["cost"] == sum(value_of(c) for c in e["goods"])
    # Cards drawn from the draw pile onto a VP pile are never named by any event that
    # follows the sales (a card paid or discarded earlier in the same action may be
    # reshuffled and drawn, so earlier events may name it before it was hidden).
    after_sales = {"token_gained", "black_tide", "insure", "sunk", "ship_returned",
                   "refresh", "vp_total", "game_over", "turn_started"}
    for e in events:
        if e["type"] == "sale":
            assert set(e["discarded"]) <= set(e["cards"])
        if e["type"] not in after_sales:
            continue
        for k in ("card", "cards", "goods", "payment", "discarded", "discard", "moved",
                  "market", "farm"):
            v = e.get(k)
            ids = v if isinstance(v, list) else [v]
            assert not hidden_vp_draws & {x for x in ids if isinstance(x, int)}, e
    if after["phase"] == "over" and before["phase"] != "over":
        [over] = [e for e in events if e["type"] == "game_over"]
        assert over["winners"] == after["winners"] and over["visible_to"] is None
        assert over["vp"] == [_vp(p) for p in after["players"]]


def check_monotone(before: dict, after: dict, events: list[dict]) -> None:
    """Tokens and VPs never decrease; the shuffle count never goes back; R-pay-7: an
    insured good stays insured until it is sold, so it leaves only through a sale."""
    assert after["shuffles"] >= before["shuffles"]
    sold = {(e["seat"], c) for e in events if e["type"] == "sale" for c in e["cards"]}
    for i, (p0, p1) in enumerate(zip(before["players"], after["players"])):
        assert all(p1["tokens"][c] >= p0["tokens"][c] for c in COLORS)
        assert set(p0["vp_cards"]) <= set(p1["vp_cards"])
        assert p1["vp_substitutes"] >= p0["vp_substitutes"]
        for g in p0["goods"]:
            if g["insured"]:
                assert g in p1["goods"] or (i, g["card"]) in sold, (i, g)


# --- properties -------------------------------------------------------------------------


@PROPS
@given(n=players, seed=seeds, policy=policies)
def test_property_every_game_ends_and_invariants_hold_at_every_step(n, seed, policy):
    """Cards conserved, round trips, legal actions, views and events at every step."""
    check_state(new_game(n, seed))

    def step(before, seat, action, after, events):
        bjs = before.to_json()
        js = check_state(after)
        check_views(after, js)
        check_events(bjs, js, events)
        check_monotone(bjs, js, events)
        assert before.to_json() == bjs  # play left its input alone

    s, actions, _ = playout(n, seed, policy, step)
    assert s.phase == "over" and s.to_json()["winners"]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=players, seed=seeds, policy=policies)
def test_property_every_listed_action_is_accepted(n, seed, policy):
    rng = random.Random(seed)

    def step(before, seat, action, after, events):
        acts = legal_actions(before, seat)
        for a in rng.sample(acts, min(len(acts), 6)):
            new = apply_action(before, seat, a)
            assert isinstance(new, GameState)
            assert action_from_json(a.to_json()).to_json() == a.to_json()
            # apply_action and play agree.
            assert play(before, seat, a)[0] == new

    playout(n, seed, policy, step)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=players, seed=seeds, policy=policies)
def test_property_determinism_same_seed_same_actions_same_states(n, seed, policy):
    _, actions, states = playout(n, seed, policy)
    s = new_game(n, seed)
    assert s.to_json() == states[0]
    for a, expected in zip(actions, states[1:]):
        s = apply_action(s, s.to_act, a)
        assert s.to_json() == expected
    # Two engines fed the same mid-game state and action agree (state fully determines).
    mid = len(actions) // 2
    x = GameState.from_json(states[mid])
    y = GameState.from_json(json.loads(json.dumps(states[mid])))
    assert apply_action(x, x.to_act, actions[mid]) == apply_action(y, y.to_act, actions[mid])


json_leaf = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True), st.text(max_size=8),
    st.sampled_from(["red", "blue", "yellow", "green", "take", "buy", "reserve", "insure",
                     "pass", "choose_token"]),
)
json_junk = st.recursive(
    json_leaf, lambda kids: st.lists(kids, max_size=4) | st.dictionaries(
        st.sampled_from(["type", "card", "payment", "discard", "goods", "color", "x"]),
        kids, max_size=4),
    max_leaves=12)
near_actions = st.fixed_dictionaries(
    {"type": st.sampled_from(["take", "buy", "reserve", "insure", "pass", "choose_token"])},
    optional={"card": json_junk | st.integers(-3, 110),
              "payment": st.lists(st.integers(-3, 110) | json_junk, max_size=5) | json_junk,
              "discard": st.lists(st.integers(-3, 110), max_size=3) | json_junk,
              "goods": st.lists(st.integers(-3, 110), max_size=3) | json_junk,
              "color": json_junk})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=players, seed=seeds, cut=st.integers(0, 400), junk=json_junk | near_actions,
       seat=st.integers(-2, 5))
def test_property_random_junk_is_refused_or_legal_and_never_mutates(n, seed, cut, junk, seat):
    """Any input whatsoever: IllegalAction (nothing changed) or a well-formed new state."""
    _, actions, states = playout(n, seed, "uniform")
    s = GameState.from_json(states[min(cut, len(states) - 1)])
    before = s.to_json()
    try:
        new = apply_action(s, seat, junk)
    except IllegalAction as exc:
        assert isinstance(exc.code, str) and exc.code
    else:
        # Accepted by chance: it was a legal move of the seat to act.
        assert seat == s.to_act
        check_state(new)
    assert s.to_json() == before
