"""The Dockerfile and its build context, checked without a Docker daemon (there is none in CI):
its structure (slim base, non-root user, HEALTHCHECK, `osaka serve`, HOST=0.0.0.0), and the
image's /app layout rebuilt from its COPY lines and .dockerignore, then served for real."""
from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import httpx

from app.testing.launcher import ServerProcess, free_port

from .support import ROOT, context_files, dockerfile, dockerignore_patterns, env_of, ignored

RUNTIME_NEEDS = ["alembic.ini", "engine", "bots", "app", "migrations", "templates", "static"]


def _final():
    return dockerfile()[-1]


def _ops(stage, op):
    return [i for i in stage if i.op == op]


def test_slim_python_base_and_multi_stage():
    stages = dockerfile()
    assert len(stages) == 2
    for stage in stages:
        image = stage[0].args.split()[0]
        assert image.startswith("python:3.11") and image.endswith("-slim"), image
    build_name = stages[0][0].args.split()[-1]
    copies_from_build = [i for i in _final() if i.op == "COPY" and i.flags().get("from") == build_name]
    assert {c.args.split()[-1] for c in copies_from_build} == {"/opt/venv", "/app"}


def test_runs_as_a_non_root_user_created_in_the_image():
    final = _final()
    users = _ops(final, "USER")
    assert len(users) == 1
    user = users[0].args.split(":")[0]
    assert user not in ("root", "0")
    created = " ".join(i.args for i in _ops(final, "RUN"))
    assert f"--uid {user}" in created, "the USER's uid is created with useradd"
    # USER comes after everything that needs root, and before the command
    order = [i.op for i in final]
    assert order.index("USER") > max(k for k, op in enumerate(order) if op in ("RUN", "COPY"))
    assert order.index("USER") < order.index("CMD")


def test_starts_osaka_serve_configured_by_environment():
    final = _final()
    assert not _ops(final, "ENTRYPOINT")
    (cmd,) = _ops(final, "CMD")
    assert cmd.exec_form() == ["osaka", "serve"]  # exec form: osaka is PID 1 and gets SIGTERM
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["osaka"] == "app.cli:main"
    env = env_of(final)
    assert env["HOST"] == "0.0.0.0"
    assert env["PORT"] == "8000" and _ops(final, "EXPOSE")[0].args == "8000"
    assert env["PATH"].startswith("/opt/venv/bin:")
    stop = _ops(final, "STOPSIGNAL")
    assert not stop or stop[0].args == "SIGTERM"


def test_healthcheck_uses_python_urllib_against_readyz():
    (hc,) = _ops(_final(), "HEALTHCHECK")
    flags = hc.flags()
    assert {"interval", "timeout", "retries"} <= set(flags)
    command = hc.exec_form()
    assert command[:3] == ["python", "-m", "app.healthcheck"] and command[3] in ("/readyz", "/healthz")
    # the module needs nothing but the standard library (no curl, no third-party import)
    tree = ast.parse((ROOT / "app" / "healthcheck.py").read_text())
    imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert "urllib" in imported
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}, imported


def test_build_context_has_what_the_copies_need_and_no_secrets():
    patterns = dockerignore_patterns()
    files = context_files(patterns)
    sources = []
    for stage in dockerfile():
        for ins in _ops(stage, "COPY"):
            if "from" not in ins.flags():
                sources += [w for w in ins.args.split()[:-1] if not w.startswith("--")]
    for src in sources:
        assert (ROOT / src).exists(), f"COPY {src}: missing"
        assert not ignored(src, patterns), f"COPY {src}: excluded by .dockerignore"
    assert set(RUNTIME_NEEDS) <= set(sources)
    for secret_or_junk in (".env", ".venv/bin/python", ".git/HEAD", "osaka.db", "app/__pycache__/x.pyc",
                           "tests/conftest.py"):
        assert ignored(secret_or_junk, patterns), secret_or_junk
    assert not any(f.startswith((".venv/", ".git/", "tests/")) or f == ".env" for f in files)


def _image_app_dir(tmp: Path) -> Path:
    """/app of the image: the files the build stage COPYs into its WORKDIR (context filtered
    by .dockerignore), without the installed virtualenv (this interpreter's stands in for it)."""
    app_dir = tmp / "app"
    app_dir.mkdir()
    files = context_files()
    for src in [w for ins in _ops(dockerfile()[0], "COPY") for w in ins.args.split()[:-1]]:
        for rel in (f for f in files if f == src or f.startswith(src + "/")):
            (app_dir / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / rel, app_dir / rel)
    return app_dir


def test_image_layout_serves_and_passes_its_healthcheck(tmp_path):
    app_dir = _image_app_dir(tmp_path)
    final = _final()
    port = free_port()
    env = {**os.environ, **{k: v for k, v in env_of(final).items() if k != "PATH"},
           "PORT": str(port), "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'osaka.db'}",
           "PYTHONPATH": ""}
    # python -m puts the working directory (the image's WORKDIR) first on sys.path: the copy runs
    where = subprocess.run([sys.executable, "-c", "import app; print(app.__file__)"], cwd=app_dir,
                           env=env, capture_output=True, text=True, check=True).stdout.strip()
    assert Path(where).is_relative_to(app_dir)
    # the image's command as it is (no --host/--port: PORT from the environment), signalled alone
    srv = ServerProcess(env["DATABASE_URL"], tmp_path / "server.log", env=env, port=port, root=app_dir,
                        command=[sys.executable, "-m", "app.cli", "serve"], new_session=False)
    base = srv.base_url
    healthcheck = _ops(final, "HEALTHCHECK")[0].exec_form()
    healthcheck[0] = sys.executable
    try:
        srv.start()
        assert httpx.get(base + "/readyz").json() == {"status": "ready"}  # migrated on start
        page = httpx.get(base + "/")
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        assert httpx.get(base + "/static/js/net.js").status_code == 200
        created = httpx.post(base + "/api/rooms", json={"name": "Alice"})
        assert created.status_code == 201
        assert httpx.get(base + created.json()["url"]).status_code == 200
        check = subprocess.run(healthcheck, cwd=app_dir, env=env, capture_output=True, text=True, timeout=10)
        assert check.returncode == 0, check.stdout + check.stderr
        assert '"ready"' in check.stdout
    finally:
        rc = srv.stop()
    assert rc == 0
    # a stopped server fails the same check
    check = subprocess.run(healthcheck, cwd=app_dir, env=env, capture_output=True, text=True, timeout=10)
    assert check.returncode == 1
