"""The storage layer's one call (app/store/ `ActionStore.store`), on the session's database
(SQLite or PostgreSQL): a batch with a conflicting action in the middle stores the others and
reports the conflicting one, whatever the conflict (a lost version check, a (seat, id) stored
before, a seat no longer the computer player's); and app/store/ imports nothing above it."""
from __future__ import annotations

import asyncio
import json
from datetime import datetime

from sqlalchemy import insert, select

from app.db import make_engine
from app.models import ActionRow, Room, Seat
from app.store import open_action_store
from commit_rows import pending
from test_import_graph import imports_of, modules

AT = datetime(2026, 12, 1, 9, 30, 0, 250)


async def _rooms(db, n: int) -> list[int]:
    async with db.begin() as conn:
        ids = [(await conn.execute(insert(Room).values(code=f"S{i:04d}", status="playing", version=0)))
               .inserted_primary_key[0] for i in range(n)]
    return sorted(ids)


async def _state(db, ids: list[int]) -> tuple[dict, dict]:
    """→ ({room id: version}, {room id: [action ids stored]})."""
    async with db.connect() as conn:
        versions = dict((await conn.execute(select(Room.id, Room.version).where(Room.id.in_(ids)))).all())
        actions: dict[int, list[str]] = {i: [] for i in ids}
        for room_id, action_id in (await conn.execute(select(ActionRow.room_id, ActionRow.action_id)
                                                      .where(ActionRow.room_id.in_(ids))
                                                      .order_by(ActionRow.room_id, ActionRow.version))).all():
            actions[room_id].append(action_id)
    return versions, actions


def _run(url: str, scenario) -> None:
    async def main():
        db = make_engine(url)
        store = open_action_store(db, lambda code: None)
        try:
            await scenario(db, store)
        finally:
            await store.close()
            await db.dispose()
    asyncio.run(main())


def test_a_lost_version_check_in_the_middle_of_a_batch_loses_alone(private_migrated_url):
    async def scenario(db, store):
        a, b, c, d, e = await _rooms(db, 5)
        batch = [pending(r, 0, AT) for r in (a, b)] + [pending(c, 3, AT)] + [pending(r, 0, AT) for r in (d, e)]
        assert await store.store(batch) == [True, True, False, True, True]
        versions, actions = await _state(db, [a, b, c, d, e])
        assert versions == {a: 1, b: 1, c: 0, d: 1, e: 1}
        assert actions == {a: ["a0"], b: ["a0"], c: [], d: ["a0"], e: ["a0"]}
        # the next batch of the same rooms is one transaction again
        before = store.transactions
        assert await store.store([pending(r, 1, AT) for r in (a, b, d, e)]) == [True] * 4
        assert store.transactions == before + 1
    _run(private_migrated_url, scenario)


def test_an_action_id_stored_before_in_the_middle_of_a_batch_loses_alone(private_migrated_url):
    async def scenario(db, store):
        a, b, c = await _rooms(db, 3)
        assert await store.store([pending(b, 0, AT, action_id="twice")]) == [True]
        # b's next action reuses the (seat, id): a unique constraint, not a version check
        batch = [pending(a, 0, AT), pending(b, 1, AT, action_id="twice"), pending(c, 0, AT)]
        assert await store.store(batch) == [True, False, True]
        versions, actions = await _state(db, [a, b, c])
        assert versions == {a: 1, b: 1, c: 1}
        assert actions == {a: ["a0"], b: ["twice"], c: ["a0"]}
    _run(private_migrated_url, scenario)


def test_a_computer_players_action_whose_seat_was_taken_back_loses_alone(private_migrated_url):
    async def scenario(db, store):
        a, b, c = await _rooms(db, 3)
        async with db.begin() as conn:
            await conn.execute(insert(Seat), [{"room_id": b, "seat": 1, "name": "Bot", "bot_level": None},
                                              {"room_id": c, "seat": 1, "name": "Bot", "bot_level": "easy"}])
        taken_back, still_bot = pending(b, 0, AT), pending(c, 0, AT)
        taken_back.bot = still_bot.bot = (1, "easy")
        batch = [pending(a, 0, AT), taken_back, still_bot]
        assert await store.store(batch) == [True, False, True]
        assert taken_back.not_a_bot and not still_bot.not_a_bot
        versions, actions = await _state(db, [a, b, c])
        assert versions == {a: 1, b: 0, c: 1}
        assert actions == {a: ["a0"], b: [], c: ["a0"]}
    _run(private_migrated_url, scenario)


def _without_state(p):
    p.bump["state"] = None  # no snapshot with this action (app/store/games.py `snapshot_due`)
    return p


async def _snapshots(db, ids: list[int]) -> dict:
    """→ {room id: (version, state_version, the stored state's "v")}."""
    async with db.connect() as conn:
        rows = (await conn.execute(select(Room.id, Room.version, Room.state_version, Room.state)
                                   .where(Room.id.in_(ids)))).all()
    return {r.id: (r.version, r.state_version, r.state and r.state["v"]) for r in rows}


def test_an_action_without_a_snapshot_keeps_the_last_one_and_says_which_version_it_is_at(private_migrated_url):
    """A version move with `state` None keeps the room's snapshot and sets `state_version` to
    the version that snapshot is at; one with a state stores it and clears `state_version`.
    In one batch, rooms of both kinds, on both stores (SQLite's statement, PostgreSQL's)."""
    async def scenario(db, store):
        a, b = await _rooms(db, 2)
        assert await store.store([pending(a, 0, AT), pending(b, 0, AT)]) == [True, True]
        # a: two actions without a snapshot; b: one without, then one with.
        assert await store.store([_without_state(pending(a, 1, AT)), _without_state(pending(b, 1, AT))]) == [True] * 2
        assert await _snapshots(db, [a, b]) == {a: (2, 1, 0), b: (2, 1, 0)}
        assert await store.store([_without_state(pending(a, 2, AT)), pending(b, 2, AT)]) == [True] * 2
        assert await _snapshots(db, [a, b]) == {a: (3, 1, 0), b: (3, None, 2)}
        # a lost version check moves nothing
        assert await store.store([_without_state(pending(a, 2, AT, action_id="late"))]) == [False]
        assert await _snapshots(db, [a]) == {a: (3, 1, 0)}
    _run(private_migrated_url, scenario)


def test_the_store_imports_nothing_above_it():
    mods = modules()
    for name, path in mods.items():
        if name == "app.store" or name.startswith("app.store."):
            above = {m for m in imports_of(name, path, set(mods))
                     if m.startswith(("app.live", "app.routes", "app.rooms", "app.records", "app.main"))}
            assert above == set(), name


def test_the_sqlite_version_move_writes_a_states_json_once_though_it_names_it_twice():
    """`BUMP_VERSION` uses its `state` parameter twice (the snapshot kept or replaced, and
    `state_version`): SQLite's compiled statement serializes it once and repeats the text."""
    from sqlalchemy import create_engine

    from app.store.actions import BUMP_VERSION
    from app.store.sqlite import _DriverStatement
    written = []

    def serializer(value):
        written.append(value)
        return json.dumps(value)

    dialect = create_engine("sqlite://", json_serializer=serializer).dialect
    statement = _DriverStatement(BUMP_VERSION, dialect, None)
    bump = pending(1, 7, AT).bump
    (row,) = statement.rows([bump])
    assert written == [bump["state"]]
    assert row.count(json.dumps(bump["state"])) == 2
