"""The docker-compose.yml stack brought up for real, for the scale-out tests (test_scale.py).

`Stack.up` builds the project's image once (through Compose, from the Dockerfile) and starts
PostgreSQL, N app replicas and the Caddy proxy under a project name of its own, with a .env
of its own (free host ports on 127.0.0.1); `down` removes containers, networks and volumes.

`docker_unavailable()` says why the stack cannot run here (no Docker or Compose, no daemon,
a base image missing and not pullable): the tests then skip with that reason. Anything that
goes wrong after that (the image does not build, the stack does not come up) is a failure of
the project's Dockerfile or compose file, and fails.
"""
from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
import time
from pathlib import Path

import httpx

from .support import ROOT

BASE_IMAGES = ("python:3.11-slim", "postgres:16", "caddy:2")
PULL_TIMEOUT_S = 120


def _run(args: list[str], timeout: float = 60, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(args, capture_output=True, text=True, timeout=timeout, **kw)


def docker_unavailable() -> str | None:
    """Why the Docker tests cannot run here (None: they can)."""
    if shutil.which("docker") is None:
        return "no docker command (install Docker to run the scale-out tests)"
    if shutil.which("docker-compose") is None:
        return "no docker-compose command (apt-get install docker-compose)"
    try:
        if _run(["docker", "info", "--format", "{{.ServerVersion}}"], timeout=20).returncode != 0:
            return "no Docker daemon answers (start dockerd)"
    except subprocess.TimeoutExpired:
        return "the Docker daemon does not answer"
    for image in BASE_IMAGES:
        if _run(["docker", "image", "inspect", image]).returncode == 0:
            continue
        try:
            pulled = _run(["docker", "pull", "-q", image], timeout=PULL_TIMEOUT_S).returncode == 0
        except subprocess.TimeoutExpired:
            pulled = False
        if not pulled:
            return (f"base image {image} is not available and cannot be pulled (no registry access; "
                    f"on this project's CI machine ../shared/tools/standin-images.sh builds stand-ins)")
    return None


class Stack:
    """One compose project: `env` (the .env written for it), `http` (the proxy's base URL);
    `profiles` (e.g. `("monitoring",)`) are passed to every compose command as `--profile`."""

    def __init__(self, workdir: Path, replicas: int, env: dict[str, str], profiles: tuple[str, ...] = ()):
        self.project = f"osakatest{secrets.token_hex(3)}"
        self.replicas = replicas
        self.profiles = profiles
        self.env_file = workdir / ".env"
        self.env = env
        self.env_file.write_text("".join(f"{k}={v}\n" for k, v in env.items()))
        self.http = f"http://127.0.0.1:{env['OSAKA_PORT']}"
        self.ws = f"ws://127.0.0.1:{env['OSAKA_PORT']}"

    def compose(self, *args: str, env_file: Path | None = None, timeout: float = 600,
                check: bool = True) -> subprocess.CompletedProcess:
        """`docker-compose -p <project> --env-file <.env> -f docker-compose.yml <args>`;
        AssertionError with the output when it fails and `check`."""
        done = _run(["docker-compose", "-p", self.project, "--env-file", str(env_file or self.env_file),
                     "-f", str(ROOT / "docker-compose.yml"),
                     *(word for p in self.profiles for word in ("--profile", p)), *args], timeout=timeout,
                    env={**os.environ, "DOCKER_BUILDKIT": "0", "COMPOSE_DOCKER_CLI_BUILD": "0"})
        assert not check or done.returncode == 0, f"docker-compose {' '.join(args)}:\n{done.stdout}\n{done.stderr}"
        return done

    def up(self, ready_timeout_s: float = 300, services: tuple[str, ...] = ()) -> Stack:
        """Build the image, start everything (or only `services` and what they depend on), wait
        until every replica answers through the proxy."""
        self.compose("build", "app", timeout=1800)
        self.compose("up", "-d", "--scale", f"app={self.replicas}", *services)
        deadline = time.monotonic() + ready_timeout_s
        seen: set[str] = set()
        while time.monotonic() < deadline:
            try:
                r = httpx.get(self.http + "/readyz", timeout=5)
                if r.status_code == 200:
                    seen.add(httpx.get(self.http + "/healthz", timeout=5).json()["instance"])
                    if seen >= set(self.instances()):
                        return self
            except httpx.HTTPError:
                pass
            time.sleep(0.5)
        raise AssertionError(f"the stack did not come up in {ready_timeout_s} s (replicas seen through "
                             f"the proxy: {sorted(seen)}):\n{self.logs()}")

    def containers(self, service: str = "app") -> list[str]:
        """Ids of the service's running containers."""
        return self.compose("ps", "-q", service).stdout.split()

    def instances(self) -> dict[str, str]:
        """Host name (what `X-Osaka-Instance` and /healthz say) → container id, per app replica."""
        out = {}
        for cid in self.containers():
            info = json.loads(_run(["docker", "inspect", cid]).stdout)[0]
            if info["State"]["Running"]:
                out[info["Config"]["Hostname"]] = cid
        return out

    def kill(self, container: str) -> None:
        """SIGKILL one container (a replica that dies mid-game)."""
        done = _run(["docker", "kill", container])
        assert done.returncode == 0, done.stderr

    def restart(self, container: str, ready_timeout_s: float = 90) -> None:
        """Stop one container gracefully (SIGTERM: the drain, close 1012) and start it again, as
        `docker compose up` replaces replicas one at a time; returns once its app answers
        /healthz inside the container."""
        done = _run(["docker", "restart", "-t", "10", container], timeout=60)
        assert done.returncode == 0, done.stderr
        deadline = time.monotonic() + ready_timeout_s
        probe = ["docker", "exec", container, "python", "-c",
                 "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2)"]
        while time.monotonic() < deadline:
            if _run(probe, timeout=15).returncode == 0:
                return
            time.sleep(0.3)
        raise AssertionError(f"{container} did not answer /healthz within {ready_timeout_s} s:\n{self.logs()}")

    def logs(self, tail: int = 60) -> str:
        """The last lines of every service's log (for a failure's message)."""
        return self.compose("logs", "--no-color", "--tail", str(tail), check=False).stdout[-12000:]

    def down(self) -> None:
        """Remove the project's containers, networks and volumes."""
        self.compose("down", "-v", "--remove-orphans", "-t", "5", check=False, timeout=300)
