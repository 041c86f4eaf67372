"""The review of every finished game (docs/protocol.md "Review", app/live/reviews.py): a real
server and database (SQLite, and PostgreSQL when TEST_DATABASE_URL is set), a game played to the
end by computer players in the people's seats."""
from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import httpx
import jsonschema
import pytest

from .helpers import Client, auth, create_room, join_room, start
from .rematch_helpers import bots_finish

SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "docs" / "record.schema.json").read_text())
FAST = {"REVIEW_SIMULATIONS": "4", "REVIEW_POLL_S": "600"}  # no poll: the end of the game wakes it


def wait_review(base: str, code: str, number: int = 1, timeout_s: float = 120) -> dict:
    """GET the review until it is ready (or failed)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        r = httpx.get(f"{base}/api/rooms/{code}/games/{number}/review")
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["status"] in ("pending", "running", "ready", "failed"), body
        if body["status"] in ("ready", "failed"):
            return body
        time.sleep(0.3)
    raise AssertionError("the review was not ready in time")


def room_with_people(base: str) -> tuple[str, str]:
    """A started room: two people and one easy computer player → (code, host token)."""
    host = create_room(base, "Ann", public=False)
    join_room(base, host["code"], "Bo")
    r = httpx.post(f"{base}/api/rooms/{host['code']}/bots", json={"level": "easy"}, headers=auth(host["token"]))
    assert r.status_code == 200, r.text
    start(base, host["code"], host["token"])
    return host["code"], host["token"]


def test_a_finished_game_gets_its_review_in_the_record_and_the_room_hears_it(own_servers):
    srv = own_servers(**FAST)
    code, host = room_with_people(srv.base_url)
    # while the game runs there is no review (R-info-3)
    assert httpx.get(f"{srv.base_url}/api/rooms/{code}/games/1/review").status_code == 409

    async def watch() -> list[dict]:
        spectator = await Client.open(srv.ws_url, code)
        try:
            await asyncio.to_thread(bots_finish, srv.base_url, code, host, [0, 1])
            ready = await spectator.wait(lambda m: m["type"] == "review" and m["status"] == "ready", timeout=120)
            assert ready["game"] == 1 and ready["progress"] == 100
            return [m for m in spectator.msgs if m["type"] == "review"]
        finally:
            await spectator.close()
    frames = asyncio.run(watch())
    assert all(set(m) == {"type", "game", "status", "progress"} for m in frames)  # a status, never the review
    progress = [m["progress"] for m in frames]
    assert progress == sorted(progress), progress           # it only goes forward
    body = wait_review(srv.base_url, code)
    assert body["status"] == "ready", body
    review = body["review"]
    record = httpx.get(f"{srv.base_url}/api/rooms/{code}/games/1/record.json").json()
    jsonschema.validate(record, SCHEMA)
    assert record["review"] == body                          # the download has it too
    computer = {p["seat"] for p in record["players"] if p["computer"]}
    people = [i for i, a in enumerate(record["actions"]) if a["seat"] not in computer]
    assert computer == {2}
    assert review["simulations"] == 4
    assert review["reviewed"] + review["forced"] == len(people)
    assert {d["seat"] for d in review["decisions"]} <= {0, 1}  # never the computer player's seat
    for d in review["decisions"]:
        assert record["actions"][d["index"]]["action"] == d["chosen"]
        assert abs(sum(d["chances"]) - 100) < 1
    assert [t["seat"] for t in review["totals"]] == [0, 1, 2]
    assert all(len(s["items"]) <= 3 for s in review["swings"])
    # the same record gives the same review (fixed seeds and simulations), here in-process
    from bots.review import review_game
    assert review_game(record, simulations=4) == review


def test_a_pending_review_is_taken_up_after_a_restart(own_servers):
    srv = own_servers(REVIEW_SIMULATIONS="0")      # this server computes no reviews
    code, host = room_with_people(srv.base_url)
    bots_finish(srv.base_url, code, host, [0, 1])
    assert httpx.get(f"{srv.base_url}/api/rooms/{code}/games/1/review").json()["status"] == "pending"
    srv.stop()
    again = own_servers(**FAST)
    assert wait_review(again.base_url, code)["status"] == "ready"


def test_no_review_of_a_game_that_is_not_there(server):
    code, _host = room_with_people(server.base_url)
    assert httpx.get(f"{server.base_url}/api/rooms/{code}/games/2/review").status_code == 404
    assert httpx.get(f"{server.base_url}/api/rooms/{code}/games/1/review").json()["error"]["code"] == "game_not_over"


@pytest.mark.postgresql_only
def test_the_review_frame_reaches_the_sockets_of_another_process(own_servers):
    a = own_servers(**FAST)
    b = own_servers(REVIEW_SIMULATIONS="0")        # only a computes; b's sockets must hear it
    code, host = room_with_people(a.base_url)

    async def watch() -> dict:
        there = await Client.open(b.ws_url, code)
        try:
            await asyncio.to_thread(bots_finish, a.base_url, code, host, [0, 1])
            return await there.wait(lambda m: m["type"] == "review" and m["status"] == "ready", timeout=120)
        finally:
            await there.close()
    assert asyncio.run(watch())["game"] == 1
