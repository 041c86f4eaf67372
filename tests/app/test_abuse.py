"""Abuse on a public server (issue 17): one address spamming rooms cannot hide a real room or
fill the database; joins are limited; rooms nobody used go away within minutes. Addresses
are told apart by X-Forwarded-For, which the server honours from 127.0.0.1 (the default
FORWARDED_ALLOW_IPS), as it would from a reverse proxy."""
from __future__ import annotations

import asyncio
import time

import httpx
import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import create_async_engine

from app.config import Settings
from app.models import Room, Seat
from app.ratelimit import address_hash

from .helpers import Client, auth, create_room, join_room

# Each test has addresses of its own: the session's database is shared by the tests.
SPAMMER, REAL, OTHER = "203.0.113.66", "198.51.100.7", "2001:db8:5:6::1"
SPAM_SECONDS = 5.0
# The shipped defaults (app/config.py), which the session's server turns off (tests/conftest.py).
DEFAULTS = {name.upper(): str(Settings.model_fields[name].default)
            for name in ("room_create_limit", "room_join_limit", "rooms_per_address",
                         "lobby_rooms_per_address")}


def xff(address: str) -> dict:
    """Headers of a request that a trusted proxy forwarded for `address`."""
    return {"X-Forwarded-For": address}


def rows(database_url: str, address: str) -> tuple[int, int]:
    """(rooms, seats) stored for rooms that `address` created and that still wait."""
    async def count():
        engine = create_async_engine(database_url)
        try:
            async with engine.connect() as db:
                mine = Room.creator_hash == address_hash(address)
                rooms = await db.scalar(select(func.count(Room.id)).where(mine))
                seats = await db.scalar(select(func.count(Seat.id)).join(Room).where(mine))
                return rooms, seats
        finally:
            await engine.dispose()
    return asyncio.run(count())


def refused(r: httpx.Response, code: str = "rate_limited") -> int:
    """Check a 429 answer: the code, `Retry-After` and `retry_after_s` agree; → the seconds."""
    assert r.status_code == 429, r.text
    err = r.json()["error"]
    assert err["code"] == code and err["message"]
    assert int(r.headers["retry-after"]) == err["retry_after_s"] >= 1
    return err["retry_after_s"]


def test_spam_loop_leaves_a_real_room_findable_and_the_database_bounded(server_factory, migrated_url):
    srv = server_factory(**DEFAULTS)
    real = httpx.post(srv.base_url + "/api/rooms", json={"name": "Real", "public": True}, headers=xff(REAL))
    assert real.status_code == 201
    real = real.json()

    async def spam() -> list[httpx.Response]:
        """One address creating public rooms as fast as it can (8 at once) for SPAM_SECONDS."""
        answers: list[httpx.Response] = []
        deadline = time.monotonic() + SPAM_SECONDS
        async with httpx.AsyncClient(base_url=srv.base_url, timeout=30, headers=xff(SPAMMER)) as http:
            async def worker(i: int):
                n = 0
                while time.monotonic() < deadline:
                    answers.append(await http.post("/api/rooms", json={"name": f"Spam{i}-{n}"}))
                    n += 1
            await asyncio.gather(*(worker(i) for i in range(8)))
        return answers

    async def scenario():
        host = await Client.open(srv.ws_url, real["code"], real["token"], seat=0)
        await host.wait(lambda m: m["type"] == "room")
        answers = await spam()
        made = [r.json() for r in answers if r.status_code == 201]
        # The spammer even sits in every room it made: still at most 5 of them in the lobby.
        spam_hosts = [await Client.open(srv.ws_url, m["code"], m["token"], seat=0) for m in made]
        for c in spam_hosts:
            await c.wait(lambda m: m["type"] == "room")
        await asyncio.sleep(1.0)  # the lobby feed coalesces changes (0.5 s)
        lobby = (await asyncio.to_thread(httpx.get, srv.base_url + "/api/rooms")).json()
        for c in [host, *spam_hosts]:
            await c.close()
        return answers, made, lobby

    answers, made, lobby = asyncio.run(scenario())
    assert len(answers) > 50, "the loop did not run"
    assert len(made) == 10  # ROOM_CREATE_LIMIT: 10 a minute
    assert all(refused(r) <= 60 for r in answers if r.status_code != 201)
    codes = [r["code"] for r in lobby]
    assert real["code"] in codes
    assert len({m["code"] for m in made} & set(codes)) == 5  # LOBBY_ROOMS_PER_ADDRESS
    assert codes[:2].count(real["code"]) == 1  # one of the two first places: one per address first
    assert rows(migrated_url, SPAMMER) == (10, 10)
    # Another address is not held back by the spammer's limit.
    assert httpx.post(srv.base_url + "/api/rooms", json={"name": "Other"}, headers=xff(OTHER)).status_code == 201


def test_joins_are_limited_per_address(server_factory):
    srv = server_factory(ROOM_JOIN_LIMIT="3/minute")
    rooms = [create_room(srv.base_url, f"Host{i}")["code"] for i in range(3)]

    def join(code: str, name: str, address: str) -> httpx.Response:
        return httpx.post(f"{srv.base_url}/api/rooms/{code}/join", json={"name": name}, headers=xff(address))

    for name in ("A", "B", "C"):
        assert join(rooms[0], name, "203.0.113.70").status_code == 200
    assert 50 <= refused(join(rooms[1], "D", "203.0.113.70")) <= 60
    # An IPv6 address counts by its /64: the whole /64 shares one budget.
    for i in range(3):
        assert join(rooms[1], f"V{i}", f"2001:db8:7:8::{i + 10}").status_code == 200
    refused(join(rooms[2], "W", "2001:db8:7:8:ffff::1"))
    assert join(rooms[2], "W", "2001:db8:7:9::1").status_code == 200  # the next /64
    assert join(rooms[2], "X", "198.51.100.70").status_code == 200


def test_guessing_room_codes_is_limited_per_address(server_factory):
    """Codes of no room (404) count per address (ROOM_LOOKUP_LIMIT); past the limit every
    lookup of that address is refused, a real room's too (a 200 would tell the guesser it hit),
    while other addresses and their rooms are unaffected (issue 28)."""
    srv = server_factory(ROOM_LOOKUP_LIMIT="5/minute")
    real = create_room(srv.base_url, "Host")["code"]
    guesser, other = "203.0.113.80", "198.51.100.80"

    def look(code: str, address: str) -> httpx.Response:
        return httpx.get(f"{srv.base_url}/api/rooms/{code}", headers=xff(address))

    for _ in range(3):  # known rooms do not count
        assert look(real, guesser).status_code == 200
    guesses = [f"ZZZZZZZZZ{c}" for c in "23456789"]
    answers = [look(code, guesser).status_code for code in guesses]
    assert answers[:5] == [404] * 5 and answers[5:] == [429] * 3
    assert 50 <= refused(look(real, guesser)) <= 60
    assert 50 <= refused(httpx.post(f"{srv.base_url}/api/rooms/{guesses[0]}/join", json={"name": "G"},
                                    headers=xff(guesser))) <= 60
    assert look(real, other).status_code == 200 and look(guesses[0], other).status_code == 404


def test_an_address_holds_a_bounded_number_of_waiting_rooms(server_factory, migrated_url):
    srv = server_factory(ROOMS_PER_ADDRESS="3")
    holder = "203.0.113.80"
    made = []
    for i in range(3):
        r = httpx.post(srv.base_url + "/api/rooms", json={"name": f"W{i}"}, headers=xff(holder))
        assert r.status_code == 201, r.text
        made.append(r.json())
    r = httpx.post(srv.base_url + "/api/rooms", json={"name": "W3"}, headers=xff(holder))
    assert 1 <= refused(r, "too_many_rooms") <= Settings().unused_room_ttl_s
    assert rows(migrated_url, holder)[0] == 3
    # A started game no longer counts: the address may open a new room.
    join_room(srv.base_url, made[0]["code"], "Guest")
    r = httpx.post(f"{srv.base_url}/api/rooms/{made[0]['code']}/start", headers=auth(made[0]["token"]))
    assert r.status_code == 200
    assert httpx.post(srv.base_url + "/api/rooms", json={"name": "W4"}, headers=xff(holder)).status_code == 201


def test_forwarded_for_from_an_untrusted_peer_is_ignored(server_factory):
    # 127.0.0.1 is not a trusted proxy here: every request counts as 127.0.0.1, whatever it claims.
    srv = server_factory(ROOM_CREATE_LIMIT="2/minute", FORWARDED_ALLOW_IPS="192.0.2.1")
    answers = [httpx.post(srv.base_url + "/api/rooms", json={"name": "X"}, headers=xff(f"198.51.100.{i}"))
               for i in range(3)]
    assert [r.status_code for r in answers] == [201, 201, 429]


def test_rooms_nobody_used_are_deleted_within_the_unused_ttl(server_factory):
    srv = server_factory(UNUSED_ROOM_TTL_S="2", CLEANUP_INTERVAL_S="0.2")
    visited = create_room(srv.base_url, "Visited")

    async def visit():
        c = await Client.open(srv.ws_url, visited["code"], visited["token"], seat=0)
        await c.wait(lambda m: m["type"] == "room")
        await c.close()
    asyncio.run(visit())
    unused = create_room(srv.base_url, "Nobody")
    joined = create_room(srv.base_url, "Joined")
    join_room(srv.base_url, joined["code"], "Guest")
    bots_only = create_room(srv.base_url, "BotsOnly")  # a game started without anyone connecting
    r = httpx.post(f"{srv.base_url}/api/rooms/{bots_only['code']}/bots", json={"level": "easy"},
                   headers=auth(bots_only["token"]))
    assert r.status_code == 200
    assert httpx.post(f"{srv.base_url}/api/rooms/{bots_only['code']}/start",
                      headers=auth(bots_only["token"])).status_code == 200

    def status(room: dict) -> int:
        return httpx.get(f"{srv.base_url}/api/rooms/{room['code']}").status_code

    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and (status(unused), status(bots_only)) != (404, 404):
        time.sleep(0.2)
    assert (status(unused), status(bots_only)) == (404, 404)
    time.sleep(2.5)  # past the unused TTL once more: the others stay
    assert (status(joined), status(visited)) == (200, 200)


@pytest.mark.postgresql_only
def test_the_waiting_room_cap_holds_across_processes(server_factory):
    a, b = server_factory(ROOMS_PER_ADDRESS="2"), server_factory(ROOMS_PER_ADDRESS="2")
    for srv in (a, b):
        r = httpx.post(srv.base_url + "/api/rooms", json={"name": "P"}, headers=xff("203.0.113.90"))
        assert r.status_code == 201, r.text
    for srv in (a, b):
        refused(httpx.post(srv.base_url + "/api/rooms", json={"name": "P"}, headers=xff("203.0.113.90")),
                "too_many_rooms")
