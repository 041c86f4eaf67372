"""Databases as an older release left them: the schema at migration 0002 and the rows its code
wrote (rooms with a seed and a version, seats, the action log; no snapshots, no events).

Games are real: played with random legal actions through the engine's rules version 1 (the
rules of every game stored before migration 0003), so the expected state after each game is
known exactly. `shuffled_differently` changes `random.Random.shuffle` the way a future Python
might (tests/app/future_python/sitecustomize.py does the same in a server process).
"""
from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import os
import random
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from alembic import command
from sqlalchemy import insert
from sqlalchemy.ext.asyncio import create_async_engine

import engine
from app.migrate import alembic_config
from app.models import ActionRow, Room, Seat
from app.security import hash_token, new_room_code, new_token

FUTURE_PYTHON = Path(__file__).resolve().parent / "future_python"  # holds sitecustomize.py


def _future_python():
    spec = importlib.util.spec_from_file_location("future_python", FUTURE_PYTHON / "sitecustomize.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # defines `changed`; changes nothing without the env variable
    return module


@contextlib.contextmanager
def shuffled_differently():
    """`random.Random.shuffle` orders cards differently inside the block (then restored),
    exactly as in a server started with `future_python_env`."""
    original = random.Random.shuffle
    random.Random.shuffle = _future_python().changed(original)
    try:
        yield
    finally:
        random.Random.shuffle = original


def future_python_env(mark: Path) -> dict:
    """Environment for a server process under the changed shuffle; it writes its pid to `mark`."""
    path = os.pathsep.join(p for p in (str(FUTURE_PYTHON), os.environ.get("PYTHONPATH")) if p)
    return {"PYTHONPATH": path, "OSAKA_FUTURE_PYTHON_MARK": str(mark)}


@dataclass
class LegacyGame:
    """One room as 0002-era code stored it, and what it must look like after the upgrade."""
    code: str
    status: str                       # waiting / playing / over
    tokens: list[str | None]          # by seat (None: a computer player's seat)
    bots: dict[int, str] = field(default_factory=dict)  # seat → level
    seed: int | None = None
    log: list[tuple[int, dict]] = field(default_factory=list)   # (seat, action JSON)
    state: engine.GameState | None = None                        # after the whole log
    events: list[list[dict]] = field(default_factory=list)       # per action


def new_game_v1(num_players: int, seed: int) -> engine.GameState:
    """A new game under rules version 1 (the rules of games stored before migration 0003)."""
    return engine.new_game(num_players, seed, rules_version=1)


def play_legacy(num_players: int, seed: int, steps: int | None, rng: random.Random):
    """Play `steps` random legal actions (None: to the end) with rules version 1 →
    (state, [(seat, action JSON)], [events per action])."""
    state = new_game_v1(num_players, seed)
    log, events = [], []
    while not engine.is_over(state) and (steps is None or len(log) < steps):
        seat = state.to_act
        action = rng.choice(engine.legal_actions(state, seat)).to_json()
        state, evs = engine.play(state, seat, action)
        log.append((seat, action))
        events.append(evs)
    return state, log, events


def make_game(rng: random.Random, status: str, players: int, steps: int | None = None,
              bots: dict[int, str] | None = None) -> LegacyGame:
    """A room of `players` seats: waiting, or a game played `steps` actions (None: to its end)."""
    bots = bots or {}
    tokens = [None if s in bots else new_token() for s in range(players)]
    game = LegacyGame(code=new_room_code(), status=status, tokens=tokens, bots=bots)
    if status != "waiting":
        game.seed = rng.randrange(1 << 62)
        game.state, game.log, game.events = play_legacy(players, game.seed, steps, rng)
        assert engine.is_over(game.state) == (status == "over")
    return game


def bot_to_act_game(rng: random.Random, players: int = 3) -> LegacyGame:
    """A game in progress whose next decision is a computer player's (seat 1, "easy")."""
    while True:
        game = make_game(rng, "playing", players, steps=rng.randrange(5, 30), bots={1: "easy"})
        if game.state.to_act == 1:
            return game


def build_at_0002(url: str, games: list[LegacyGame]) -> None:
    """Create the schema at migration 0002 and insert the games' rows as 0002-era code did."""
    command.upgrade(alembic_config(url), "0002")
    asyncio.run(_insert(url, games))


async def _insert(url: str, games: list[LegacyGame]) -> None:
    now = datetime.now(UTC).replace(tzinfo=None)
    db = create_async_engine(url)
    try:
        async with db.begin() as conn:
            for g in games:
                room_id = (await conn.execute(insert(Room.__table__).values(
                    code=g.code, public=False, status=g.status, created_at=now, active_at=now,
                    num_players=None if g.seed is None else len(g.tokens), seed=g.seed,
                    version=len(g.log), started_at=None if g.seed is None else now))).inserted_primary_key[0]
                await conn.execute(insert(Seat.__table__), [
                    {"room_id": room_id, "seat": s, "name": f"P{s}", "created_at": now,
                     "token_hash": None if t is None else hash_token(t), "bot_level": g.bots.get(s)}
                    for s, t in enumerate(g.tokens)])
                if g.log:
                    await conn.execute(insert(ActionRow.__table__), [
                        {"room_id": room_id, "version": v, "action_id": uuid.uuid4().hex,
                         "seat": seat, "action": action, "created_at": now}
                        for v, (seat, action) in enumerate(g.log, start=1)])
    finally:
        await db.dispose()
