"""The startup's fast path (app/migrate.py): a database already at the head starts without
Alembic; anything else goes through the full, serialized upgrade."""
from __future__ import annotations

import os
import sqlite3
import subprocess
import sys

from app.migrate import ROOT, at_head, head_revisions, script_heads, upgrade_if_needed


def test_script_heads_read_from_the_text_are_alembics(tmp_path):
    assert script_heads() == head_revisions("sqlite:///unused.db")
    # A merge (a tuple of parents) and a branch are read the same way Alembic reads them.
    for name, text in {"a.py": 'revision = "a"\ndown_revision = None\n',
                       "b.py": "revision = 'b'\ndown_revision = 'a'\n",
                       "c.py": 'revision: str = "c"\ndown_revision: str | None = "a"\n',
                       "d.py": 'revision = "d"\ndown_revision = ("b", "c")\n',
                       "e.py": 'revision = "e"\ndown_revision = "a"\n'}.items():
        (tmp_path / name).write_text(f'"""Revision {name}"""\n{text}')
    assert script_heads(tmp_path) == {"d", "e"}


def test_at_head_only_when_alembic_version_is_the_head(sqlite_url, tmp_path):
    assert at_head(sqlite_url)
    missing = f"sqlite+aiosqlite:///{tmp_path / 'none.db'}"
    assert not at_head(missing) and not (tmp_path / "none.db").exists(), "nothing created by looking"
    path = sqlite_url.split("///", 1)[1]
    con = sqlite3.connect(path)
    with con:
        con.execute("UPDATE alembic_version SET version_num = '0001'")
    con.close()
    assert not at_head(sqlite_url)
    assert not at_head("postgresql+asyncpg://nobody@127.0.0.1:1/none"), "unreachable: the full path says why"


def test_upgrade_if_needed_migrates_a_new_database_and_skips_alembic_at_head(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'new.db'}"
    upgrade_if_needed(url)
    assert at_head(url)
    # At the head, a fresh interpreter starts without importing Alembic at all.
    probe = ("import sys; from app.migrate import upgrade_if_needed; upgrade_if_needed(sys.argv[1]); "
             "from app.main import create_app; from app.config import Settings; "
             "create_app(Settings(database_url=sys.argv[1])); print('alembic' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe, url], cwd=ROOT, capture_output=True, text=True,
                         env={**os.environ, "LOG_LEVEL": "warning"}, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_a_database_behind_is_upgraded(tmp_path):
    from alembic import command

    from app.migrate import alembic_config
    url = f"sqlite+aiosqlite:///{tmp_path / 'old.db'}"
    command.upgrade(alembic_config(url), "0001")
    assert not at_head(url)
    upgrade_if_needed(url)
    assert at_head(url)
