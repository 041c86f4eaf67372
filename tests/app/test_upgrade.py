"""Stored games survive an upgrade (issue 11, part 1).

A database made at the previous migration head (0002) with games waiting, in progress and over,
as that release's code stored them (seed + action log), is upgraded to the head. Then a server
runs under a Python whose `random.shuffle` orders cards differently (as a future Python may):
before migration 0003 such a server rebuilt games by replaying their logs and failed
(`not_your_turn` inside `Table.sync`); now every game loads exactly where it was, from its
stored snapshot, and play goes on.
"""
from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys

import httpx
from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import create_async_engine

import engine
from app.models import ActionRow, GameRow, Room

from tests.conftest import ROOT, Server, migrate
from .helpers import Client
from .legacy import (LegacyGame, bot_to_act_game, build_at_0002, future_python_env, make_game,
                     new_game_v1, shuffled_differently)


async def _stored(url: str) -> dict[str, tuple]:
    """code → (status, version, rules_version, state JSON, [events per action]); a compacted
    finished game's events from its packed log (migration 0009: no action rows left)."""
    db = create_async_engine(url)
    try:
        async with db.connect() as conn:
            rooms = (await conn.execute(select(Room.__table__))).all()
            out = {}
            for r in rooms:
                events = (await conn.execute(select(ActionRow.events).where(ActionRow.room_id == r.id)
                                             .order_by(ActionRow.version))).scalars().all()
                if r.status == "over" and not events:
                    log = (await conn.execute(select(GameRow.log).where(
                        GameRow.room_id == r.id, GameRow.number == r.game_no))).scalar_one()
                    events = [a["events"] for a in log]
                out[r.code] = (r.status, r.version, r.rules_version, r.state, list(events))
            return out
    finally:
        await db.dispose()


def _history(game: LegacyGame, seat: int | None) -> list[dict]:
    return [e for evs in game.events for e in engine.visible_events(evs, seat)]


async def _check_views(srv: Server, game: LegacyGame) -> list[Client]:
    """Every seat and a spectator see exactly the view and history of the stored game."""
    clients = [await Client.open(srv.ws_url, game.code, t, seat=s) for s, t in enumerate(game.tokens)
               if t is not None]
    clients.append(await Client.open(srv.ws_url, game.code))
    for c in clients:
        state = await c.state(len(game.log))
        assert state["version"] == len(game.log)
        assert state["view"] == engine.player_view(game.state, c.seat)
        history = next(m for m in c.msgs if m["type"] == "history")
        assert history["events"] == _history(game, c.seat)
    return clients


async def _play_on(srv: Server, game: LegacyGame, clients: list[Client], steps: int) -> None:
    """Play `steps` more random actions (or to the end); each state equals the engine's under
    the changed shuffle, i.e. what this server's Python computes."""
    rng, by_seat = random.Random(7), {c.seat: c for c in clients}
    for _ in range(steps):
        if engine.is_over(game.state):
            break
        seat, version = game.state.to_act, len(game.log)
        action = rng.choice(engine.legal_actions(game.state, seat)).to_json()
        with shuffled_differently():
            game.state, events = engine.play(game.state, seat, action)
        game.log.append((seat, action))
        game.events.append(events)
        await by_seat[seat].act(version, action)
        for c in clients:
            assert (await c.state(version + 1))["view"] == engine.player_view(game.state, c.seat)
        await asyncio.sleep(0.06)  # under the flood limit of every connection


def test_upgrade_from_0002_resumes_every_game(fresh_database_url, tmp_path):
    url, rng = fresh_database_url, random.Random(2024)
    waiting = make_game(rng, "waiting", 2)
    playing = [make_game(rng, "playing", n, steps=s) for n, s in ((2, 60), (3, 75), (4, 12))]
    bot_game = bot_to_act_game(rng)
    over = make_game(rng, "over", 3)
    games = [waiting, *playing, bot_game, over]
    build_at_0002(url, games)
    migrate(url)

    stored = asyncio.run(_stored(url))
    for g in games:
        status, version, rules_version, state, events = stored[g.code]
        assert (status, version) == (g.status, len(g.log))
        if g.seed is None:
            assert (rules_version, state, events) == (None, None, [])
        else:  # the state JSON the 0002-era server rebuilt from this log, stored as it was
            assert (rules_version, state, events) == (1, g.state.to_json(), g.events)

    mark = tmp_path / "future-python.pids"
    srv = Server(url, tmp_path / "server.log", **future_python_env(mark)).start()
    try:
        assert str(srv.proc.pid) in mark.read_text().split(), "the server must run the changed shuffle"
        before = new_game_v1(2, playing[0].seed).to_json()
        with shuffled_differently():  # so a replay of the log here would rebuild another game
            assert new_game_v1(2, playing[0].seed).to_json() != before
        asyncio.run(_after_upgrade(srv, waiting, playing, bot_game, over))
    finally:
        srv.stop()
    rules = {code: row[2] for code, row in asyncio.run(_stored(url)).items()}
    assert rules.pop(waiting.code) == engine.RULES_VERSION  # started now: today's rules
    assert set(rules.values()) == {1}  # the old games keep theirs, even as they go on


async def _after_upgrade(srv, waiting, playing, bot_game, over) -> None:
    # The computer player to move in a resumed game moves by itself, nobody connected.
    for _ in range(200):
        room = httpx.get(f"{srv.base_url}/api/rooms/{bot_game.code}").json()
        if room["version"] > len(bot_game.log):
            break
        await asyncio.sleep(0.1)
    assert room["version"] == len(bot_game.log) + 1
    spectator = await Client.open(srv.ws_url, bot_game.code)
    history = (await spectator.wait(lambda m: m["type"] == "history"))["events"]
    assert history[:len(_history(bot_game, None))] == _history(bot_game, None)
    assert history[len(_history(bot_game, None))]["seat"] == 1
    await spectator.close()

    for game in playing:
        clients = await _check_views(srv, game)
        await _play_on(srv, game, clients, 200 if game is playing[0] else 20)
        for c in clients:
            await c.close()
    assert engine.is_over(playing[0].state)
    assert httpx.get(f"{srv.base_url}/api/rooms/{playing[0].code}").json()["status"] == "over"

    clients = await _check_views(srv, over)
    await clients[0].act(len(over.log), {"type": "pass"})
    refused = await clients[0].wait(lambda m: m["type"] == "error")
    assert refused["code"] == "game_over"
    for c in clients:
        await c.close()

    r = httpx.post(f"{srv.base_url}/api/rooms/{waiting.code}/start",
                   headers={"Authorization": f"Bearer {waiting.tokens[0]}"})
    assert r.status_code == 200, r.text
    host = await Client.open(srv.ws_url, waiting.code, waiting.tokens[0], seat=0)
    view = (await host.state(0))["view"]
    assert (view["num_players"], view["phase"]) == (2, "token_draft")
    await host.close()


def test_a_game_that_does_not_replay_stops_the_upgrade(fresh_database_url, tmp_path):
    """A log the engine refuses (here: a pass while other actions are legal) names its room,
    and the database stays at 0002, unchanged."""
    url, rng = fresh_database_url, random.Random(5)
    good, broken = make_game(rng, "playing", 2, steps=10), make_game(rng, "playing", 2, steps=10)
    broken.log[4] = (broken.log[4][0], {"type": "pass"})
    build_at_0002(url, [good, broken])
    proc = subprocess.run([sys.executable, "-m", "app.cli", "migrate"], cwd=ROOT, capture_output=True,
                          text=True, env={**os.environ, "DATABASE_URL": url, "LOG_LEVEL": "warning"})
    assert proc.returncode != 0
    assert broken.code in proc.stderr and good.code not in proc.stderr

    async def schema():
        db = create_async_engine(url)
        try:
            async with db.connect() as conn:
                revision = (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalar()
                columns = (await conn.execute(text("SELECT * FROM rooms"))).keys()
                return revision, set(columns)
        finally:
            await db.dispose()
    revision, columns = asyncio.run(schema())
    assert revision == "0002"
    assert not {"state", "rules_version", "to_act"} & columns
