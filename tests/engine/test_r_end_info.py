"""R-end (end and victory) and R-info (what each seat may see)."""

import pytest

from engine import legal_actions, new_game, play, player_view
from osaka_builders import ALL_CARDS, act, build, of_type, refused


def _pass_out(state, n):
    """Everyone passes once, in turn order; returns the final state and all events."""
    events = []
    for _ in range(n):
        state, evs, _ = act(state, state.to_act, {"type": "pass"})
        events += evs
    return state, events


def _exhausted_with_vps(vps: list[int], tokens: list[dict] | None = None,
                        substitutes: list[int] | None = None):
    """Both piles, Market and Farm empty; seat i holds ``vps[i]`` VP cards, the rest of
    the 108 cards sit in the last seat's hand (worth nothing, R-end-2)."""
    assert sum(vps) <= 108
    cards = list(ALL_CARDS)
    players = []
    for i, k in enumerate(vps):
        players.append({"vp_cards": cards[:k], "tokens": (tokens or [{}] * len(vps))[i],
                        "vp_substitutes": (substitutes or [0] * len(vps))[i]})
        cards = cards[k:]
    players[-1]["hand"] = cards
    return build(num_players=len(vps), deck=[], discard=[], players=players)


def test_r_end_1_game_ends_on_tokens_or_passes_only(pool):
    s = _exhausted_with_vps([50, 40])
    s, _ = _pass_out(s, 1)
    assert s.phase == "turn"
    s, events = _pass_out(s, 1)
    assert s.phase == "over" and of_type(events, "game_over")[0]["reason"] == "passes"


def test_r_end_2_most_vps_wins_even_if_another_player_ended_it(pool):
    red = pool.take("red", 2)
    pay = pool.take("green", 2)
    s = build(market=[red], farm=pool.take("blue", 3, 3), ships={"red": 4},
              players=[{"hand": [pay], "tokens": {"blue": 7}},
                       {"vp_cards": pool.take("yellow", 2, 3)}])
    _, events, js = act(s, 0, {"type": "buy", "payment": [pay]})
    assert js["phase"] == "over"
    over = of_type(events, "game_over")[0]
    assert js["winners"] == [1] == over["winners"]
    assert over["vp"] == [1, 3] and over["tokens"] == [8, 0]


def test_r_end_2_tie_on_vps_broken_by_most_tokens():
    s = _exhausted_with_vps([30, 30, 10], tokens=[{"red": 1}, {"red": 2, "blue": 1}, {}])
    s, events = _pass_out(s, 3)
    assert s.to_json()["winners"] == [1]


def test_r_end_2_still_tied_all_tied_players_win():
    s = _exhausted_with_vps([30, 10, 30], tokens=[{"red": 2}, {"red": 5}, {"green": 2}])
    s, events = _pass_out(s, 3)
    assert s.to_json()["winners"] == [0, 2]
    over = of_type(events, "game_over")[0]
    assert over["winners"] == [0, 2] and over["vp"] == [30, 10, 30]
    assert over["tokens"] == [2, 5, 2]


def test_r_end_2_substitute_vps_count_and_leftover_cards_do_not():
    """Seat 1: 29 VP cards + 1 substitute = 30 = seat 0; seat 1's big hand is worth
    nothing; equal tokens → both win."""
    s = _exhausted_with_vps([30, 29], substitutes=[0, 1])
    assert len(s.to_json()["players"][1]["hand"]) == 108 - 59
    s, events = _pass_out(s, 2)
    assert s.to_json()["winners"] == [0, 1]
    assert of_type(events, "game_over")[0]["vp"] == [30, 30]


def test_r_end_3_after_passes_victory_decided_the_same_way():
    s = _exhausted_with_vps([10, 60], tokens=[{"red": 7}, {}])
    s, events = _pass_out(s, 2)
    js = s.to_json()
    assert js["phase"] == "over" and js["winners"] == [1] and js["to_act"] is None
    assert js.get("end_reason", "passes") == "passes"
    assert refused(s, 0, {"type": "pass"}).code in {"game_over", "not_your_turn",
                                                     "wrong_phase"}
    assert all(legal_actions(s, i) == [] for i in range(2))


# --- R-info ---------------------------------------------------------------------------


def _walk_keys(obj, path=()):
    """Yield (path, key) for every dict key anywhere in a JSON value."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield path, k
            yield from _walk_keys(v, path + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _walk_keys(v, path + (i,))


FORBIDDEN = {"deck", "seed", "vp_cards", "vp_substitutes"}


def _mid_game_state(pool):
    red_good = (pool.take("red", 5), True)
    return build(num_players=3, market=[pool.take("red", 2), (pool.take("red", 3), 2)],
                 farm=[pool.take("blue", 2), (pool.take("blue", 3), 1), pool.take("blue", 5)],
                 ships={"red": 3, "green": 1},
                 players=[{"hand": pool.take("yellow", 2, 2), "goods": [red_good],
                           "tokens": {"red": 2}, "vp_cards": pool.take("green", 2, 4)},
                          {"hand": pool.take("yellow", 3, 3), "vp_cards": [pool.take("green", 3)],
                           "goods": [pool.take("blue", 2)]},
                          {"hand": [], "vp_substitutes": 2}],
                 discard=pool.take("yellow", 5, 2))


def test_r_info_1_public_information_in_every_view(pool):
    s = _mid_game_state(pool)
    js = s.to_json()
    for seat in (None, 0, 1, 2):
        v = player_view(s, seat)
        assert v["seat"] == seat
        assert v["market"] == js["market"] and v["farm"] == js["farm"]
        assert v["ships"] == js["ships"] and v["discard"] == js["discard"]
        assert v["deck_size"] == len(js["deck"])
        assert v["turn"] == 0 and v["to_act"] == 0 and v["phase"] == "turn"
        assert v["sinking"] == [] and v["insurance_queue"] == [] and v["winners"] is None
        for i, p in enumerate(v["players"]):
            full = js["players"][i]
            assert p["hand_size"] == len(full["hand"])
            assert p["goods"] == full["goods"] and p["tokens"] == full["tokens"]
        assert [p["reservation_free"] for p in v["players"]] == [True, False, False]
        assert v["players"][0]["goods"] == [{"card": js["players"][0]["goods"][0]["card"],
                                             "insured": True}]


def test_r_info_2_own_hand_and_own_vp_count_only(pool):
    s = _mid_game_state(pool)
    js = s.to_json()
    for seat in range(3):
        v = player_view(s, seat)
        me = v["players"][seat]
        assert me["hand"] == js["players"][seat]["hand"]
        assert me["vp"] == [4, 1, 2][seat]
        for other in range(3):
            if other != seat:
                assert "hand" not in v["players"][other]
                assert "vp" not in v["players"][other]


def test_r_info_3_no_secrets_in_any_view_before_the_end(pool):
    s = _mid_game_state(pool)
    for seat in (None, 0, 1, 2):
        v = player_view(s, seat)
        keys = {k for _, k in _walk_keys(v)}
        assert not keys & FORBIDDEN, (seat, keys & FORBIDDEN)
    spect = player_view(s, None)
    assert all("hand" not in p and "vp" not in p for p in spect["players"])


def test_r_info_3_all_vp_totals_revealed_at_the_end():
    s = _exhausted_with_vps([30, 20, 10])
    s, _ = _pass_out(s, 3)
    for seat in (None, 0, 1, 2):
        v = player_view(s, seat)
        assert [p["vp"] for p in v["players"]] == [30, 20, 10]
        assert v["winners"] == [0] and v["phase"] == "over"
        assert not {k for _, k in _walk_keys(v)} & FORBIDDEN


def test_r_info_3_vp_totals_are_private_events_sales_are_public(pool):
    red = pool.take("red", 5)
    pay = pool.take("green", 2)
    s = build(market=[pool.take("red", 2)], farm=pool.take("blue", 3, 3), ships={"red": 4},
              players=[{"hand": [pay]}, {"goods": [red], "tokens": {"red": 2}}])
    _, events = play(s, 0, {"type": "buy", "payment": [pay]})
    for e in events:
        assert "type" in e and "visible_to" in e
        if e["type"] == "vp_total":
            assert e["visible_to"] == e["seat"]
        if e["type"] in ("sale", "buy", "payment", "ship_moved", "token_gained", "refresh"):
            assert e["visible_to"] is None
    assert {e["seat"] for e in of_type(events, "vp_total")} == {0, 1}
    # The VP card drawn for seat 1 appears in no event at all.
    drawn = s.to_json()["deck"][0]
    for e in events:
        if e["visible_to"] is None:
            assert drawn not in _card_ids(e), e


CARD_KEYS = {"card", "cards", "goods", "payment", "discarded", "discard", "moved", "market",
             "farm", "hand"}


def _card_ids(event: dict) -> set[int]:
    """Every card id an event names (under the card-carrying keys of docs/engine.md)."""
    out = set()
    for k, v in event.items():
        if k in CARD_KEYS:
            for x in (v if isinstance(v, list) else [v]):
                if isinstance(x, int) and not isinstance(x, bool):
                    out.add(x)
    return out


def test_r_info_4_starting_hands_are_public_in_views():
    s = new_game(3, 4)
    js = s.to_json()
    for seat in (None, 0, 1, 2):
        v = player_view(s, seat)
        assert [sorted(h) for h in v["starting_hands"]] == \
            [sorted(p["hand"]) for p in js["players"]]
        assert v["start_player"] == js["start_player"]


@pytest.mark.parametrize("seat", [None, 0, 1])
def test_r_info_views_are_json_ready(pool, seat):
    import json
    s = _mid_game_state(pool)
    v = player_view(s, seat)
    assert json.loads(json.dumps(v)) == v
