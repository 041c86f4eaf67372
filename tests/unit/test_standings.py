"""The standings of a room's series (app/standings.py): the facts of real finished games and
their sum per name: wins and shared wins apart (R-end-2), a person who joined for game 2, a
seat whose player changed names, a computer player by its shown name, the best single sale."""
from __future__ import annotations

import random

import engine
from engine.selfplay import play_random_game

from app.standings import game_facts, series


def _players(*names, computer=()):
    return [{"seat": i, "name": n, "bot_level": "easy" if n in computer else None, "computer": n in computer}
            for i, n in enumerate(names)]


def _game(num_players: int, seed: int):
    return play_random_game(num_players, seed, random.Random(seed))


def test_facts_of_a_real_game_follow_its_result():
    state, events = _game(3, 5)
    facts = game_facts(1, _players("Ann", "Ben", "Computer (easy)", computer={"Computer (easy)"}),
                       state.to_json(), events)
    result = engine.game_result(state, events)
    assert facts["game"] == 1 and facts["shared"] == result["shared"]
    for p, r in zip(facts["players"], result["players"]):
        assert p["vp"] == r["vp"] and p["win"] == (r["seat"] in result["winners"])
        best = max((s["vp"] for s in r["sales"]), default=None)
        assert (p["best_sale"] or {}).get("vp") == best
        if best is not None:  # its value in coins is 5 × its VPs (R-pay-1)
            assert p["best_sale"]["value"] == 5 * best
    assert facts["players"][2]["computer"] is True and facts["players"][0]["computer"] is False
    # Private events (a seat's VP total) change nothing: only public sales are read.
    public = engine.visible_events(events, None)
    assert game_facts(1, _players("Ann", "Ben", "C"), state.to_json(), public)["players"] == \
        game_facts(1, _players("Ann", "Ben", "C"), state.to_json(), events)["players"]


def _facts(game, shared, *rows):
    return {"game": game, "shared": shared, "players": [
        {"seat": i, "name": n, "computer": n.startswith("Computer"), "vp": vp, "win": win,
         "best_sale": None if sale is None else {"vp": sale, "value": 5 * sale, "color": "red"}}
        for i, (n, vp, win, sale) in enumerate(rows)]}


def test_shared_wins_count_apart_and_the_order():
    g1 = _facts(1, False, ("Ann", 12, True, 4), ("Ben", 9, False, 3), ("Computer (easy)", 7, False, None))
    g2 = _facts(2, True, ("Ann", 10, True, 2), ("Ben", 10, True, 5), ("Computer (easy)", 6, False, 2))
    g3 = _facts(3, False, ("Ann", 8, False, 4), ("Ben", 11, True, 3), ("Computer (easy)", 5, False, 1))
    s = series([g3, g1, g2])  # any order: by game number
    assert s["games"] == 3 and s["numbers"] == [1, 2, 3]
    rows = {r["name"]: r for r in s["players"]}
    assert (rows["Ann"]["wins"], rows["Ann"]["shared_wins"]) == (1, 1)
    assert (rows["Ben"]["wins"], rows["Ben"]["shared_wins"]) == (1, 1)
    assert rows["Computer (easy)"]["wins"] == 0 and rows["Computer (easy)"]["computer"] is True
    assert rows["Ann"]["vp"] == 30 and rows["Ann"]["vp_per_game"] == 10.0 and rows["Ann"]["by_game"] == [12, 10, 8]
    # Equal on wins and shared wins: more VPs per game first (Ben 10.0 = Ann 10.0 → by name).
    assert [r["name"] for r in s["players"]] == ["Ann", "Ben", "Computer (easy)"]
    # The best single sale: the most VPs over the series, the earliest of equal ones.
    assert rows["Ben"]["best_sale"] == {"game": 2, "vp": 5, "value": 25, "color": "red"}
    assert rows["Ann"]["best_sale"]["game"] == 1  # 4 VP in game 1 and in game 3
    assert rows["Computer (easy)"]["best_sale"]["vp"] == 2


def test_a_newcomer_and_a_new_name_start_their_own_line():
    g1 = _facts(1, False, ("Ann", 12, True, 4), ("Ben", 9, False, None))
    # Game 2: Ben sat as "Benny", and Cleo joined the free seat.
    g2 = _facts(2, False, ("Ann", 7, False, 2), ("Benny", 6, False, 1), ("Cleo", 13, True, 5))
    s = series([g1, g2])
    rows = {r["name"]: r for r in s["players"]}
    assert set(rows) == {"Ann", "Ben", "Benny", "Cleo"}
    assert rows["Cleo"]["played"] == 1 and rows["Cleo"]["by_game"] == [None, 13]
    assert rows["Ben"]["by_game"] == [9, None] and rows["Ben"]["best_sale"] is None
    assert [r["name"] for r in s["players"]][:2] == ["Cleo", "Ann"]  # 1 win each: 13 VP per game first
    assert series([]) is None


def test_a_real_shared_win_is_a_shared_win():
    for seed in range(2000):
        state, events = _game(2, seed)
        if len(state.winners) > 1:
            break
    else:  # pragma: no cover - the engine's random games have ties
        raise AssertionError("no shared win in 2000 random games")
    s = series([game_facts(1, _players("Ann", "Ben"), state.to_json(), events)])
    assert all(r["shared_wins"] == 1 and r["wins"] == 0 for r in s["players"])


def test_a_room_set_over_by_hand_before_the_rules_end_adds_nothing():
    """A game whose room was set `over` in its database while the rules still run it (its
    final state not over) is stored without failing and leaves the standings as they were."""
    state = engine.new_game(3, 11)
    facts = game_facts(2, _players("Ann", "Ben", "Cem"), state.to_json(), [])
    assert facts == {"game": 2, "shared": False, "players": [], "finished": False}
    done, events = _game(3, 5)
    first = game_facts(1, _players("Ann", "Ben", "Cem"), done.to_json(), events)
    assert series([first, facts]) == series([first])
    assert series([facts]) is None
