"""Deciding for a seat is written once (app/live decider): the computer players and the turn
timers share it, its worker pool is its own (app/live/workers.py), and a refused choice falls back on a random
legal action in one place. Statically (every module of app/live) and with a real worker
process, the real action path and SQLite in process."""
from __future__ import annotations

import ast
import asyncio
import uuid
from pathlib import Path

import engine
from inprocess import running
from test_import_graph import imports_of, modules
from test_timers import started_room

LIVE = Path(__file__).resolve().parents[2] / "app" / "live"


def _live_modules() -> dict[str, tuple[Path, ast.AST]]:
    return {name: (path, ast.parse(path.read_text())) for name, path in modules().items()
            if name.startswith("app.live")}


def _defining(cls: str) -> str:
    """The app.live module that defines class `cls`."""
    found = [name for name, (_, tree) in _live_modules().items()
             if any(isinstance(n, ast.ClassDef) and n.name == cls for n in tree.body)]
    assert len(found) == 1, (cls, found)
    return found[0]


def _calling(func: str) -> set[str]:
    """The app.live modules that call `func` (as `func(…)` or `x.func(…)`)."""
    out = set()
    for name, (_, tree) in _live_modules().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                f = node.func
                if (isinstance(f, ast.Name) and f.id == func) or (isinstance(f, ast.Attribute) and f.attr == func):
                    out.add(name)
    return out


def test_the_decision_for_a_seat_is_written_once():
    decider = _defining("Decider")
    assert _calling("legal_actions") == {decider}        # the fallback
    # Worker processes are started in one place; the decisions have a pool of their own (the
    # reviews another, so a review never holds a worker a decision waits for).
    assert _calling("ProcessPoolExecutor") == {"app.live.workers"}
    assert decider in _calling("WorkerPool") and _defining("Reviews") in _calling("WorkerPool")
    mods = modules()
    timers, bots = _defining("TurnTimers"), _defining("BotDriver")
    uses = imports_of(timers, mods[timers], set(mods))
    assert decider in uses and bots not in uses          # the turn timers borrow nothing of the bots
    assert decider in imports_of(bots, mods[bots], set(mods))


def test_a_refused_choice_falls_back_on_a_random_legal_action_unless_the_game_moved(settings):
    async def scenario():
        async with running(settings) as (live, http):
            code, _ = await started_room(http, 2, None)
            async with live.tables.hold(code) as held:
                held.publish(await held.sync())
                table = held.table
                seat, version = table.state.to_act, table.version
                view, history, state = table.view(seat), table.history(seat), table.state
            tried: list[dict] = []

            async def submit(action: dict) -> bool:
                tried.append(action)
                if len(tried) == 1:
                    return False  # the computer player's own choice is refused
                return await live.act(code, seat, uuid.uuid4().hex, version, action)

            assert await live.decider.decide(code, seat, version, "easy", view, history, state, submit) is True
            assert len(tried) == 2 and tried[1] in [a.to_json() for a in engine.legal_actions(state, seat)]
            assert live.tables.get(code).version == version + 1
            tried.clear()  # the same decision again: refused, and the game has moved on since
            assert await live.decider.decide(code, seat, version, "easy", view, history, state, submit) is None
            assert len(tried) == 1
    asyncio.run(scenario())


def test_the_hard_players_floor_of_simulations_reaches_the_worker(settings, monkeypatch):
    """BOT_MIN_SIMULATIONS goes with every decision and hint to the worker, where the hard
    player thinks past its budget until it has run them (bots.hard.search `min_simulations`)."""
    from app.live.computer import decide
    from bots import choose_action

    state = engine.new_game(3, 11)
    view = engine.player_view(state, state.to_act)
    # In the worker: no time at all and a floor of 30 is the move of exactly 30 simulations.
    floored = decide.choose_in_worker(view, "hard", [], 5, 0.0, 30)
    assert floored == choose_action(view, "hard", history=[], seed=5, time_budget_s=60.0, max_simulations=30)
    asked = []

    async def record(fn, *args):
        asked.append((fn.__name__, args[-1]))
        return {"type": "pass"}

    async def scenario():
        async with running(settings.model_copy(update={"bot_min_simulations": 77})) as (live, _http):
            monkeypatch.setattr(live.decider.pool, "run", record)
            await live.decider.choose(view, "hard", [], 1)
            await live.decider.suggest(view, [], 0.2)
    asyncio.run(scenario())
    assert asked == [("choose_in_worker", 77), ("suggest_in_worker", 77)]
