"""`Table.load` (app/live/room/table.py) from a snapshot stored every few actions
(app/store/games.py `snapshot_due`): whatever version the table is at and whichever version
the stored state is at, the table ends with exactly the state the engine reached when the
actions were played, and with every log row's events."""
from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

import engine
from app.live.room.table import Table
from engine.selfplay import play_random_game
from app.store import games as store

SEED = 20261207


def _game(n: int) -> tuple[list, list]:
    """n actions of a 3-player game → (states[0..n], log rows 1..n as the stores read them)."""
    rng = random.Random(7)
    states, rows = [engine.new_game(3, SEED)], []
    for version in range(1, n + 1):
        state = states[-1]
        action = rng.choice(engine.legal_actions(state, state.to_act))
        new_state, events = engine.play(state, state.to_act, action)
        rows.append(SimpleNamespace(version=version, seat=state.to_act, action_id=f"a{version}",
                                    events=events, action=action.to_json()))
        states.append(new_state)
    return states, rows


def _snap(states: list, version: int, state_version: int | None) -> SimpleNamespace:
    at = version if state_version is None else state_version
    return SimpleNamespace(seed=SEED, version=version, state=states[at].to_json(), state_version=state_version,
                           turn_at=None, deadline_at=None)


def _table_at(states: list, rows: list, version: int) -> Table:
    table = Table("ABCD", 1)
    table.reset(SEED)
    if version:
        table.load(_snap(states, version, None), rows[:version])
    return table


@pytest.mark.parametrize("table_at, state_version, room_at", [
    (0, 8, 13),     # a fresh table: the snapshot, then 9..13 played again
    (0, None, 13),  # a snapshot at the room's version (as every room stored before migration 0017)
    (5, 8, 13),     # the table behind the snapshot: from the snapshot
    (10, 8, 13),    # the table past the snapshot: from its own state, 11..13
    (8, 8, 15),     # the table at the snapshot
    (13, 8, 14),    # one action behind
])
def test_the_table_ends_with_the_state_the_actions_reached(table_at, state_version, room_at):
    states, rows = _game(16)
    table = _table_at(states, rows, table_at)
    caught = table.load(_snap(states, room_at, state_version), rows[table_at:room_at])
    assert table.version == room_at
    assert table.state.to_json() == states[room_at].to_json()
    assert [v for v, _ in caught] == list(range(table_at + 1, room_at + 1))
    assert table.events == [r.events for r in rows[:room_at]]
    assert table.actors == [r.seat for r in rows[:room_at]]


def test_an_action_that_does_not_play_again_is_an_error_naming_the_room_and_version():
    states, rows = _game(12)
    bad = SimpleNamespace(**{**vars(rows[9]), "seat": (rows[9].seat + 1) % 3})  # not that seat's turn
    table = _table_at(states, rows, 0)
    with pytest.raises(RuntimeError, match="room ABCD: the stored action of version 10"):
        table.load(_snap(states, 12, 8), rows[:9] + [bad] + rows[10:12])


def test_a_snapshot_is_due_every_eighth_version_and_at_the_end():
    states, _ = _game(20)
    due = [v for v in range(1, 21) if store.snapshot_due(v, states[v])]
    assert due == [8, 16]
    final, _events = play_random_game(2, SEED, random.Random(1))
    assert engine.is_over(final)
    assert all(store.snapshot_due(v, final) for v in (1, 13, 203))
