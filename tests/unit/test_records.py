"""The record of a finished game read as text and as replay steps (app/replay.py), from whole
random games of the engine: every event has its line, the replay ends in the stored state."""
from __future__ import annotations

import random

import pytest

import engine
from app.replay import describe, replay, text_log


def _record(players: int, seed: int) -> dict:
    """A record as app/records.py builds it, of a random game played to the end."""
    rng = random.Random(seed)
    state = engine.new_game(players, seed)
    actions = []
    while not engine.is_over(state):
        seat = state.to_act
        action = rng.choice(engine.legal_actions(state, seat))
        state, events = engine.play(state, seat, action)
        actions.append({"version": len(actions) + 1, "seat": seat, "action": action.to_json(),
                        "at": "2026-11-30T12:00:00Z", "events": events})
    return {"format": "traders-of-osaka-record", "format_version": 1, "room": "7KQ2M9XR4T", "game": 1,
            "rules_version": state.rules_version, "seed": seed, "num_players": players,
            "started_at": "2026-11-30T11:00:00Z", "ended_at": "2026-11-30T12:00:00Z",
            "players": [{"seat": i, "name": f"P<{i}>", "bot_level": "easy" if i else None} for i in range(players)],
            "actions": actions, "final_state": state.to_json(),
            "result": engine.game_result(state, [e for a in actions for e in a["events"]])}


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3)])
def test_text_log_and_replay_of_whole_games(players, seed):
    record = _record(players, seed)
    text = text_log(record)
    assert text.count("\n") > len(record["actions"])
    for a in record["actions"]:
        assert f"{a['version']:>4}. " in text
    for a in record["actions"]:
        for ev in a["events"]:
            line = describe(ev, lambda seat: f"P<{seat}>")
            assert (line is None) == (ev["type"] in ("turn_started", "vp_total")), ev
    assert "seat 1: P<0>\n" in text and "seat 2: P<1> (computer player, easy)" in text and "Winner" in text
    # A person whose seat a computer player held at the end keeps their name, said so.
    record["players"][0].update(bot_level="normal", computer=False)
    assert "seat 1: P<0> (seat held by a computer player, normal, at the end)" in text_log(record)
    rep = replay(record)
    assert rep["verified"] and len(rep["steps"]) == len(record["actions"]) + 1
    first, last = rep["steps"][0]["view"], rep["steps"][-1]["view"]
    assert [p["hand"] for p in first["players"]] == record["final_state"]["starting_hands"]
    assert [p["vp"] for p in last["players"]] == [p["vp"] for p in record["result"]["players"]]
    assert all("deck" not in s["view"] and "seed" not in s["view"] for s in rep["steps"])


def test_a_tampered_record_is_not_verified():
    record = _record(2, 5)
    record["final_state"] = {**record["final_state"], "discard": []}
    assert replay(record)["verified"] is False
