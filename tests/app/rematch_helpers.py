"""A finished game fast: people seated, every seat played by easy computer players to the end."""
from __future__ import annotations

import time

import httpx

from .helpers import auth, create_room, join_room, start


def bots_finish(base: str, code: str, host_token: str, seats: list[int], timeout_s: float = 120) -> dict:
    """The host hands `seats` (people, not connected) to easy computer players; wait for the end."""
    for seat in seats:
        r = httpx.post(f"{base}/api/rooms/{code}/seats/{seat}/bot", json={"level": "easy"},
                       headers=auth(host_token))
        assert r.status_code == 200, r.text
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        room = httpx.get(f"{base}/api/rooms/{code}").json()
        if room["status"] == "over":
            return room
        time.sleep(0.2)
    raise AssertionError("the computer players did not finish the game")


def finished_room(base: str, people: int = 2, bots: int = 1) -> tuple[str, list[str]]:
    """A room whose first game is over: `people` seated persons (tokens by seat) and `bots` easy
    computer players; the people's seats were played by computer players."""
    host = create_room(base, "Host", public=False)
    code = host["code"]
    tokens = [host["token"]] + [join_room(base, code, f"Friend{i}")["token"] for i in range(1, people)]
    for _ in range(bots):
        r = httpx.post(f"{base}/api/rooms/{code}/bots", json={"level": "easy"}, headers=auth(host["token"]))
        assert r.status_code == 200, r.text
    start(base, code, host["token"])
    bots_finish(base, code, host["token"], list(range(people)))
    return code, tokens
