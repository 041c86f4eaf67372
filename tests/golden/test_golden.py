"""Golden games: stored games must replay exactly (issue 11; docs/versioning.md).

Each ``tests/golden/*.jsonl.gz`` holds a seed, every action and the full state JSON and events
after each action (format: ``tests/golden/record.py``). A change of the engine that would alter
a stored game, under either rules version, fails here on purpose. If the change is deliberate,
release it as a new rules version (docs/versioning.md) and record the games again with
``python -m tests.golden.record``.
"""
from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from engine import GameState, apply_action, new_game, play

HERE = Path(__file__).resolve().parent
FILES = sorted(HERE.glob("*.jsonl.gz"))


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in gzip.decompress(path.read_bytes()).decode().splitlines()]


def test_the_golden_games_cover_both_rules_versions_all_table_sizes_and_both_endings():
    heads = [_lines(p)[0] for p in FILES]
    assert {h["rules_version"] for h in heads} == {1, 2}
    assert {h["num_players"] for h in heads} == {2, 3, 4}
    ends = {_lines(p)[-1]["state"]["end_reason"] for p in FILES}
    assert ends == {"tokens", "passes"}


@pytest.mark.parametrize("path", FILES, ids=[p.name.split(".")[0] for p in FILES])
def test_golden_game_replays_exactly(path):
    """R-setup-1, R-refresh-3a: the seed and the actions give the stored states and events."""
    head, *steps = _lines(path)
    s = new_game(head["num_players"], head["seed"], rules_version=head["rules_version"])
    assert s.to_json() == head["state"]
    assert s.rules_version == head["rules_version"]
    for i, step in enumerate(steps):
        assert s.to_act == step["seat"], f"action {i + 1}"
        s, events = play(s, step["seat"], step["action"])
        assert events == step["events"], f"events of action {i + 1}"
        assert s.to_json() == step["state"], f"state after action {i + 1}"
    assert s.phase == "over"


@pytest.mark.parametrize("path", FILES, ids=[p.name.split(".")[0] for p in FILES])
def test_golden_game_continues_exactly_from_any_stored_state(path):
    """A game loaded from a stored snapshot (state JSON) goes on as the original did."""
    head, *steps = _lines(path)
    states = [head["state"]] + [step["state"] for step in steps]
    for i, step in enumerate(steps):
        loaded = GameState.from_json(json.loads(json.dumps(states[i])))
        assert loaded.to_json() == states[i]
        after = apply_action(loaded, step["seat"], step["action"])
        assert after.to_json() == states[i + 1], f"action {i + 1}"
