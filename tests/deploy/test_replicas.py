"""Replicas that add capacity, as plain processes behind Caddy (issue 33): three `osaka serve`
on one PostgreSQL database behind Caddy run with the project's own deploy/Caddyfile
(app/testing/caddy.py), 12 rooms of 4 players playing through it (replica_load.py).

- Room affinity: every action of a room is applied by one replica (the proxy routes by the
  room code), so the others never read it back.
- A replica killed under load (SIGKILL): no committed action is lost and every one of its
  rooms moves on at another replica within 2 s.
- A rolling restart (each replica in turn stopped with SIGTERM and started again, as
  `docker compose` does it) under load: nothing lost, no room stalled more than 2 s.
- A room split between two replicas (a replica came back) moves its routed sockets to where
  the proxy sends the room now (app/live/fanout/affinity.py, close 4307); a socket that did
  not come through such a proxy is never moved, and the split room still plays.

PostgreSQL only (several processes on one database); needs Debian's `caddy` (`make test`
installs it). About a minute in all.
"""
from __future__ import annotations

import asyncio
import random
import shutil
import time

import pytest
from websockets.asyncio.client import connect

from app.live.fanout.affinity import MOVED_CLOSE_CODE
from app.testing.caddy import CaddyProcess
from tests.conftest import Server

from .replica_load import Load, applied_rooms
from .support import proto

pytestmark = pytest.mark.postgresql_only
REPLICAS = 3
ROOMS = 12
MAX_STALL_S = 2.0


class Cluster:
    """Replicas and the proxy in front of them."""

    def __init__(self, replicas: list[Server], proxy: CaddyProcess):
        self.replicas = replicas
        self.proxy = proxy
        self.base = proxy.base_url

    def serving(self) -> list[dict[str, int]]:
        """Per replica: room code → actions it applied (its log)."""
        return [applied_rooms(r.log_tail(10 ** 9)) for r in self.replicas]

    def owner(self, code: str) -> list[int]:
        """The replicas that applied actions of room `code`."""
        return [i for i, rooms in enumerate(self.serving()) if code in rooms]


@pytest.fixture
def cluster(migrated_url, tmp_path):
    if shutil.which("caddy") is None:
        pytest.fail("no caddy on PATH: `make test-debs` installs Debian's caddy")
    # debug: one `action` line per applied action tells which replica applied it (app/live/actions/attempt.py)
    replicas = [Server(migrated_url, tmp_path / f"replica{i}.log", LOG_LEVEL="debug") for i in range(REPLICAS)]
    proxy = None
    try:
        for r in replicas:
            r.start()
        proxy = CaddyProcess([f"127.0.0.1:{r.port}" for r in replicas], tmp_path / "caddy").start()
        yield Cluster(replicas, proxy)
    finally:
        if proxy is not None:
            proxy.stop()
        for r in replicas:
            r.stop()


def _affinity_so_far(cluster: Cluster, load: Load) -> dict[str, int]:
    """Every room's actions so far were applied by exactly one replica → room → that replica."""
    owners = {room.code: cluster.owner(room.code) for room in load.rooms}
    assert all(len(o) == 1 for o in owners.values()), owners
    return {code: o[0] for code, o in owners.items()}


def test_a_room_is_played_on_one_replica_and_a_killed_replica_s_rooms_move_on_within_2_s(cluster: Cluster):
    async def scenario():
        load = Load(cluster.base, ROOMS)
        await load.start()
        try:
            await load.settle(4)
            owner = _affinity_so_far(cluster, load)
            assert len(set(owner.values())) > 1, f"{ROOMS} rooms all on one replica: {owner}"
            counts = [list(owner.values()).count(i) for i in range(REPLICAS)]
            victim = counts.index(max(counts))
            moved = [room for room in load.rooms if owner[room.code] == victim]
            killed_at = time.monotonic()
            cluster.replicas[victim].kill()  # SIGKILL: no goodbye, no drain
            await load.settle(6)
            end = time.monotonic()
            return load, victim, moved, killed_at, end
        finally:
            await load.stop()

    load, victim, moved, killed_at, end = asyncio.run(scenario())
    resumed = {room.code: room.first_after(killed_at) for room in moved}
    print(f"\nreplica {victim} killed with {len(moved)} of {ROOMS} rooms; first move after the kill, s: "
          + ", ".join(f"{c} {t:.2f}" if t is not None else f"{c} none" for c, t in resumed.items()))
    for code, t in resumed.items():
        assert t is not None and t <= MAX_STALL_S, (code, t)
    for room in load.rooms:
        if room not in moved:  # the other rooms did not notice
            gap, at = room.longest_gap(killed_at - 3, end)
            assert gap <= MAX_STALL_S, (room.code, gap)
    load.check_nothing_lost()
    # The moved rooms are now served by one living replica each.
    for room in moved:
        now = cluster.owner(room.code)
        assert victim in now and len(now) == 2, (room.code, now)


def test_a_rolling_restart_under_load_loses_nothing_and_stalls_no_room_over_2_s(cluster: Cluster):
    async def scenario():
        load = Load(cluster.base, ROOMS)
        await load.start()
        try:
            await load.settle(3)
            _affinity_so_far(cluster, load)
            began = time.monotonic()
            marks = []
            for i, replica in enumerate(cluster.replicas):  # one at a time, as `docker compose up` replaces them
                marks.append((f"stop {i}", time.monotonic() - began))
                await asyncio.to_thread(replica.stop)      # SIGTERM: drain, close 1012
                marks.append((f"start {i}", time.monotonic() - began))
                await asyncio.to_thread(replica.start)     # the same port, waits for /healthz
                marks.append((f"up {i}", time.monotonic() - began))
                await load.settle(2.5)
            await load.settle(2)
            print("\n" + ", ".join(f"{m} {t:.1f}" for m, t in marks))
            return load, began, time.monotonic()
        finally:
            await load.stop()

    load, began, end = asyncio.run(scenario())
    gaps = {room.code: room.longest_gap(began, end) for room in load.rooms}
    worst = max(g for g, _ in gaps.values())
    back = sorted(x for room in load.rooms for x in room.back_s)
    print(f"a socket ended → its state again: median {back[len(back) // 2]:.2f} s, max {back[-1]:.2f} s")
    for code, (gap, at) in sorted(gaps.items(), key=lambda x: -x[1][0])[:4]:
        print(f"{code}: {gap:.2f} s from {at - began:.1f} s")
    print(f"\nrolling restart of {REPLICAS} replicas in {end - began:.1f} s: the longest stall of a room "
          f"{worst:.2f} s; reconnects {sum(r.connects for r in load.rooms) - 4 * ROOMS}")
    for code, (gap, _) in gaps.items():
        assert gap <= MAX_STALL_S, (code, gap)
    assert all(code in (1012, 1006, MOVED_CLOSE_CODE, None) for room in load.rooms for code in room.closes), \
        [room.closes for room in load.rooms]
    load.check_nothing_lost()
    assert not load.errors, load.errors


async def _open_direct(replica: Server, code: str, token: str, routed: bool) -> proto.Client:
    """A room socket straight to one replica, as if the proxy had routed it there (with the
    header the proxy sets) or not."""
    headers = {**proto.auth(token), **({"X-Osaka-Room": code} if routed else {})}
    ws = await connect(f"{replica.ws_url}/ws/rooms/{code}", additional_headers=headers, max_size=None)
    return proto.Client(ws, None)


def _home(cluster: Cluster, code: str) -> int:
    """The replica the proxy sends room `code` to: the one whose log has the room's join."""
    for i, r in enumerate(cluster.replicas):
        if f'"path":"/api/rooms/{code}/join"' in r.log_tail(10 ** 9):
            return i
    raise AssertionError(f"no replica logged the join of {code}")


@pytest.mark.parametrize("routed", [True, False], ids=["routed", "direct"])
def test_a_split_room_moves_its_routed_sockets_to_where_the_proxy_sends_it(cluster: Cluster, routed: bool):
    code, tokens = proto.new_game(cluster.base, 2)
    home = _home(cluster, code)
    other = cluster.replicas[(home + 1) % REPLICAS]

    async def scenario():
        stale = await _open_direct(other, code, tokens[0], routed)
        first = await stale.state(0)
        fresh = await proto.Client.open("ws" + cluster.base[4:], code, tokens[1], seat=1)
        await fresh.state(0)
        if routed:  # the replica that had seat 0 hears that seat 1 arrived at the room's home
            await asyncio.wait_for(stale.closed.wait(), 10)
            assert stale.ws.close_code == MOVED_CLOSE_CODE
            stale = await proto.Client.open("ws" + cluster.base[4:], code, tokens[0], seat=0)
        else:  # never moved: the room is played across two replicas
            await asyncio.sleep(2)
            assert not stale.closed.is_set()
        # The room plays on: a move by whoever is to act reaches the other seat.
        state = await stale.state(first["version"])
        mover, watcher = (stale, fresh) if state["view"]["to_act"] == 0 else (fresh, stale)
        mine = await mover.state(state["version"])
        await mover.act(mine["version"], proto.pick_action(mine["view"], random.Random(1)))
        seen = await watcher.state(mine["version"] + 1)
        for c in (stale, fresh):
            await c.close()
        return seen["version"]

    version = asyncio.run(scenario())
    assert version >= 1
    applied_at = cluster.owner(code)
    if routed:  # after the move, the room's one action was applied at its home
        assert applied_at == [home], applied_at
    else:
        assert applied_at in ([home], [(home + 1) % REPLICAS]), applied_at
