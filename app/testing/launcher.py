"""The one launcher of server subprocesses for the tests (tests/) and the benchmark (bench/).

`ServerProcess` runs `python -m app.cli serve --host 127.0.0.1 --port <free port>` (or another
command) in its own process group, with the given environment on top of this one, its output
in a log file; `start()` migrates first if asked and waits until `GET /healthz` answers 200;
`stop()` asks with SIGTERM (graceful, app/shutdown.py) and kills the group if it lingers;
`kill()` is SIGKILL at once (a crash). Standard library only, so any checkout can use it
(`root`: the checkout whose `app` package is served).
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: The settings of a test server: computer players without delay, warnings only.
#: Reviews of finished games at 4 simulations a decision: a suite finishes hundreds of games on a
#: shared machine (app/live/reviews.py; tests of the review set their own count). The hard
#: player's floor off: tests that want fast computer players set a short BOT_TIME_BUDGET_S
#: (tests/bots/test_bots.py checks the floor itself).
QUIET = {"BOT_DELAY_S": "0", "LOG_LEVEL": "warning", "REVIEW_SIMULATIONS": "4", "BOT_MIN_SIMULATIONS": "0"}
#: The limits per client address off (app/ratelimit.py): every test or load client comes from
#: 127.0.0.1, and suites create hundreds of rooms. Tests of the limits set them again.
NO_ADDRESS_LIMITS = {"ROOM_CREATE_LIMIT": "off", "ROOM_JOIN_LIMIT": "off", "ROOM_LOOKUP_LIMIT": "off",
                     "ROOMS_PER_ADDRESS": "0",
                     "LOBBY_ROOMS_PER_ADDRESS": "0", "CONNECT_ADDRESS_LIMIT": "off"}


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def migrate(database_url: str, *, root: Path = ROOT, env: dict[str, str] | None = None,
            timeout_s: float = 120) -> None:
    """`python -m app.cli migrate` against that database (schema to the head migration), quietly;
    RuntimeError with its output if it fails."""
    done = subprocess.run([sys.executable, "-m", "app.cli", "migrate"], cwd=root, timeout=timeout_s,
                          env={**os.environ, "LOG_LEVEL": "warning", **(env or {}), "DATABASE_URL": database_url},
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"osaka migrate failed ({done.returncode}): {(done.stdout + done.stderr)[-3000:]}")


def healthy(base_url: str, timeout_s: float = 1.0) -> bool:
    """True when `GET {base_url}/healthz` answers 200."""
    try:
        with urllib.request.urlopen(base_url + "/healthz", timeout=timeout_s) as answer:
            return answer.status == 200
    except (OSError, urllib.error.URLError):
        return False


def log_records(text: str):
    """The JSON lines of a server log (app/logs.py), parsed, in order; other lines (a
    traceback, uvicorn's own) are skipped."""
    import json  # noqa: PLC0415 - only the log readers need it
    for line in text.splitlines():
        if line.startswith("{"):
            try:
                yield json.loads(line)
            except ValueError:
                continue


class ServerProcess:
    """One server subprocess on 127.0.0.1: `.base_url`, `.ws_url`, `.port`, `.proc`, `.pid`.

    `env` is added to this process's environment, and DATABASE_URL is `database_url` (tests
    pass `QUIET` in `env`).
    `command` replaces the default `python -m app.cli serve --host 127.0.0.1 --port PORT`;
    `wrap` is put in front of it (e.g. a profiler); `new_session=False` keeps it in this
    process group (then `stop`/`kill` signal the process only)."""

    def __init__(self, database_url: str, log_path: Path, *, env: dict[str, str] | None = None,
                 port: int | None = None, root: Path = ROOT, command: list[str] | None = None,
                 wrap: list[str] | None = None, new_session: bool = True):
        self.database_url = database_url
        self.log_path = Path(log_path)
        self.port = port or free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.root = root
        self.env = {**os.environ, **(env or {}), "DATABASE_URL": database_url}
        self.command = command  # None: the default, for the port as it is at `start`
        self.wrap = wrap or []
        self.new_session = new_session
        self.proc: subprocess.Popen | None = None

    @property
    def pid(self) -> int | None:
        """The server's process id (None before `start`)."""
        return None if self.proc is None else self.proc.pid

    def start(self, timeout_s: float = 30, *, migrate_first: bool = False) -> ServerProcess:
        """Start (after `osaka migrate` if `migrate_first`) and wait until /healthz answers;
        RuntimeError with the log's tail if it exits or does not answer within `timeout_s`."""
        if migrate_first:
            migrate(self.database_url, root=self.root, env=self.env)
        with open(self.log_path, "ab") as log:
            command = self.command or [sys.executable, "-m", "app.cli", "serve",
                                       "--host", "127.0.0.1", "--port", str(self.port)]
            self.proc = subprocess.Popen(self.wrap + command, cwd=self.root, env=self.env, stdout=log,
                                         stderr=subprocess.STDOUT, start_new_session=self.new_session)
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_tail()}")
            if healthy(self.base_url):
                return self
            time.sleep(0.1)
        self.kill()
        raise RuntimeError(f"server did not start in {timeout_s} s: {self.log_tail()}")

    def log_tail(self, chars: int = 3000) -> str:
        """The end of the server's log."""
        try:
            return self.log_path.read_text(errors="replace")[-chars:]
        except OSError:
            return ""

    def _signal(self, sig: int) -> None:
        try:
            if self.new_session:
                os.killpg(self.proc.pid, sig)
            else:
                self.proc.send_signal(sig)
        except ProcessLookupError:
            pass

    def kill(self) -> None:
        """SIGKILL the server (and, in its own session, its whole group: bot workers) at once."""
        if self.proc is not None and self.proc.poll() is None:
            self._signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self, timeout_s: float = 15) -> int | None:
        """SIGTERM (graceful), SIGKILL if it lingers past `timeout_s`, then whatever is left of
        its group; → the server's exit status (None if it was never started)."""
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self._signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout_s)
            except subprocess.TimeoutExpired:
                pass
        if self.new_session:
            self._signal(signal.SIGKILL)  # leftovers of the group (bot workers)
        elif self.proc.poll() is None:
            self._signal(signal.SIGKILL)
        return self.proc.wait(10)
