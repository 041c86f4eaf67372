"""A finished game compacted at its end (app/records.py `compact_finished`) is loaded from the
same log as before (app/store/games.py): `read_log` and, on PostgreSQL, `read_logs` give the
same rows, whole or from any version on; the record is the same; a gap in the action rows of
a game that is not compacted still raises. On SQLite and PostgreSQL."""
from __future__ import annotations

import asyncio
import random
import uuid
from datetime import timedelta

import pytest
from sqlalchemy import func, insert, select
from sqlalchemy.orm import selectinload

import engine
from app.db import make_engine, make_sessionmaker
from app.store import games as store
from app.models import ActionRow, GameRow, Room, Seat, utcnow
from app.records import compact_finished, game_record


async def _finished_room(session, seed: int, players: int = 3) -> int:
    """A room whose random game was played to the end, stored as the action path stores it."""
    rng, state = random.Random(seed), engine.new_game(players, seed)
    start = utcnow()
    room_id = (await session.execute(insert(Room).values(
        code=uuid.uuid4().hex[:10].upper(), public=False, status="playing", created_at=start,
        active_at=start, num_players=players, seed=seed, version=0, started_at=start, game_no=1,
        **store.start_values(state)))).inserted_primary_key[0]
    for seat in range(players):
        session.add(Seat(room_id=room_id, seat=seat, name=f"P{seat}", token_hash=None if seat else "ab" * 32,
                         bot_level="easy" if seat else None))
    rows = []
    while not engine.is_over(state):
        seat = state.to_act
        action = rng.choice(engine.legal_actions(state, seat))
        state, events = engine.play(state, seat, action)
        rows.append({"room_id": room_id, "version": len(rows) + 1, "action_id": f"id-{len(rows)}-\u00e9",
                     "seat": seat, "action": action.to_json(), "events": events,
                     "created_at": start + timedelta(seconds=len(rows))})
    await session.execute(insert(ActionRow), rows)
    await session.execute(Room.__table__.update().where(Room.id == room_id).values(
        version=len(rows), status="over", **store.snapshot_values(state)))
    await session.commit()
    return room_id


def _plain(rows) -> list[tuple]:
    return [(r.version, r.seat, r.action_id, r.events) for r in rows]


def _without_review(record: dict) -> dict:
    """The record but its review: storing the game makes the review row (status `none` before,
    `pending` after, then computed in the background: tests/app/test_reviews.py)."""
    return {k: v for k, v in record.items() if k != "review"}


def test_a_compacted_game_loads_the_same_log_and_record(private_migrated_url):
    async def scenario():
        db = make_engine(private_migrated_url)
        sessions = make_sessionmaker(db)
        try:
            async with sessions() as session:
                ids = [await _finished_room(session, seed) for seed in (7, 8)]
            async with sessions() as session:
                versions = {i: await session.scalar(select(Room.version).where(Room.id == i)) for i in ids}
                before = {i: _plain(await store.read_log(session, i, 0, versions[i])) for i in ids}
                room = await session.scalar(select(Room).where(Room.id == ids[0]).options(selectinload(Room.seats)))
                record = _without_review(await game_record(session, room, 1))
            pg = private_migrated_url.startswith("postgresql")
            if pg:
                async with db.connect() as conn:
                    spans = [(i, 0, versions[i]) for i in ids]
                    logs_before = {i: _plain(r) for i, r in (await store.read_logs(conn, spans)).items()}
            async with sessions() as session:
                assert await compact_finished(session, ids[0]) is True
                await session.commit()
            async with sessions() as session:
                assert await compact_finished(session, ids[0]) is False   # once
                assert await session.scalar(select(func.count()).select_from(ActionRow)
                                            .where(ActionRow.room_id == ids[0])) == 0
                assert await session.scalar(select(func.count()).select_from(GameRow)) == 1
                v = versions[ids[0]]
                assert _plain(await store.read_log(session, ids[0], 0, v)) == before[ids[0]]
                assert _plain(await store.read_log(session, ids[0], 5, v)) == before[ids[0]][5:]
                assert _plain(await store.read_log(session, ids[0], v, v)) == []
                assert _plain(await store.read_log(session, ids[1], 0, versions[ids[1]])) == before[ids[1]]
                room = await session.scalar(select(Room).where(Room.id == ids[0]).options(selectinload(Room.seats)))
                assert room.status == "over" and _without_review(await game_record(session, room, 1)) == record
            if pg:
                async with db.connect() as conn:
                    logs = await store.read_logs(conn, spans)
                    assert {i: _plain(r) for i, r in logs.items()} == logs_before
                    part = await store.read_logs(conn, [(ids[0], 3, versions[ids[0]]), (ids[1], 2, 4)])
                    assert _plain(part[ids[0]]) == before[ids[0]][3:]
                    assert _plain(part[ids[1]]) == before[ids[1]][2:4]
            # A game whose action rows have a gap and that is not compacted: still an error.
            async with sessions() as session:
                await session.execute(ActionRow.__table__.delete().where(ActionRow.room_id == ids[1],
                                                                         ActionRow.version == 3))
                await session.commit()
            async with sessions() as session:
                with pytest.raises(RuntimeError, match="does not hold versions"):
                    await store.read_log(session, ids[1], 0, versions[ids[1]])
        finally:
            await db.dispose()
    asyncio.run(scenario())
