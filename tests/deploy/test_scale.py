"""The scale-out path for real (issue 14), with Docker: the image built from the Dockerfile and
docker-compose.yml's stack with three app replicas behind Caddy on PostgreSQL.

- a rolling restart of the three replicas (each container stopped with SIGTERM and started
  again in turn) while 6 rooms play through the proxy: nothing lost, no room waits over 2 s;
- a whole game whose sockets the proxy sends to one replica (room affinity, deploy/Caddyfile;
  `X-Osaka-Instance` tells which replica serves a socket), which is killed mid-game: its
  players reconnect through the proxy to another replica and nothing is lost (a room played
  across replicas at once: tests/deploy/test_replicas.py);
- every documented setting of .env reaches the app process in its container.

Skipped, with the reason, where Docker cannot run them (no daemon, no base image: see
docker_stack.py); the image is built and the stack started once for the module. About 2-4
minutes on a 2-core machine once the base images exist.
"""
from __future__ import annotations

import asyncio
import json
import random
import time

import httpx
import pytest

from tests.conftest import free_port

from .docker_stack import Stack, _run, docker_unavailable
from .replica_load import Load
from .support import proto
from .test_settings import COMPOSE_DEFAULTS, FIXED, SETTINGS, _changed

REPLICAS = 3


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    reason = docker_unavailable()
    if reason:
        print(f"\nSKIPPED the Docker scale-out tests: {reason}")
        pytest.skip(reason)
    env = {"OSAKA_BIND": "127.0.0.1", "OSAKA_PORT": str(free_port()), "OSAKA_HTTPS_PORT": str(free_port()),
           "POSTGRES_PASSWORD": "test-" + random.choice("abcdef") * 8, "BOT_DELAY_S": "0.2"}
    s = Stack(tmp_path_factory.mktemp("stack"), REPLICAS, env)
    try:
        yield s.up()
    finally:
        s.down()


def _instance(client: proto.Client) -> str:
    return client.ws.response.headers["X-Osaka-Instance"]


async def _open(stack: Stack, code: str, token: str | None, seat: int | None, avoid: set[str] = frozenset(),
                tries: int = 60) -> proto.Client:
    """A room socket through the proxy served by a replica not in `avoid` (after a replica was
    killed, the proxy may need a moment to drop it: Docker's DNS, re-read every second)."""
    for _ in range(tries):
        try:
            client = await proto.Client.open(stack.ws, code, token, seat=seat, open_timeout=30)
        except Exception:
            await asyncio.sleep(0.5)
            continue
        if _instance(client) not in avoid:
            return client
        await client.close()
        await asyncio.sleep(0.5)
    raise AssertionError(f"the proxy kept sending seat {seat} to {avoid}")


async def _play(clients: list[proto.Client], rng: random.Random, until_version: int | None = None) -> dict:
    """Whoever is to act plays a legal move, until `until_version` or the end; every client
    sees every new state. → the last state."""
    while True:
        state = (await clients[0].state(0))
        if state["view"]["phase"] == "over" or (until_version is not None and state["version"] >= until_version):
            return state
        mover = next(c for c in clients if c.seat == state["view"]["to_act"])
        mine = await mover.state(state["version"])
        await mover.act(mine["version"], proto.pick_action(mine["view"], rng))
        for c in clients:
            await c.state(mine["version"] + 1, timeout=30)


def test_a_rolling_restart_of_the_replicas_under_load_loses_nothing(stack: Stack):
    """Each app container in turn stopped (SIGTERM) and started again while 6 rooms of 4 play
    through the proxy (tests/deploy/replica_load.py): no seat is ever shown a version lower
    than one it saw, the database holds every version shown, no room waits more than 2 s."""
    async def scenario():
        load = Load(stack.http, 6)
        await load.start()
        try:
            await load.settle(3)
            began = time.monotonic()
            for container in stack.containers():
                await asyncio.to_thread(stack.restart, container)
                await load.settle(3)
            return load, began, time.monotonic()
        finally:
            await load.stop()

    load, began, end = asyncio.run(scenario())
    gaps = {room.code: room.longest_gap(began, end)[0] for room in load.rooms}
    print(f"rolling restart of {REPLICAS} containers in {end - began:.1f} s: the longest stall of a room "
          f"{max(gaps.values()):.2f} s; reconnects {sum(r.connects for r in load.rooms) - 4 * len(load.rooms)}")
    load.check_nothing_lost()
    assert max(gaps.values()) <= 2.0, gaps
    assert not load.errors, load.errors


def test_a_room_is_served_by_one_replica_and_survives_it_killed_mid_game(stack: Stack):
    code, tokens = proto.new_game(stack.http, 2)
    rng = random.Random(14)

    async def scenario():
        p0 = await _open(stack, code, tokens[0], 0)
        p1 = await _open(stack, code, tokens[1], 1)
        watcher = await _open(stack, code, None, None)
        on = {_instance(p0), _instance(p1), _instance(watcher)}
        assert len(on) == 1, on  # room affinity: the proxy sends a room's sockets to one replica
        home = on.pop()
        before = await _play([p0, p1], rng, until_version=12)
        # The room's replica dies (SIGKILL: no goodbye). Every socket of the room ends; the
        # players reconnect through the proxy, which sends them to a replica that lives.
        stack.kill(stack.instances()[home])
        for c in (p0, p1, watcher):
            await asyncio.wait_for(c.closed.wait(), 30)
        p0 = await _open(stack, code, tokens[0], 0, {home})
        p1 = await _open(stack, code, tokens[1], 1, {home})
        watcher = await _open(stack, code, None, None, {home})
        now = {_instance(p0), _instance(p1), _instance(watcher)}
        assert len(now) == 1, now
        back = await p0.state(0)
        assert back["version"] == before["version"], "every committed move is still there"
        assert back["view"]["to_act"] == before["view"]["to_act"] and back["view"]["turn"] == before["view"]["turn"]
        end = await _play([p0, p1], rng)
        assert end["view"]["phase"] == "over" and end["version"] > before["version"]
        seen = await watcher.state(end["version"], timeout=30)
        assert seen["version"] == end["version"] and seen["view"]["phase"] == "over"
        for c in (p0, p1, watcher):
            await c.close()
        return home, now.pop(), before["version"], end["version"]

    home, then, killed_at, final = asyncio.run(scenario())
    print(f"room on {home}, killed at version {killed_at}; then on {then}; game over at version {final}")
    room = httpx.get(f"{stack.http}/api/rooms/{code}", timeout=10).json()
    assert room["status"] == "over" and room["version"] == final


def test_every_containers_log_is_rotated(stack: Stack):
    """Docker itself rotates each container's log (compose's `logging`, docs/deploy.md "Logs"):
    the json-file driver with the defaults of .env.example, as `docker inspect` reports it."""
    for service in ("db", "app", "proxy"):
        for cid in stack.containers(service):
            config = json.loads(_run(["docker", "inspect", cid]).stdout)[0]["HostConfig"]["LogConfig"]
            assert config == {"Type": "json-file", "Config": {"max-size": "20m", "max-file": "5"}}, (service, config)


def test_every_env_setting_reaches_the_app_in_its_container(stack: Stack, tmp_path):
    """A .env that sets every documented server setting to a value other than its default:
    the app process in a container of this compose file reads each of them (app.config)."""
    values = {name: _changed(name) for name in set(SETTINGS) - FIXED}
    values["FORWARDED_ALLOW_IPS"] = "10.1.2.0/24"  # (its compose default is `*`: COMPOSE_DEFAULTS)
    assert set(COMPOSE_DEFAULTS) <= set(values)
    env_file = tmp_path / ".env"
    env_file.write_text("".join(f"{k}={v}\n" for k, v in {**stack.env, **values}.items()))
    out = stack.compose("run", "--rm", "--no-deps", "-T", "app", "python", "-c",
                        "from app.config import Settings; print(Settings().model_dump_json())",
                        env_file=env_file, timeout=300)
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    from app.config import Settings
    want = json.loads(Settings(**{SETTINGS[k]: v for k, v in values.items()}).model_dump_json())
    for name in values:
        assert seen[SETTINGS[name]] == want[SETTINGS[name]], (name, seen[SETTINGS[name]], want[SETTINGS[name]])
    assert seen["database_url"].startswith("postgresql+asyncpg://") and "@db:5432/" in seen["database_url"]


def test_a_domain_name_in_env_turns_on_https(stack: Stack, tmp_path):
    """OSAKA_DOMAIN set: Caddy serves that name over HTTPS (here `localhost`, for which Caddy
    issues the certificate from its own local authority instead of asking Let's Encrypt, which
    a test machine cannot reach) and redirects plain HTTP there; the app sees `https`
    (X-Forwarded-Proto), so seat cookies are Secure. Runs last: it recreates the proxy."""
    env_file = tmp_path / ".env"
    env_file.write_text("".join(f"{k}={v}\n" for k, v in {**stack.env, "OSAKA_DOMAIN": "localhost"}.items()))
    stack.compose("up", "-d", "--no-deps", "proxy", env_file=env_file)
    https = f"https://localhost:{stack.env['OSAKA_HTTPS_PORT']}"
    deadline = time.monotonic() + 120
    while True:
        try:
            r = httpx.get(https + "/healthz", verify=False, timeout=5)
            if r.status_code == 200:
                break
        except httpx.HTTPError:
            pass
        assert time.monotonic() < deadline, f"no HTTPS answer from Caddy:\n{stack.logs()}"
        time.sleep(0.5)
    assert r.json()["instance"] in stack.instances()
    plain = httpx.get(f"http://localhost:{stack.env['OSAKA_PORT']}/healthz", timeout=10)
    assert plain.status_code in (301, 308) and plain.headers["location"].startswith("https://localhost")
    created = httpx.post(https + "/api/rooms", json={"name": "Ada"}, verify=False, timeout=10)
    assert created.status_code == 201, created.text
    cookie = created.headers["set-cookie"]
    assert "secure" in cookie.lower(), cookie
