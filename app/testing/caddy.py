"""Caddy in front of local `osaka serve` processes, configured by the project's own
deploy/Caddyfile, for the tests (tests/deploy/test_replicas.py) and the proxy benchmark
(bench/proxy_load.py).

`render_caddyfile` takes deploy/Caddyfile as it is deployed and changes only what a local run
needs: the site is plain HTTP on a port of 127.0.0.1 (instead of `{$OSAKA_SITE}`), the
upstreams are the given `127.0.0.1:PORT` addresses (instead of Docker's DNS name `app`), and
Caddy's admin endpoint is off (several Caddies may run at once). Everything else (room affinity,
retries, the health window, the transport) is what a host runs. Needs the `caddy` binary
(Debian's package; `make test-debs` installs it). Standard library only.
"""
from __future__ import annotations

import re
from pathlib import Path

from .launcher import ROOT, ServerProcess, free_port

_DYNAMIC = re.compile(r"dynamic a \{[^}]*\}")
_POLICY = re.compile(r"^(\t+)lb_policy [^\n]*", re.M)
_ROOM_HEADER = re.compile(r"^\t+request_header @room [^\n]*\n", re.M)


def render_caddyfile(upstreams: list[str], port: int, *, policy: str | None = None, root: Path = ROOT) -> str:
    """deploy/Caddyfile for a local run (module docstring): `upstreams` like ["127.0.0.1:8001"],
    the site on http://127.0.0.1:`port`; `policy` replaces the `lb_policy` line's value (for
    example "round_robin", to measure without room affinity: then the `X-Osaka-Room` header,
    which tells a replica that the proxy routes by room, is not set either). ValueError when the
    deploy file no longer has the parts this replaces."""
    text = (root / "deploy" / "Caddyfile").read_text()
    if "{$OSAKA_SITE}" not in text or len(_DYNAMIC.findall(text)) != 1 or len(_POLICY.findall(text)) != 1:
        raise ValueError("deploy/Caddyfile: expected one {$OSAKA_SITE} site, one `dynamic a` block and one lb_policy")
    text = _DYNAMIC.sub("to " + " ".join(upstreams), text)
    text = text.replace("{$OSAKA_SITE}", f"http://127.0.0.1:{port}")
    if policy is not None:
        text = _POLICY.sub(lambda m: f"{m.group(1)}lb_policy {policy}", text)
        if "X-Osaka-Room" not in policy:  # X-Osaka-Room says "this proxy routes by room": not then
            text = _ROOM_HEADER.sub("", text)
    return "{\n\tadmin off\n\tauto_https off\n}\n" + text


class CaddyProcess(ServerProcess):
    """`caddy run` with `render_caddyfile(upstreams, …)` in `workdir`; started like a server
    (`start()` waits until `/healthz` answers through it). `caddy` names the binary."""

    def __init__(self, upstreams: list[str], workdir: Path, *, caddy: str = "caddy", policy: str | None = None):
        port = free_port()
        workdir = Path(workdir)
        workdir.mkdir(parents=True, exist_ok=True)
        self.config = workdir / "Caddyfile"
        self.config.write_text(render_caddyfile(upstreams, port, policy=policy))
        # Caddy's data and config directories in `workdir`, not $HOME
        env = {"XDG_DATA_HOME": str(workdir / "data"), "XDG_CONFIG_HOME": str(workdir / "config")}
        super().__init__("", workdir / "caddy.log", env=env, port=port,
                         command=[caddy, "run", "--config", str(self.config), "--adapter", "caddyfile"])

    def error_lines(self) -> int:
        """How many lines of Caddy's log are errors (`"level":"error"`)."""
        return sum(1 for line in self.log_tail(10 ** 9).splitlines() if '"level":"error"' in line)
