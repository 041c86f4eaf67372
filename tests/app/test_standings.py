"""The standings of a room's series (issue 32) through the real server, on SQLite and
PostgreSQL: three games in a row, each added up once it is over and never before (a spectator's
frames and the summary during game 2 say nothing of it: its VPs are hidden, R-info-3), in every
record up to and including its game, and the same after a restart (a new server, the same
database)."""
from __future__ import annotations

import asyncio
import json
from pathlib import Path

import httpx
import jsonschema

from .helpers import Client, auth, start
from .rematch_helpers import bots_finish, finished_room

SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "docs" / "record.schema.json").read_text())


def _next_game(base: str, code: str, tokens: list[str], n: int) -> None:
    for t in tokens:
        r = httpx.post(f"{base}/api/rooms/{code}/again", json={"game": n - 1}, headers=auth(t))
        assert r.status_code == 200, r.text
    start(base, code, tokens[0])


def _check_sums(base: str, code: str, standings: dict, n: int) -> None:
    """The standings of games 1..n are the sum of their records' results."""
    records = [httpx.get(f"{base}/api/rooms/{code}/games/{k}/record.json").json() for k in range(1, n + 1)]
    assert standings["games"] == n and standings["numbers"] == list(range(1, n + 1))
    rows = {p["name"]: p for p in standings["players"]}
    for i, rec in enumerate(records):
        jsonschema.validate(rec, SCHEMA)
        assert rec["standings"]["numbers"] == list(range(1, i + 2))  # up to and including its game
        for p in rec["players"]:
            assert rows[p["name"]]["by_game"][i] == rec["result"]["players"][p["seat"]]["vp"]
    for name, row in rows.items():
        won = [rec["result"] for rec in records
               if any(p["name"] == name and p["seat"] in rec["result"]["winners"] for p in rec["players"])]
        assert row["wins"] == sum(not r["shared"] for r in won) and row["shared_wins"] == sum(r["shared"] for r in won)
        assert row["vp"] == sum(v for v in row["by_game"] if v is not None) and row["played"] == n
        sales = [s for rec in records for p in rec["players"] if p["name"] == name
                 for s in rec["result"]["players"][p["seat"]]["sales"]]
        assert (row["best_sale"] or {}).get("vp") == max((s["vp"] for s in sales), default=None)
    assert records[-1]["standings"] == standings


def test_three_games_in_a_row_survive_a_restart(own_servers):
    a = own_servers(BOT_DELAY_S="0", BOT_TIME_BUDGET_S="0.05")
    base = a.base_url
    code, tokens = finished_room(base, people=2, bots=1)
    first = httpx.get(f"{base}/api/rooms/{code}").json()["standings"]
    _check_sums(base, code, first, 1)
    assert {p["name"] for p in first["players"]} == {"Host", "Friend1", "Computer (easy)"}
    assert [p["computer"] for p in first["players"] if p["name"] == "Computer (easy)"] == [True]

    # Game 2, watched by a spectator while it runs: nothing of it is in the standings before its end.
    _next_game(base, code, tokens, 2)

    async def watch_game_2():
        spectator = await Client.open(a.ws_url, code)
        try:
            await asyncio.to_thread(bots_finish, base, code, tokens[0], [0, 1])
            return await spectator.wait(lambda m: m["type"] == "room" and m["room"]["status"] == "over"
                                        and m["room"]["game"] == 2), spectator.msgs
        finally:
            await spectator.close()

    end, frames = asyncio.run(watch_game_2())
    during = [m["room"] for m in frames if m["type"] == "room" and m["room"]["status"] != "over"]
    assert during and all(r["standings"] == first for r in during)
    assert any(m["type"] == "event" and any(e["type"] == "sale" for e in m["events"]) for m in frames)
    second = end["room"]["standings"]
    _check_sums(base, code, second, 2)

    _next_game(base, code, tokens, 3)
    assert httpx.get(f"{base}/api/rooms/{code}").json()["standings"] == second  # game 3 in play
    third = bots_finish(base, code, tokens[0], [0, 1])["standings"]
    _check_sums(base, code, third, 3)
    text = httpx.get(f"{base}/api/rooms/{code}/games/3/record.txt").text
    assert "Standings after 3 games in this room" in text

    a.stop()
    b = own_servers()
    assert httpx.get(f"{b.base_url}/api/rooms/{code}").json()["standings"] == third
    assert httpx.get(f"{b.base_url}/api/rooms/{code}/games/2/record.json").json()["standings"] == second
