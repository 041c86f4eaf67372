"""The compose `monitoring` profile for real (issue 33): docker-compose.yml's Prometheus scrapes
`/metrics` of every app replica with the METRICS_TOKEN (deploy/prometheus/prometheus.yml;
docs/deploy.md "Metrics").

The stack is db, two app replicas, the Caddy proxy and `prometheus` (`--profile monitoring`;
Grafana is not started: its image is not needed to show that the scrape works). A game is
played through the proxy; then Prometheus itself is asked, from a container on the compose
network (`docker exec` in an app replica, against http://prometheus:9090/api/v1/...), whether
both replicas are targets that are `up` with no scrape error, and whether the actions played
are in its samples (`osaka_actions_total`), as are the database's rooms (`osaka_rooms`).

The image is the one docker-compose.yml names, `prom/prometheus:v2.53.1`, pulled when it can
be. Where it is not present and cannot be pulled (a machine without Docker Hub), the test
builds a STAND-IN under that tag for this run only, and removes it afterwards: the project's
own base image `python:3.11-slim` (Debian) with Debian's `prometheus` package (Prometheus
2.42, not 2.53.1), laid out like the official image (/bin/prometheus, /bin/sh, /prometheus
owned by `nobody`, run as `nobody`), so compose's entrypoint and the config run unchanged.
It skips with the reason where Docker cannot run the stack (docker_stack.docker_unavailable)
or even the stand-in cannot be built. About 3-5 minutes on a 2-core machine once the base
images exist (the image builds, then one or two 15 s scrape intervals).
"""
from __future__ import annotations

import asyncio
import json
import os
import random
import secrets
import subprocess
import time
from typing import Any, Callable
from urllib.parse import urlencode

import pytest
import yaml

from tests.conftest import free_port

from .docker_stack import Stack, _run, docker_unavailable
from .support import ROOT, proto

REPLICAS = 2
ACTIONS = 6
#: Two scrape intervals (15 s) and a DNS refresh, with a margin for a slow machine.
SCRAPE_WAIT_S = 120
PROMETHEUS_IMAGE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]["prometheus"]["image"]
STANDIN_DOCKERFILE = f"""\
# A stand-in for {PROMETHEUS_IMAGE} (Debian's Prometheus 2.42) for tests/deploy/test_monitoring_stack.py
FROM python:3.11-slim
RUN apt-get update \\
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends prometheus \\
    && rm -rf /var/lib/apt/lists/* \\
    && mkdir -p /prometheus /etc/prometheus \\
    && chown -R nobody:nogroup /prometheus /etc/prometheus
LABEL org.osaka.standin="Debian's prometheus package; tests/deploy/test_monitoring_stack.py"
USER nobody
WORKDIR /prometheus
EXPOSE 9090
ENTRYPOINT ["/bin/prometheus"]
CMD ["--config.file=/etc/prometheus/prometheus.yml", "--storage.tsdb.path=/prometheus"]
"""


def _prometheus_image() -> tuple[str | None, bool]:
    """(why no Prometheus image can be had, or None; whether a stand-in was built for this run)."""
    if _run(["docker", "image", "inspect", PROMETHEUS_IMAGE]).returncode == 0:
        return None, False
    try:
        if _run(["docker", "pull", "-q", PROMETHEUS_IMAGE], timeout=120).returncode == 0:
            return None, False
    except subprocess.TimeoutExpired:
        pass
    try:
        built = _run(["docker", "build", "-q", "-t", PROMETHEUS_IMAGE, "-"], input=STANDIN_DOCKERFILE, timeout=900,
                     env={**os.environ, "DOCKER_BUILDKIT": "0"})
    except subprocess.TimeoutExpired:
        return f"{PROMETHEUS_IMAGE} cannot be pulled and the stand-in did not build in 15 minutes", False
    if built.returncode != 0:
        return (f"{PROMETHEUS_IMAGE} cannot be pulled and the stand-in (python:3.11-slim + Debian's prometheus) "
                f"did not build: {built.stderr.strip()[-400:]}"), False
    return None, True


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    reason = docker_unavailable()
    standin = False
    if not reason:
        reason, standin = _prometheus_image()
    if reason:
        print(f"\nSKIPPED the compose monitoring test: {reason}")
        pytest.skip(reason)
    try:
        if standin:  # what compose's entrypoint needs of the image
            probe = _run(["docker", "run", "--rm", "--entrypoint", "/bin/sh", PROMETHEUS_IMAGE, "-c",
                          "test -x /bin/prometheus && /bin/prometheus --version"])
            assert probe.returncode == 0, f"the stand-in has no /bin/prometheus: {probe.stdout}{probe.stderr}"
            print(f"\nSTAND-IN {PROMETHEUS_IMAGE}: {probe.stdout.splitlines()[0]}")
        env = {"OSAKA_BIND": "127.0.0.1", "OSAKA_PORT": str(free_port()), "OSAKA_HTTPS_PORT": str(free_port()),
               "POSTGRES_PASSWORD": "test-" + secrets.token_hex(6), "METRICS_TOKEN": secrets.token_hex(24)}
        s = Stack(tmp_path_factory.mktemp("monitoring"), REPLICAS, env, profiles=("monitoring",))
        try:
            yield s.up(services=("db", "app", "proxy", "prometheus"))
        finally:
            s.down()
    finally:
        if standin:
            _run(["docker", "image", "rm", PROMETHEUS_IMAGE])


def _prometheus(stack: Stack, path: str, **query: str) -> dict:
    """GET http://prometheus:9090<path>?<query> from inside an app replica (the compose network;
    Prometheus publishes no port) → the API's JSON answer, asserted `success`."""
    url = f"http://prometheus:9090{path}" + (f"?{urlencode(query)}" if query else "")
    done = _run(["docker", "exec", stack.containers()[0], "python", "-c",
                 "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode())",
                 url], timeout=60)
    assert done.returncode == 0, f"{url}: {done.stderr[-2000:]}\n{stack.logs()}"
    answer = json.loads(done.stdout)
    assert answer["status"] == "success", answer
    return answer["data"]


def _value(stack: Stack, promql: str) -> float | None:
    """The one value of an instant query whose result is a single sample (None: no sample)."""
    result = _prometheus(stack, "/api/v1/query", query=promql)["result"]
    assert len(result) <= 1, result
    return float(result[0]["value"][1]) if result else None


def _addresses(stack: Stack) -> set[str]:
    """`<ip>:8000` of every app replica on the project's network (what dns_sd on `app` finds)."""
    out = set()
    for cid in stack.containers():
        networks = json.loads(_run(["docker", "inspect", cid]).stdout)[0]["NetworkSettings"]["Networks"]
        out |= {f"{n['IPAddress']}:8000" for n in networks.values()}
    return out


def _wait(what: str, stack: Stack, check: Callable[[], tuple[bool, Any]]) -> Any:
    """Poll `check()` (→ (done, what it saw)) every 2 s until it is done → what it saw;
    AssertionError naming `what`, the last thing seen and the services' logs after SCRAPE_WAIT_S."""
    deadline = time.monotonic() + SCRAPE_WAIT_S
    while not (got := check())[0]:
        assert time.monotonic() < deadline, f"{what} not within {SCRAPE_WAIT_S} s; last seen: {got[1]}\n{stack.logs()}"
        time.sleep(2)
    return got[1]


def test_the_compose_prometheus_scrapes_every_replica_and_sees_the_actions(stack: Stack):
    code, tokens = proto.new_game(stack.http, 2)

    async def scenario() -> int:
        clients = [await proto.Client.open(stack.ws, code, token, seat=i, open_timeout=30)
                   for i, token in enumerate(tokens)]
        start = (await clients[0].state())["version"]
        end = await proto.play(clients, ACTIONS, random.Random(33))
        for c in clients:
            await c.close()
        return end - start

    played = asyncio.run(scenario())
    assert played == ACTIONS

    replicas = _addresses(stack)
    assert len(replicas) == REPLICAS, replicas

    def every_replica_up():
        targets = [t for t in _prometheus(stack, "/api/v1/targets", state="active")["activeTargets"]
                   if t["labels"]["job"] == "osaka"]
        done = {t["labels"]["instance"] for t in targets} == replicas and all(t["health"] == "up" for t in targets)
        return done, targets

    targets = _wait("both app replicas as `up` targets of the osaka job", stack, every_replica_up)
    for t in targets:
        assert t["lastError"] == "", t  # the token reached the file Prometheus reads: no 401
        assert t["scrapeUrl"] == f"http://{t['labels']['instance']}/metrics", t
    assert _value(stack, 'count(up{job="osaka"} == 1)') == REPLICAS

    # The counters of both processes, summed: exactly the actions played (no computer players,
    # no turn timer in this stack), once a scrape after the last one has happened.
    applied = 'sum(osaka_actions_total{job="osaka", outcome="applied", by="player"})'
    seen = _wait(f"{applied} == {ACTIONS}", stack, lambda: ((v := _value(stack, applied)) == ACTIONS, v))
    # The database's rooms, as each replica reports them: the game is playing.
    assert _value(stack, 'min(osaka_rooms{job="osaka", state="playing"})') >= 1
    print(f"Prometheus {_prometheus(stack, '/api/v1/status/buildinfo')['version']}: targets "
          f"{sorted(t['labels']['instance'] for t in targets)} up; {applied} = {seen:g}")
