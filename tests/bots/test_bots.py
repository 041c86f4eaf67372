"""Tests of the computer players (bots/): legality, determinism, view-only input, a full game.

Positions come from real engine games played with seeded random moves; every bot answer is
checked against the true state with the engine (``apply_action`` must accept it and the same
JSON must be listed by ``legal_actions``). Budgets are tiny (0.02 s) and timing is never
asserted: the hard bot's simulation count is checked instead.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import bots
from bots import LEVELS, choose_action, choose_action_info
from bots.determinize import VIEW_KEYS_READ, build_knowledge, determinize
from bots.tournament import main as tournament_main
from bots.tournament import bots_at, play_game, wilson
from engine import (GameState, IllegalAction, action_from_json, apply_action, is_over,
                    legal_actions, new_game, play, player_view)

BUDGET = 0.02
PLAYER_KEYS = {"hand_size", "goods", "tokens", "reservation_free", "hand", "vp"}


def _feed(histories: list[list[dict]], events: list[dict]) -> None:
    for ev in events:
        for s, h in enumerate(histories):
            if ev["visible_to"] is None or ev["visible_to"] == s:
                h.append(ev)


def _positions(players: int, seed: int):
    """Yield (state, seat, history of that seat) at every decision of a random-move game."""
    rng = random.Random(seed)
    state = new_game(players, seed)
    histories: list[list[dict]] = [[] for _ in range(players)]
    while not is_over(state):
        seat = state.to_act
        yield state, seat, list(histories[seat])
        acts = legal_actions(state, seat)
        # favour purchases so that payments, Black Tide and insurance happen
        buys = [a for a in acts if a.to_json()["type"] == "buy"]
        a = rng.choice(buys) if buys and rng.random() < 0.5 else rng.choice(acts)
        state, events = play(state, seat, a)
        _feed(histories, events)


def _sample_positions():
    """A mix of positions of every phase from 2-, 3- and 4-player games."""
    by_phase: dict[str, list] = {"token_draft": [], "turn": [], "insurance": []}
    for g in range(12):
        for i, pos in enumerate(_positions(2 + g % 3, 1000 + g)):
            phase = pos[0].phase
            if phase == "turn" and i % 9:
                continue
            by_phase[phase].append(pos)
    return by_phase


POSITIONS = _sample_positions()


def _assert_legal(state: GameState, seat: int, action_json: dict) -> None:
    action = action_from_json(action_json)
    legal = [a.to_json() for a in legal_actions(state, seat)]
    assert action.to_json() in legal, (action_json, legal)
    apply_action(state, seat, action)  # raises IllegalAction if the engine refuses it


def test_positions_cover_every_decision_phase():
    assert len(POSITIONS["token_draft"]) >= 12
    assert len(POSITIONS["turn"]) >= 40
    assert len(POSITIONS["insurance"]) >= 3


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("phase", ["token_draft", "turn", "insurance"])
def test_choose_action_is_legal_on_the_true_state(level, phase):
    positions = POSITIONS[phase][:30]
    for k, (state, seat, history) in enumerate(positions):
        view = player_view(state, seat)
        # with the public history, and without it (sampled hidden parts)
        for hist in (history, None):
            action = choose_action(view, level, history=hist, seed=k, time_budget_s=BUDGET,
                                   max_simulations=4)
            _assert_legal(state, seat, action)


def _pass_only_position() -> GameState:
    """A turn where draw and discard piles and the Market/Farm are empty: only a pass (R-turn-3)."""
    s = new_game(2, 7).to_json()
    everything = s["deck"] + s["discard"] + [m["card"] for m in s["market"] + s["farm"]]
    for p in s["players"]:
        everything += p["hand"]
        p["hand"] = []
    s["deck"], s["discard"], s["market"], s["farm"] = [], [], [], []
    s["players"][0]["vp_cards"] = everything[:60]
    s["players"][1]["vp_cards"] = everything[60:]
    s["players"][0]["tokens"] = {"red": 1, "blue": 0, "yellow": 0, "green": 0}
    s["players"][1]["tokens"] = {"red": 0, "blue": 1, "yellow": 0, "green": 0}
    s.update(phase="turn", turn=0, to_act=0, sinking=[], insurance_queue=[], passes=0)
    s.pop("starting_hands", None)
    return GameState.from_json(s)


@pytest.mark.parametrize("level", LEVELS)
def test_pass_when_nothing_else_is_legal(level):
    state = _pass_only_position()
    assert [a.to_json() for a in legal_actions(state, 0)] == [{"type": "pass"}]
    action = choose_action(player_view(state, 0), level, seed=1, time_budget_s=BUDGET)
    assert action == {"type": "pass"}
    _assert_legal(state, 0, action)


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_same_seed_same_action(level):
    for k, (state, seat, history) in enumerate(POSITIONS["turn"][:20]):
        view = player_view(state, seat)
        a1 = choose_action(view, level, history=history, seed=99 + k)
        a2 = choose_action(view, level, history=history, seed=99 + k)
        assert a1 == a2


def test_hard_is_deterministic_given_seed_and_simulation_count():
    for k, (state, seat, history) in enumerate(POSITIONS["turn"][:6]):
        view = player_view(state, seat)
        runs = [choose_action_info(view, "hard", history=history, seed=5 + k,
                                   time_budget_s=60.0, max_simulations=12) for _ in range(2)]
        assert runs[0] == runs[1]
        assert runs[0][1] in (0, 12)  # 0 only when a single move is legal


def test_hard_runs_simulations_within_the_given_budget():
    state, seat, history = next((s, p, h) for s, p, h in POSITIONS["turn"]
                                if len(legal_actions(s, p)) > 1)
    view = player_view(state, seat)
    action, sims = choose_action_info(view, "hard", history=history, seed=3,
                                      time_budget_s=BUDGET)
    assert sims > 0
    _assert_legal(state, seat, action)
    # a zero budget still answers (the normal player's choice, as the search prior) …
    action0, sims0 = choose_action_info(view, "hard", history=history, seed=3,
                                        time_budget_s=0.0)
    assert sims0 == 0
    _assert_legal(state, seat, action0)
    # … and a count cap is honoured exactly under a generous budget
    _, sims5 = choose_action_info(view, "hard", history=history, seed=3,
                                  time_budget_s=60.0, max_simulations=5)
    assert sims5 == 5


def test_bot_refuses_anything_but_a_seat_view():
    state, seat, _ = POSITIONS["turn"][3]
    with pytest.raises(TypeError):
        choose_action(state, "normal", seed=1)
    with pytest.raises(ValueError):
        choose_action(state.to_json(), "normal", seed=1)
    leaky = player_view(state, seat)
    leaky["deck"] = state.to_json()["deck"]
    with pytest.raises(ValueError):
        choose_action(leaky, "normal", seed=1)
    other = player_view(state, seat)
    other["players"][(seat + 1) % len(other["players"])]["hand"] = [0]
    with pytest.raises(ValueError):
        choose_action(other, "normal", seed=1)
    with pytest.raises(ValueError):
        choose_action(player_view(state, None), "normal", seed=1)
    with pytest.raises(ValueError):
        choose_action(player_view(state, seat), "grandmaster", seed=1)
    not_my_turn = player_view(state, (seat + 1) % len(state.to_json()["players"]))
    with pytest.raises(ValueError):
        choose_action(not_my_turn, "normal", seed=1)


class _Recorder(dict):
    """A dict that records every key read, wrapping nested dicts and lists the same way."""

    def __init__(self, data, log: set, path: str):
        super().__init__({k: _wrap(v, log, f"{path}.{k}" if path else k)
                          for k, v in data.items()})
        self._log, self._path = log, path

    def _note(self, key):
        self._log.add((self._path, key))

    def __getitem__(self, key):
        self._note(key)
        return super().__getitem__(key)

    def get(self, key, default=None):
        self._note(key)
        return super().get(key, default)


def _wrap(v, log, path):
    if isinstance(v, dict):
        return _Recorder(v, log, path)
    if isinstance(v, list):
        return [_wrap(x, log, path + "[]") for x in v]
    return v


def test_determinization_reads_only_view_keys():
    """Every key the bot reads is a documented view key (docs/engine.md), at every level."""
    market_keys = {"card", "reserved_by"}
    allowed_paths = {
        "": VIEW_KEYS_READ,
        "players[]": PLAYER_KEYS,
        "market[]": market_keys,
        "farm[]": market_keys,
        "players[].goods[]": {"card", "insured"},
        "players[].tokens": {"red", "blue", "yellow", "green"},
        "ships": {"red", "blue", "yellow", "green"},
    }
    for level in LEVELS:
        for k, (state, seat, history) in enumerate(POSITIONS["turn"][:5]
                                                   + POSITIONS["insurance"][:2]):
            log: set = set()
            view = _Recorder(player_view(state, seat), log, "")
            action = choose_action(view, level, history=history, seed=k, max_simulations=3,
                                   time_budget_s=BUDGET)
            _assert_legal(state, seat, action)
            for path, key in log:
                assert path in allowed_paths and key in allowed_paths[path], (path, key)


def test_history_makes_hidden_hands_and_vp_exact():
    """Hands and VP totals follow from public events (R-info-4); the deck stays hidden."""
    checked = 0
    for state, seat, history in POSITIONS["turn"]:
        full = state.to_json()
        know = build_knowledge(player_view(state, seat), history)
        assert know.exact
        for s, pl in enumerate(full["players"]):
            assert sorted(know.hands[s]) == sorted(pl["hand"])
            assert know.vp_estimate(s) == len(pl["vp_cards"]) + pl["vp_substitutes"]
        det = determinize(player_view(state, seat), know, random.Random(1))
        # only which unseen cards lie in the draw pile and which were drawn as VPs is unknown
        for s, pl in enumerate(full["players"]):
            assert set(know.vp_known[s]) <= set(pl["vp_cards"])
        pile_and_vp = [full["deck"]] + [pl["vp_cards"] for pl in full["players"]]
        det_pile_and_vp = [det["deck"]] + [pl["vp_cards"] for pl in det["players"]]
        assert sorted(sum(det_pile_and_vp, [])) == sorted(sum(pile_and_vp, []))
        assert len(det["deck"]) == len(full["deck"])
        checked += 1
    assert checked >= 40


def test_without_history_the_sample_is_a_well_formed_state():
    for k, (state, seat, _) in enumerate(POSITIONS["turn"] + POSITIONS["insurance"]):
        view = player_view(state, seat)
        know = build_knowledge(view, None)
        det = determinize(view, know, random.Random(k))
        rebuilt = GameState.from_json(det)  # ValueError unless all 108 cards are placed once
        for s, pl in enumerate(det["players"]):
            assert len(pl["hand"]) == view["players"][s]["hand_size"]
        assert det["players"][seat]["hand"] == view["players"][seat]["hand"]
        assert [a.to_json() for a in legal_actions(rebuilt, seat)] == \
            [a.to_json() for a in legal_actions(state, seat)]


def test_four_bots_of_mixed_levels_play_a_game_to_the_end():
    levels = ["easy", "normal", "hard", "normal"]
    state = new_game(4, 2024)
    histories: list[list[dict]] = [[] for _ in range(4)]
    decisions = 0
    while not is_over(state):
        seat = state.to_act
        action = choose_action(player_view(state, seat), levels[seat],
                               history=histories[seat], seed=decisions, time_budget_s=BUDGET)
        try:
            state, events = play(state, seat, action_from_json(action))
        except IllegalAction as exc:  # pragma: no cover - a failure message with context
            pytest.fail(f"{levels[seat]} bot chose an illegal move {action}: {exc.code}")
        _feed(histories, events)
        decisions += 1
        assert decisions < 3000
    final = state.to_json()
    assert final["winners"] and all(0 <= w < 4 for w in final["winners"])
    assert any(ev["type"] == "game_over" for ev in histories[0])


def test_the_floor_of_simulations_outlasts_the_time_budget():
    """BOT_MIN_SIMULATIONS (docs/bots.md "A floor of simulations"): with no time at all the
    hard player still runs the floor's simulations, and the floor equal to the cap is a fixed
    count: the same move as under a generous budget with that cap, whatever the clock."""
    for k, (state, seat, history) in enumerate([p for p in POSITIONS["turn"]
                                                if len(legal_actions(p[0], p[1])) > 1][:4]):
        view = player_view(state, seat)
        _, floored = choose_action_info(view, "hard", history=history, seed=7 + k,
                                        time_budget_s=0.0, min_simulations=40)
        assert floored >= 40
        fixed = choose_action_info(view, "hard", history=history, seed=7 + k, time_budget_s=0.0,
                                   min_simulations=15, max_simulations=15)
        capped = choose_action_info(view, "hard", history=history, seed=7 + k, time_budget_s=60.0,
                                    max_simulations=15)
        assert fixed == capped and fixed[1] == 15


def test_the_tournament_at_a_fixed_simulation_count(capsys):
    r = play_game(1, "hard", "easy", 2, 0.0, min_sims=6, max_sims=6)
    assert r.search_moves > 0 and r.sims == 6 * r.search_moves
    assert tournament_main(["--a", "hard", "--b", "easy", "--games", "2", "--simulations", "4", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "4 simulations a searched move" in out and "hard bot: 4.0 simulations per searched move" in out


def test_the_tournament_plays_b_with_the_bots_of_another_checkout(capsys):
    """--b-root DIR: B's seats are played by the bots of the checkout at DIR (the previous hard
    player against this one). With this checkout's own root the games are the same, game for
    game, as without it (the other package is loaded beside this one and decides the same); both
    sides' searches are counted, each side's shown."""
    root = str(Path(bots.__file__).resolve().parents[1])
    other = bots_at(root)
    assert other is not bots and other.__name__.startswith("bots_at_") and bots_at(root) is other
    here = play_game(2, "hard", "hard", 2, 0.0, min_sims=5, max_sims=5)
    there = play_game(2, "hard", "hard", 2, 0.0, min_sims=5, max_sims=5, b_root=root)
    assert (there.winners, there.vp, there.decisions) == (here.winners, here.vp, here.decisions)
    assert 0 < there.a_search_moves < there.search_moves and there.sims == 5 * there.search_moves
    with pytest.raises(FileNotFoundError):
        bots_at(str(Path(root) / "no-such-dir"))
    assert tournament_main(["--a", "normal", "--b", "hard", "--b-root", root, "--games", "2", "--first", "6",
                            "--simulations", "3", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert f"A=normal vs B=hard of {root}" in out and "hard bot: 3.0 simulations per searched move" in out


def test_a_series_split_in_parts_plays_the_same_games(capsys):
    """--first G: games G, G+1, … are the games of that number in one run (the same deal, A's
    seat `G % players`)."""
    r = play_game(5, "normal", "easy", 3, 0.0)
    assert tournament_main(["--a", "normal", "--b", "easy", "--players", "3", "--games", "1", "--first", "5"]) == 0
    assert f"game 5: A seat 2, winners {r.winners}, vp {r.vp}" in capsys.readouterr().err


def test_tournament_game_and_summary(capsys):
    r = play_game(3, "normal", "easy", 2, BUDGET)
    assert r.a_seat == 1 and r.winners and r.decisions > 10
    assert r.a_score in (0.0, 0.5, 1.0)
    assert tournament_main(["--a", "normal", "--b", "easy", "--games", "4", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "95% CI" in out and "games/s" in out


def test_wilson_interval():
    lo, hi = wilson(150, 200)
    assert lo < 0.75 < hi
    assert round(lo, 3) == 0.686 and round(hi, 3) == 0.805
    assert wilson(0, 0) == (0.0, 1.0)


def test_a_partial_history_falls_back_to_sampling():
    """A history that does not add up (missing events) is detected and not trusted."""
    state, seat, history = next((s, p, h) for s, p, h in POSITIONS["turn"]
                                if sum(1 for e in h if e["type"] == "take") >= 4)
    cut = [e for e in history if e["type"] != "take"]
    view = player_view(state, seat)
    assert not build_knowledge(view, cut).exact
    for level in LEVELS:
        action = choose_action(view, level, history=cut, seed=2, time_budget_s=BUDGET,
                               max_simulations=3)
        _assert_legal(state, seat, action)
