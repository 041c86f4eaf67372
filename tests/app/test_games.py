"""Whole games through the real server: 2, 3 and 4 seats played to the end over WebSockets,
with a spectator, and every frame checked for hidden information (R-info)."""
from __future__ import annotations

import asyncio
import random
import time

import httpx
import pytest

from .helpers import Client, check_no_secrets, new_game, pick_action

MAX_ACTIONS = 2000
# The server refuses floods (FLOOD_LIMIT: 60 messages per connection in 3 s, see
# docs/protocol.md); a client playing at machine speed paces itself below that, as bots must:
# in any 3 s at most PACE_BURST + 3 * PACE_RATE = 55 messages.
PACE_RATE, PACE_BURST = 15.0, 10.0


class Pace:
    """A client-side token bucket: `await wait()` before each message keeps under the limit."""

    def __init__(self) -> None:
        self.tokens, self.last = PACE_BURST, time.monotonic()

    async def wait(self) -> None:
        now = time.monotonic()
        self.tokens = min(PACE_BURST, self.tokens + (now - self.last) * PACE_RATE)
        self.last = now
        if self.tokens < 1.0:
            await asyncio.sleep((1.0 - self.tokens) / PACE_RATE)
            self.tokens, self.last = 1.0, time.monotonic()
        self.tokens -= 1.0


async def play_to_end(clients: list[Client], rng: random.Random, watchers: list[Client] = ()) -> dict:
    """Let the seat whose decision it is play a view-derived legal action until the game is over.

    Returns the final state message. Every action must be accepted on the first try."""
    version = (await clients[0].state())["version"]
    paces = {id(c): Pace() for c in clients}
    for _ in range(MAX_ACTIONS):
        view = (await clients[0].state(version))["view"]
        if view["phase"] == "over":
            break
        actor = clients[view["to_act"]]
        own = await actor.state(version)
        assert own["version"] == version
        mark = len(actor.msgs)
        action = pick_action(own["view"], rng)
        await paces[id(actor)].wait()
        await actor.act(version, action)
        reply = await actor.wait(lambda m: m["type"] == "error"
                                 or (m["type"] == "state" and m["version"] > version), start=mark)
        assert reply["type"] == "state", f"{action} refused: {reply}"
        version += 1
    else:
        pytest.fail("the game did not end")
    for c in list(clients) + list(watchers):
        await c.state(version)
    return await clients[0].state(version)


def hidden_while_running(base: str, code: str, tokens: list[str]) -> None:
    """No record, replay or list path tells anything of a running game (issue 12, R-info-3):
    not a hand, a VP total, the deck or the seed, to a seated player or anyone else."""
    for headers in [{}] + [{"Authorization": f"Bearer {t}"} for t in tokens]:
        for path in ("record.json", "record.txt", "replay"):
            r = httpx.get(f"{base}/api/rooms/{code}/games/1/{path}", headers=headers)
            assert r.status_code == 409 and r.json()["error"]["code"] == "game_not_over", r.text
        listed = httpx.get(f"{base}/api/rooms/{code}/games", headers=headers).json()
        assert listed["games"] == [] and listed["status"] == "playing"
    page = httpx.get(f"{base}/r/{code}/games/1")
    for word in ("hand", "deck", "seed", "vp_cards"):
        assert f'"{word}"' not in page.text


@pytest.mark.parametrize("players", [2, 3, 4])
def test_complete_game_through_the_protocol(server, players):
    code, tokens = new_game(server.base_url, players)

    async def scenario():
        clients = [await Client.open(server.ws_url, code, t, seat=i) for i, t in enumerate(tokens)]
        spectator = await Client.open(server.ws_url, code)
        for c in clients + [spectator]:
            await c.state(0)  # registered and synced before the first action
        hidden_while_running(server.base_url, code, tokens)
        final = await play_to_end(clients, random.Random(players), [spectator])
        view = final["view"]
        assert view["phase"] == "over" and view["winners"]
        assert all("vp" in p for p in view["players"])   # all VP totals revealed at the end
        # Every seat and the spectator end at the same version and public picture.
        spec = await spectator.state(final["version"])
        assert spec["version"] == final["version"] and spec["view"]["seat"] is None
        assert spec["view"]["winners"] == view["winners"]
        # Every frame anyone received hides what it must (R-info).
        for c in clients + [spectator]:
            for msg, raw in zip(c.msgs, c.raw):
                check_no_secrets(msg, raw, c.seat, tokens)
        # Each client saw one `event` per action, and the game_over event at the end.
        for c in clients + [spectator]:
            versions = [m["version"] for m in c.msgs if m["type"] == "event"]
            assert versions == list(range(1, final["version"] + 1))
            assert any(e["type"] == "game_over" for m in c.msgs if m["type"] == "event" for e in m["events"])
        for c in clients + [spectator]:
            await c.close()
        return final

    final = asyncio.run(scenario())
    room = httpx.get(f"{server.base_url}/api/rooms/{code}").json()
    assert room["status"] == "over" and room["version"] == final["version"]
    record = httpx.get(f"{server.base_url}/api/rooms/{code}/games/1/record.json").json()
    assert record["final_state"]["winners"] == final["view"]["winners"]
    assert len(record["actions"]) == final["version"]

    async def replay_viewer():
        # A finished game stays viewable: a late spectator gets history and the final state.
        late = await Client.open(server.ws_url, code)
        hist = await late.wait(lambda m: m["type"] == "history")
        st = await late.state(final["version"])
        await late.close()
        return hist, st, late

    hist, st, late = asyncio.run(replay_viewer())
    assert hist["version"] == final["version"]
    assert any(e["type"] == "game_over" for e in hist["events"])
    assert st["view"]["phase"] == "over"
    for msg, raw in zip(late.msgs, late.raw):
        check_no_secrets(msg, raw, None, tokens)
