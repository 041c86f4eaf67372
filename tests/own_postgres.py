"""A throwaway PostgreSQL server of one test alone: `initdb` into a temporary directory and
`pg_ctl` on a free port, so a test may stop and start it without disturbing the machine's
shared cluster (other tests use that one).

The binaries come from /usr/lib/postgresql/<version>/bin (Debian's postgresql package; also
what .ci/run starts). PostgreSQL refuses to run as root: as root the cluster runs as the
`postgres` system user (`runuser`), otherwise as the current user.
"""
from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def postgres_bin() -> Path | None:
    """The newest /usr/lib/postgresql/*/bin holding initdb and pg_ctl, or None."""
    found = [d for d in Path("/usr/lib/postgresql").glob("*/bin")
             if (d / "initdb").exists() and (d / "pg_ctl").exists()]
    return max(found, key=lambda d: int(d.parent.name)) if found else None


class OwnPostgres:
    """One PostgreSQL cluster in a temporary directory: `start`, `stop`, `url`, `remove`."""

    def __init__(self, bin_dir: Path):
        self.bin = bin_dir
        self.port = _free_port()
        self.root = Path(tempfile.mkdtemp(prefix="osaka-own-pg-"))
        self.data, self.log = self.root / "data", self.root / "server.log"
        self.user = "postgres" if os.geteuid() == 0 else None
        if self.user is not None:  # the cluster's files belong to the user running it
            pw = pwd.getpwnam(self.user)
            os.chown(self.root, pw.pw_uid, pw.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
                  "--no-sync")

    def _run(self, tool: str, *args: str) -> None:
        cmd = [str(self.bin / tool), *args]
        if self.user is not None:
            cmd = ["runuser", "-u", self.user, "--", *cmd]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=self.root)

    def url(self, database: str = "postgres") -> str:
        """The SQLAlchemy URL of a database of this cluster."""
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/{database}"

    def start(self) -> None:
        """Start the server (waits until it accepts connections)."""
        opts = (f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off "
                "-c max_connections=50")
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", opts, "-w", "start")

    def stop(self) -> None:
        """Stop it now: every connection is cut (`pg_ctl stop -m fast`)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def remove(self) -> None:
        """Stop it if running and delete its files."""
        try:
            self.stop()
        except subprocess.CalledProcessError:
            pass  # was not running
        shutil.rmtree(self.root, ignore_errors=True)
