"""Play again and the record of a game (issue 12) through the real server, on SQLite and
PostgreSQL: records only after the end, exactly one new game however many requests cross,
the finished game kept and downloadable, the next game playable from version 0."""
from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import httpx
import jsonschema
import pytest

from .helpers import auth, start
from .rematch_helpers import bots_finish, finished_room

SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "docs" / "record.schema.json").read_text())


def again(base: str, code: str, token: str, game: int | None = 1) -> httpx.Response:
    return httpx.post(f"{base}/api/rooms/{code}/again", json={} if game is None else {"game": game},
                      headers=auth(token))


async def crossed(bases: list[str], code: str, tokens: list[str], per_token: int) -> list[httpx.Response]:
    """Every token sends `per_token` play-again requests at once, spread over the servers."""
    async with httpx.AsyncClient(timeout=30) as client:
        calls = [client.post(f"{bases[(i + k) % len(bases)]}/api/rooms/{code}/again", json={"game": 1},
                             headers=auth(t))
                 for k in range(per_token) for i, t in enumerate(tokens)]
        return await asyncio.gather(*calls)


def check_one_rematch(base: str, code: str, answers: list[httpx.Response]) -> dict:
    assert all(r.status_code == 200 for r in answers), [r.text for r in answers]
    assert sum(r.json()["new"] for r in answers) == 1
    assert {r.json()["game"] for r in answers} == {2}
    room = httpx.get(f"{base}/api/rooms/{code}").json()
    assert room["status"] == "waiting" and room["game"] == 2 and room["version"] == 0
    games = httpx.get(f"{base}/api/rooms/{code}/games").json()
    assert [g["number"] for g in games["games"]] == [1] and games["current"] == 2
    return room


def test_records_only_after_the_end_and_valid(server):
    base = server.base_url
    code, tokens = finished_room(base, people=1, bots=2)
    rec = httpx.get(f"{base}/api/rooms/{code}/games/1/record.json")
    assert rec.status_code == 200 and "attachment" in rec.headers["content-disposition"]
    record = rec.json()
    jsonschema.validate(record, SCHEMA)
    assert record["game"] == 1 and record["num_players"] == 3
    assert [a["version"] for a in record["actions"]] == list(range(1, len(record["actions"]) + 1))
    # A person keeps their name (not a computer player, even when one held the seat at the end);
    # the host's computer players are named as the table names them, told apart by seat.
    assert record["players"][0]["name"] == "Host" and record["players"][0]["computer"] is False
    assert [(p["name"].split(" (")[0], p["computer"]) for p in record["players"][1:]] == [
        ("Computer 2", True), ("Computer 3", True)]
    text = httpx.get(f"{base}/api/rooms/{code}/games/1/record.txt")
    assert text.status_code == 200 and text.headers["content-type"].startswith("text/plain")
    assert "Host" in text.text and "Winner" in text.text
    assert "seat 2: Computer 2 (easy) (computer player, easy)" not in text.text and "seat 2: Computer 2 (" in text.text and "Bot (" not in text.text
    rep = httpx.get(f"{base}/api/rooms/{code}/games/1/replay").json()
    assert rep["verified"] and len(rep["steps"]) == len(record["actions"]) + 1
    last = rep["steps"][-1]["view"]
    assert all("hand" in p and "vp" in p for p in last["players"])
    assert [p["vp"] for p in last["players"]] == [p["vp"] for p in record["result"]["players"]]
    assert httpx.get(f"{base}/api/rooms/{code}/games/2/record.json").json()["error"]["code"] == "game_not_found"

    # The next game: before its end nothing of it is in any record, replay or list.
    assert again(base, code, tokens[0]).json()["new"] is True
    start(base, code, tokens[0])
    for path in ("record.json", "record.txt", "replay"):
        r = httpx.get(f"{base}/api/rooms/{code}/games/2/{path}")
        assert r.status_code == 409 and r.json()["error"]["code"] == "game_not_over"
    games = httpx.get(f"{base}/api/rooms/{code}/games").json()
    assert games["status"] == "playing" and [g["number"] for g in games["games"]] == [1]
    # The finished game stays as it was (but for its review, computed in the background after
    # the end: its status moves on by itself; tests/app/test_reviews.py checks it).
    kept = httpx.get(f"{base}/api/rooms/{code}/games/1/record.json").json()
    assert {**kept, "review": None} == {**record, "review": None}
    r = again(base, code, tokens[0], game=2)
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_not_over"
    over = bots_finish(base, code, tokens[0], [0])
    assert over["game"] == 2
    second = httpx.get(f"{base}/api/rooms/{code}/games/2/record.json").json()
    jsonschema.validate(second, SCHEMA)
    assert second["seed"] != record["seed"] and second["actions"][0]["version"] == 1


def test_crossed_play_again_makes_one_game(server):
    base = server.base_url
    code, tokens = finished_room(base, people=3, bots=1)
    answers = asyncio.run(crossed([base], code, tokens + tokens[1:2], per_token=3))
    room = check_one_rematch(base, code, answers)
    # Same seats, people back in their seats (no longer computer players), the bot kept; all in.
    assert [(p["name"], p["bot"], p["ready"]) for p in room["players"]] == [
        ("Host", False, True), ("Friend1", False, True), ("Friend2", False, True), ("Bot (easy)", True, True)]
    # A late repeat of the old click changes nothing.
    late = again(base, code, tokens[1])
    assert late.status_code == 200 and late.json() == {"game": 2, "status": "waiting", "new": False}
    # Leaving: the seat is free; the host cannot leave; a gap must be filled before the start.
    assert httpx.post(f"{base}/api/rooms/{code}/leave", headers=auth(tokens[0])).json()["error"]["code"] \
        == "host_cannot_leave"
    assert httpx.post(f"{base}/api/rooms/{code}/leave", headers=auth(tokens[1])).json() == {"seat": 1}
    r = httpx.post(f"{base}/api/rooms/{code}/start", headers=auth(tokens[0]))
    assert r.status_code == 409 and r.json()["error"] == {**r.json()["error"], "code": "seat_empty", "seat": 1}
    newcomer = httpx.post(f"{base}/api/rooms/{code}/join", json={"name": "Late"}).json()
    assert newcomer["seat"] == 1
    start(base, code, tokens[0])
    room = httpx.get(f"{base}/api/rooms/{code}").json()
    # A new log from version 0 (the computer player may already have chosen its token).
    played = len(httpx.get(f"{base}/api/rooms/{code}/games/1/record.json").json()["actions"])
    assert room["status"] == "playing" and room["game"] == 2 and room["version"] < min(played, 4)
    assert again(base, code, tokens[2]).json()["error"]["code"] == "game_started"


@pytest.mark.postgresql_only
def test_crossed_play_again_across_two_processes(server_factory):
    a, b = server_factory(), server_factory()
    code, tokens = finished_room(a.base_url, people=3, bots=0)
    answers = asyncio.run(crossed([a.base_url, b.base_url], code, tokens, per_token=4))
    check_one_rematch(b.base_url, code, answers)
    # Both processes start the next game from version 0.
    start(b.base_url, code, tokens[0])
    for srv in (a, b):
        room = httpx.get(f"{srv.base_url}/api/rooms/{code}").json()
        assert room["status"] == "playing" and room["version"] == 0


def test_a_room_waiting_to_play_again_keeps_its_finished_games(server_factory):
    """Idle waiting rooms are deleted after ROOM_TTL_S, but not one that waits for its second
    game: it holds the first one, and finished games are kept (docs/protocol.md)."""
    srv = server_factory(ROOM_TTL_S="2", CLEANUP_INTERVAL_S="0.2")
    code, tokens = finished_room(srv.base_url, people=1, bots=1)
    assert again(srv.base_url, code, tokens[0]).json()["new"] is True
    idle = httpx.post(srv.base_url + "/api/rooms", json={"name": "Idle", "public": False}).json()["code"]
    httpx.post(f"{srv.base_url}/api/rooms/{idle}/join", json={"name": "Other"})  # used once, then idle
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and httpx.get(f"{srv.base_url}/api/rooms/{idle}").status_code != 404:
        time.sleep(0.2)
    assert httpx.get(f"{srv.base_url}/api/rooms/{idle}").status_code == 404   # the cleanup ran
    assert httpx.get(f"{srv.base_url}/api/rooms/{code}").json()["status"] == "waiting"
    assert httpx.get(f"{srv.base_url}/api/rooms/{code}/games/1/record.json").status_code == 200
