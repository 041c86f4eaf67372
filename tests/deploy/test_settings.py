"""Every server setting (app/config.py) is documented (README.md's table, .env.example) and
reaches the container (docker-compose.yml passes it to the app with the server's own default),
checked as data and with `docker-compose config` (Debian's docker-compose; no daemon needed)
on a .env that sets every variable. A variable no longer read (`RETIRED`) is no setting, is
passed on empty by compose, and is named in one warning when a real `osaka serve` starts."""
from __future__ import annotations

import json
import re
import shutil
import subprocess

import httpx
import pytest
import yaml

from app.config import RETIRED, Settings

from .support import ROOT

# Fixed by docker-compose.yml itself: the database is the compose file's PostgreSQL, and the
# server listens on 0.0.0.0:8000 inside the container (published as OSAKA_BIND:OSAKA_PORT).
FIXED = {"DATABASE_URL", "HOST", "PORT"}
# Defaults of docker-compose.yml (and .env.example) that differ from the server's own, and why:
# FORWARDED_ALLOW_IPS: in compose the app publishes no port, only the Caddy proxy reaches it.
COMPOSE_DEFAULTS = {"FORWARDED_ALLOW_IPS": "*"}
SETTINGS = {name.upper(): name for name in Settings.model_fields}
VARIABLE = re.compile(r"^\$\{([A-Z_][A-Z0-9_]*):-([^}]*)\}$")


def _compose_env() -> dict[str, str]:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return {k: str(v) for k, v in compose["services"]["app"]["environment"].items()}


def _env_example() -> dict[str, str]:
    out = {}
    for line in (ROOT / ".env.example").read_text().splitlines():
        m = re.fullmatch(r"([A-Z_][A-Z0-9_]*)=(.*)", line.strip())
        if m:
            out[m.group(1)] = m.group(2)
    return out


def _readme_names() -> set[str]:
    """Variables named in the first column of README.md's configuration table."""
    text = (ROOT / "README.md").read_text()
    table = text.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    names: set[str] = set()
    for row in table.splitlines():
        if row.startswith("| `"):
            names |= set(re.findall(r"`([A-Z_][A-Z0-9_]*)`", row.split("|")[1]))
    return names


def _default(name: str):
    return getattr(Settings(), SETTINGS[name])


def test_every_setting_is_documented():
    readme, example = _readme_names(), _env_example()
    assert set(SETTINGS) <= readme, f"not in README.md's table: {set(SETTINGS) - readme}"
    assert readme <= set(SETTINGS), f"README.md documents what is no setting: {readme - set(SETTINGS)}"
    missing = set(SETTINGS) - FIXED - set(example)
    assert not missing, f"not in .env.example: {missing}"
    for name in set(SETTINGS) - FIXED:
        if name in COMPOSE_DEFAULTS:
            assert example[name] == COMPOSE_DEFAULTS[name], name
            continue
        parsed = getattr(Settings(**{SETTINGS[name]: example[name]}), SETTINGS[name])
        assert parsed == _default(name), f".env.example {name}={example[name]} is not the default"


def test_every_setting_reaches_the_app_with_one_default():
    env = _compose_env()
    want = set(SETTINGS) | set(RETIRED)
    assert set(env) == want, f"docker-compose.yml app environment: {want ^ set(env)}"
    for name in RETIRED:
        assert name not in SETTINGS, f"{name} is retired and a setting"
        assert env[name] == f"${{{name}:-}}", f"{name}: a retired variable is passed on empty, got {env[name]!r}"
    for name in set(SETTINGS) - FIXED:
        m = VARIABLE.fullmatch(env[name])
        assert m and m.group(1) == name, f"{name}: {env[name]!r} is not ${{{name}:-default}}"
        if name in COMPOSE_DEFAULTS:
            assert m.group(2) == COMPOSE_DEFAULTS[name], name
            continue
        parsed = getattr(Settings(**{SETTINGS[name]: m.group(2)}), SETTINGS[name])
        assert parsed == _default(name), f"{name}: compose default {m.group(2)!r} != {_default(name)!r}"


# A valid value other than the default for each setting (checked against Settings below).
CHANGED = {"LOG_LEVEL": "debug", "FORWARDED_ALLOW_IPS": "10.1.2.0/24", "ROOT_PATH": "/osaka",
           "COOKIE_SECURE": "true", "WS_COMPRESSION": "true", "ROOM_CREATE_LIMIT": "20/minute;120/hour",
           "ROOM_JOIN_LIMIT": "120/minute;1200/hour", "ROOM_LOOKUP_LIMIT": "40/minute;400/hour",
           "CONNECT_SEAT_LIMIT": "20/10seconds;60/minute",
           "CONNECT_ADDRESS_LIMIT": "120/10seconds;1200/minute", "TURN_LIMIT_TEST_S": "2", "TURN_BASED_TEST_S": "20",
           "CHAT_LIMIT": "10/10seconds;60/minute", "FLOOD_LIMIT": "120/3seconds",
           "NOTIFY_ALLOW_PRIVATE": "true", "NOTIFY_SEAT_LIMIT": "20/minute", "NOTIFY_ROOM_LIMIT": "60/minute",
           "NOTIFY_CHANGE_LIMIT": "40/minute", "PUBLIC_URL": "https://example.org/osaka", "SMTP_HOST": "mail.example.org",
           "SMTP_USER": "osaka", "SMTP_PASSWORD": "secret", "SMTP_FROM": "osaka@example.org", "SMTP_STARTTLS": "false",
           "METRICS_TOKEN": "scrape-me", "ADMIN_TOKEN": "host-me", "ADMIN_LIMIT": "20/minute"}


def _changed(name: str) -> str:
    if name in CHANGED:
        return CHANGED[name]
    default = _default(name)
    return str(default * 2 if isinstance(default, int) else default + 0.5)


def test_compose_config_passes_a_full_env_file_to_the_app(tmp_path):
    compose = shutil.which("docker-compose")
    if compose is None:
        pytest.fail("docker-compose is missing: apt-get install -y docker-compose (make test installs it)")
    values = {name: _changed(name) for name in set(SETTINGS) - FIXED}
    probe = Settings(**{SETTINGS[k]: v for k, v in values.items()})
    for name, value in values.items():
        assert getattr(probe, SETTINGS[name]) != _default(name), name
    extra = {"POSTGRES_USER": "u1", "POSTGRES_PASSWORD": "p1", "POSTGRES_DB": "d1",
             "OSAKA_BIND": "127.0.0.1", "OSAKA_PORT": "8123", "OSAKA_HTTPS_PORT": "8443",
             "OSAKA_DOMAIN": "osaka.example.org"}
    env_file = tmp_path / ".env"
    env_file.write_text("".join(f"{k}={v}\n" for k, v in {**values, **extra}.items()))
    out = subprocess.run([compose, "--env-file", str(env_file), "-f", str(ROOT / "docker-compose.yml"),
                          "config"], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    config = yaml.safe_load(out.stdout)
    app = config["services"]["app"]
    env = {k: str(v) for k, v in app["environment"].items()}
    for name, value in values.items():
        assert env[name] == value, (name, env[name], value)
    assert env["DATABASE_URL"] == "postgresql+asyncpg://u1:p1@db:5432/d1"
    assert config["services"]["db"]["environment"]["POSTGRES_PASSWORD"] == "p1"
    proxy = config["services"]["proxy"]
    published = []
    for port in proxy["ports"]:  # "127.0.0.1:8123:80" (Compose 1) or the long form (Compose 2)
        if isinstance(port, dict):
            port = f"{port['host_ip']}:{port['published']}:{port['target']}"
        published.append(port.removesuffix("/tcp"))
    assert published == ["127.0.0.1:8123:80", "127.0.0.1:8443:443"]
    assert proxy["environment"]["OSAKA_SITE"] == "osaka.example.org"


def test_retired_variables_are_named_in_one_warning_and_the_server_starts(server_factory):
    """A host's environment still setting variables that are no longer read (an old .env):
    the server starts and serves with its own values, and its log names every one of them in
    a single `retired_settings` warning; an empty value (compose's `${NAME:-}`) is unset."""
    srv = server_factory(FLOOD_RATE="5", MAX_BODY_BYTES="1024", SEND_QUEUE_SIZE="",
                         FLOOD_LIMIT="30/3seconds")
    # The fixed body bound still holds: 2 KB is under it, whatever MAX_BODY_BYTES said.
    body = json.dumps({"name": "Host", "public": False}) + " " * 2048
    r = httpx.post(srv.base_url + "/api/rooms", content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == 201, r.text
    lines = [json.loads(raw) for raw in srv.log_path.read_text().splitlines() if raw.strip().startswith("{")]
    warnings = [line for line in lines if line["msg"] == "retired_settings"]
    assert len(warnings) == 1, warnings
    assert warnings[0]["level"] == "warning"
    assert warnings[0]["names"] == ["FLOOD_RATE", "MAX_BODY_BYTES"]
    assert set(warnings[0]["replaced_by"]) == {"FLOOD_RATE", "MAX_BODY_BYTES"}
    assert "FLOOD_LIMIT" in warnings[0]["replaced_by"]["FLOOD_RATE"]


def test_without_retired_variables_there_is_no_warning(server_factory):
    srv = server_factory()
    assert httpx.get(srv.base_url + "/healthz").status_code == 200
    assert "retired_settings" not in srv.log_path.read_text()
