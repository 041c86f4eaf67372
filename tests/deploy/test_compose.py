"""docker-compose.yml and .env.example, checked as data (CI validates the file against the
Compose schema with `docker-compose config`, see .ci/run): PostgreSQL with a named volume and a
pg_isready healthcheck, the app waiting for it to be healthy and scalable (no published port, no
container name), Caddy in front publishing OSAKA_PORT and OSAKA_HTTPS_PORT, every setting documented."""
from __future__ import annotations

import json
import os
import re
import subprocess

import uvicorn
import yaml

from app.config import RETIRED, Settings

from .support import ROOT

COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
VARIABLE = re.compile(r"\$\{([A-Z_][A-Z0-9_]*)(?::?-([^}]*))?\}")


def _env_example() -> dict[str, str]:
    out = {}
    for line in (ROOT / ".env.example").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            out[key] = value
    return out


def test_postgres_service_with_volume_and_healthcheck():
    db = COMPOSE["services"]["db"]
    assert db["image"].split(":")[0] == "postgres" and re.fullmatch(r"\d+", db["image"].split(":")[1])
    volume, target = db["volumes"][0].split(":")[:2]
    assert target == "/var/lib/postgresql/data"
    assert volume in COMPOSE["volumes"], "a named volume, declared at the top level"
    test = db["healthcheck"]["test"]
    assert test[0] == "CMD-SHELL" and test[1].startswith("pg_isready")
    assert "ports" not in db, "the database is reachable from the app's network only"
    assert db["restart"] == "unless-stopped"


def test_app_waits_for_a_healthy_database_and_can_be_scaled():
    app = COMPOSE["services"]["app"]
    assert app["build"] == "."
    assert app["depends_on"] == {"db": {"condition": "service_healthy"}}
    # `docker compose up --scale app=3`: a fixed host port or container name would clash.
    assert "ports" not in app and "container_name" not in app
    env = app["environment"]
    assert env["HOST"] == "0.0.0.0" and env["PORT"] == "8000"
    url = env["DATABASE_URL"]
    assert url.startswith("postgresql+asyncpg://") and "@db:5432/" in url
    db_env = COMPOSE["services"]["db"]["environment"]
    for name in ("POSTGRES_USER", "POSTGRES_PASSWORD", "POSTGRES_DB"):
        assert "${" + name in url and "${" + name in db_env[name], "app and db read the same values"
    assert app["restart"] == "unless-stopped"
    # longer than the server's shutdown budget (app/shutdown.py), so SIGKILL never cuts a drain
    assert int(app["stop_grace_period"].rstrip("s")) > 10


def test_every_variable_has_a_default_and_is_documented_in_env_example():
    text = (ROOT / "docker-compose.yml").read_text()
    used = {m.group(1): m.group(2) for m in VARIABLE.finditer(text)}
    documented = _env_example()
    assert used, "compose reads its settings from .env"
    for name, default in used.items():
        assert default is not None, f"${{{name}}} has a default: `docker compose up` works without .env"
        if name in RETIRED:  # no longer read: passed on empty, so that a leftover in .env is named
            assert default == "" and name not in documented, name
            continue
        assert name in documented, f"{name} is not in .env.example"
        if name == "OSAKA_DOMAIN":  # empty = no domain: `${OSAKA_DOMAIN:-:80}` gives Caddy plain :80
            assert documented[name] == "" and default == ":80"
            continue
        assert documented[name] == default, f"{name}: .env.example says {documented[name]!r}, compose {default!r}"
    assert set(documented) <= set(used), f"documented but unused: {set(documented) - set(used)}"


def test_app_environment_names_real_settings():
    fields = {name.upper() for name in Settings.model_fields}
    for name in COMPOSE["services"]["app"]["environment"]:
        assert name in fields or name in RETIRED, f"{name} is not a server setting (app/config.py)"


def test_caddy_proxies_every_replica_with_https_on_a_domain():
    proxy = COMPOSE["services"]["proxy"]
    assert proxy["image"].split(":")[0] == "caddy"
    assert "container_name" not in proxy and proxy["restart"] == "unless-stopped"
    http, https = proxy["ports"]
    assert http == "${OSAKA_BIND:-0.0.0.0}:${OSAKA_PORT:-8000}:80"
    assert https == "${OSAKA_BIND:-0.0.0.0}:${OSAKA_HTTPS_PORT:-443}:443"
    assert proxy["environment"]["OSAKA_SITE"] == "${OSAKA_DOMAIN:-:80}"  # a name = automatic HTTPS
    mounts = {v.split(":")[1]: v.split(":")[0] for v in proxy["volumes"]}
    assert mounts["/etc/caddy/Caddyfile"] == "./deploy/Caddyfile"
    assert mounts["/data"] in COMPOSE["volumes"], "certificates survive `down` and `up`"
    caddyfile = (ROOT / "deploy" / "Caddyfile").read_text()
    assert "{$OSAKA_SITE}" in caddyfile and "name app" in caddyfile and "port 8000" in caddyfile
    # The app trusts the proxy's X-Forwarded-* (it is reachable by the proxy alone).
    assert COMPOSE["services"]["app"]["environment"]["FORWARDED_ALLOW_IPS"] == "${FORWARDED_ALLOW_IPS:-*}"


def test_caddy_drops_idle_connections_to_a_replica_before_uvicorn_does():
    """Caddy's idle keep-alive to a replica is shorter than uvicorn's (`timeout_keep_alive`,
    which `osaka serve` leaves at uvicorn's default): otherwise Caddy may send a request on a
    connection the replica is closing, and a POST fails as 502 (found by bench/proxy_load.py).
    Read from Caddy's own adaptation of deploy/Caddyfile (`caddy adapt`, the Debian package
    that `make test` installs)."""
    out = subprocess.run(["caddy", "adapt", "--config", str(ROOT / "deploy" / "Caddyfile"), "--adapter", "caddyfile"],
                         env={**os.environ, "OSAKA_SITE": ":80"}, capture_output=True, text=True, check=True).stdout
    handlers = [h for route in json.loads(out)["apps"]["http"]["servers"]["srv0"]["routes"]
                for h in _handlers(route) if h.get("handler") == "reverse_proxy"]
    assert len(handlers) == 1
    idle_ns = handlers[0]["transport"]["keep_alive"]["idle_timeout"]
    assert 0 < idle_ns / 1e9 < uvicorn.Config(app=None).timeout_keep_alive


def _handlers(route: dict):
    for h in route.get("handle", []):
        yield h
        for sub in h.get("routes", []):
            yield from _handlers(sub)


def test_every_container_log_is_rotated():
    """Docker's default json-file driver keeps a container's whole log, and the app logs a line
    per action at info: without rotation a busy server's disk fills up (docs/deploy.md "Logs").
    Every service, the monitoring ones too, rotates at a bounded size and number of files."""
    sizes = re.compile(r"\$\{LOG_MAX_SIZE:-(\d+)([kmg])\}")
    for name, service in COMPOSE["services"].items():
        logging = service.get("logging")
        assert logging is not None, f"{name} keeps its whole log"
        assert logging["driver"] == "json-file", name
        size = sizes.fullmatch(str(logging["options"]["max-size"]))
        assert size and int(size.group(1)) > 0, (name, logging)
        files = re.fullmatch(r"\$\{LOG_MAX_FILES:-(\d+)\}", str(logging["options"]["max-file"]))
        assert files and 1 <= int(files.group(1)) <= 20, (name, logging)

