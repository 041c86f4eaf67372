"""The standings of a room's series: its finished games added up per seat name.

A room that plays again keeps its series (docs/rules.md "The standings"): per name (a person by
the name they sat with, a computer player by its shown name, app/records.py `_players_of`)
games played, wins, shared wins (R-end-2: all tied on VPs and tokens win; counted apart),
the VPs of each game, their total and average, and the best single sale (most VPs; its value
in coins is 5 × its VPs, R-pay-1).

Only finished games count: the facts of a game (`game_facts`) are made from its final state and
its public sale events when it is stored as its `games` row (`games.facts`), and the series
(`series`) is kept on the room (`rooms.standings`, rewritten by `refresh` in the transaction that
stores the row), so a room summary reads it without any query and nothing of the game in play
is in it (R-info-3). Every function that takes a session never commits.
"""
from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import undefer

import engine

from .models import GameRow, Room


def game_facts(number: int, players: list[dict], state: dict, events: Iterable[dict]) -> dict:
    """What one finished game adds to the standings → `{"game": number, "shared": bool,
    "players": [{"seat", "name", "computer", "vp", "win", "best_sale"}]}`.

    `players`: the record's players (`{"seat", "name", "computer", …}`, app/records.py);
    `state`: the final state's JSON; `events`: the game's events (only the public `sale`
    events are read: `engine.game_result`). `win`: the seat is among the winners (R-end-2;
    `shared` when there are several); `best_sale`: `{"vp", "value", "color"}` of the seat's
    sale with the most VPs (the first of equal ones), or None without a sale. A game the rules
    do not call over (a room set `over` by hand in its database) adds nothing: `{"game": number,
    "shared": False, "players": [], "finished": False}`, which `series` leaves out."""
    final = engine.GameState.from_json(state)
    if not engine.is_over(final):
        return {"game": number, "shared": False, "players": [], "finished": False}
    result = engine.game_result(final, events)
    winners = set(result["winners"])
    out = []
    for p in sorted(players, key=lambda p: p["seat"]):
        if p["seat"] >= len(result["players"]):
            continue
        r = result["players"][p["seat"]]
        best = max(r["sales"], key=lambda s: s["vp"], default=None)
        out.append({"seat": p["seat"], "name": p["name"], "computer": bool(p.get("computer")), "vp": r["vp"],
                    "win": p["seat"] in winners,
                    "best_sale": None if best is None else {k: best[k] for k in ("vp", "value", "color")}})
    return {"game": number, "shared": result["shared"], "players": out}


def series(facts: list[dict]) -> dict | None:
    """The standings of games' facts (`game_facts`, any order) → None without any, else
    `{"games": count, "numbers": [game numbers, oldest first], "players": [{"name", "computer",
    "played", "wins", "shared_wins", "vp", "vp_per_game", "by_game", "best_sale"}]}`.

    `wins` counts the games a name won alone, `shared_wins` those it won with others (R-end-2);
    `vp` the VPs of all its games, `vp_per_game` their mean (2 decimals), `by_game` its VPs per
    game of `numbers` (null where it did not play); `best_sale` `{"game", "vp", "value",
    "color"}`: its sale with the most VPs over the series (the earliest of equal ones), or null.
    Players sorted by wins, then shared wins, then VPs per game, then the name."""
    facts = sorted((f for f in facts if f.get("finished", True)), key=lambda f: f["game"])
    if not facts:
        return None
    rows: dict[str, dict] = {}
    for i, f in enumerate(facts):
        for p in f["players"]:
            row = rows.setdefault(p["name"], {"name": p["name"], "computer": p["computer"], "played": 0, "wins": 0,
                                              "shared_wins": 0, "vp": 0, "by_game": [None] * len(facts),
                                              "best_sale": None})
            row["played"] += 1
            row["vp"] += p["vp"]
            row["by_game"][i] = p["vp"]
            if p["win"]:
                row["shared_wins" if f["shared"] else "wins"] += 1
            sale = p["best_sale"]
            if sale is not None and (row["best_sale"] is None or sale["vp"] > row["best_sale"]["vp"]):
                row["best_sale"] = {"game": f["game"], **sale}
    for row in rows.values():
        row["vp_per_game"] = round(row["vp"] / row["played"], 2)
    players = sorted(rows.values(), key=lambda r: (-r["wins"], -r["shared_wins"], -r["vp_per_game"], r["name"]))
    return {"games": len(facts), "numbers": [f["game"] for f in facts], "players": players}


async def _facts(session: AsyncSession, room_id: int, upto: int | None = None) -> list[dict]:
    """The facts of the room's `games` rows (numbers up to `upto`); a row stored without them
    (none should be: migration 0012 filled them in) gets them from its log now, once."""
    q = select(GameRow.id, GameRow.number, GameRow.facts).where(GameRow.room_id == room_id)
    if upto is not None:
        q = q.where(GameRow.number <= upto)
    out = []
    for row_id, number, facts in (await session.execute(q.order_by(GameRow.number))).all():
        if facts is None:
            g = await session.scalar(select(GameRow).where(GameRow.id == row_id)
                                     .options(undefer(GameRow.log), undefer(GameRow.final_state)))
            facts = game_facts(number, g.players, g.final_state, (e for a in g.log for e in a["events"]))
            await session.execute(update(GameRow).where(GameRow.id == row_id).values(facts=facts))
        out.append(facts)
    return out


async def refresh(session: AsyncSession, room_id: int) -> dict | None:
    """Rewrite the room's `standings` from its stored games (after one was stored: app/records.py
    `store_game`) → the new standings. Two statements (the rows' facts, the room's UPDATE)."""
    standings = series(await _facts(session, room_id))
    await session.execute(update(Room).where(Room.id == room_id).values(standings=standings)
                          .execution_options(synchronize_session=False))
    return standings


async def upto(session: AsyncSession, room_id: int, number: int, current: dict | None = None) -> dict | None:
    """The standings of the room's series up to and including game `number` (its record):
    the stored games' facts up to it, plus `current` (that game's facts when it is not stored
    as a row yet: over, not compacted)."""
    facts = [f for f in await _facts(session, room_id, number) if current is None or f["game"] != current["game"]]
    return series(facts + ([current] if current is not None else []))
