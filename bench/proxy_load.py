"""Load benchmark through Caddy: N `osaka serve` replicas on one PostgreSQL database behind a proxy.

    python bench/proxy_load.py --replicas 2 --rooms 250,1000,2000 --duration 30 --json out.json

The client, the ramp and the figures are bench/load.py's (its `Worker` processes and `run_step`,
imported, not copied). For every step:

1. The PostgreSQL database `osaka_bench` is dropped and created again (load.py's
   `fresh_database`; `--pg-admin-url` names the server) and `--replicas` processes of
   `osaka serve` are started on it (load.py's `Server`, i.e. app/testing/launcher.py's
   `ServerProcess`; 127.0.0.1, free ports, `BOT_DELAY_S=0`, `LOG_LEVEL=info`, the per-address
   limits off; `--env KEY=VALUE` adds more).
2. Caddy (`caddy run`, the Debian package; `--caddy` names the binary) is started in front of
   them with deploy/Caddyfile itself (app/testing/caddy.py: static upstreams instead of Docker's
   DNS, plain HTTP on a free port of 127.0.0.1, no admin endpoint): room affinity (`lb_policy
   header X-Osaka-Room`, the header set from the path) or, with `--policy round-robin`, the round
   robin of before; its retries, health window and transport as deployed.
3. load.py's step runs against the proxy's URL: every request and WebSocket of a room goes to
   the replica its code hashes to, so a room's 4 players are on one replica (with
   `--policy round-robin` they are usually on different replicas and see each other's moves
   through PostgreSQL: LISTEN/NOTIFY, app/live/fanout/postgres.py, read back).
4. CPU share over the measured window (percent of one core) and peak RSS of every replica and
   of Caddy (psutil); from each replica's log (one `ws` line per WebSocket, app/logs.py) the
   accepted WebSockets, from its `/metrics` (`osaka_actions_total{outcome="applied"}`, read
   with the bench's METRICS_TOKEN at the end of the step) the applied actions per replica, and
   how many rooms had their 4 sockets on more than one replica.

Prints a table (load.py's columns, `cpu%`/`cpu ms` being the sum over the replicas, plus the
proxy's CPU and the spread) and writes a JSON list, one object per step: load.py's keys plus
`replicas` ([{"port", "cpu_pct", "rss_mb", "ws", "applied"}]), `caddy_cpu_pct`, `caddy_rss_mb`,
`all_cpu_pct` (replicas + Caddy), `pg_cpu_pct` (all processes of the local PostgreSQL server,
exited backends included: other databases' work too), `pg_sessions` and `pg_commits` (new
connections and commits of the bench database in the window, pg_stat_database),
`client_cpu_pct`, `split_rooms`, `nofile`. The soft limit of open files is raised to the hard
one first (inherited by the clients, the replicas and Caddy): 2,000 rooms are
8,000 client sockets, 8,000 more from Caddy to the replicas. Only 127.0.0.1 is contacted.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

import httpx
from prometheus_client.parser import text_string_to_metric_families

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load  # noqa: E402 - bench/load.py, next to this file
from app.testing.caddy import CaddyProcess  # noqa: E402 - load put the root on the path
from app.testing.launcher import log_records  # noqa: E402

#: `--policy`: deploy/Caddyfile's own (a room's requests to the replica its code hashes to) or
#: the round robin it had before room affinity (every request a new pick).
POLICIES = {"room": None, "round-robin": "round_robin"}


def raise_open_files() -> tuple[int, int]:
    """Soft RLIMIT_NOFILE up to the hard limit (children inherit it) → (soft, hard)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else max(soft, 65536), hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)


def postgres_cpu_s() -> float:
    """CPU seconds (user + system) of the local PostgreSQL server so far: the postmaster, its
    live children, and its exited children (backends the replicas' pools closed); 0 when it is
    not visible (another host, no permission)."""
    import psutil
    total = 0.0
    for proc in psutil.process_iter(["name", "ppid"]):
        try:
            if proc.info["name"] != "postgres":
                continue
            parent = psutil.Process(proc.info["ppid"]) if proc.info["ppid"] else None
            times = proc.cpu_times()
            total += times.user + times.system
            if parent is None or parent.name() != "postgres":   # the postmaster: reaped backends too
                total += times.children_user + times.children_system
        except (psutil.Error, OSError):
            continue
    return total


def pg_database_stats(admin_url: str) -> dict[str, int]:
    """`sessions` (connections ever opened) and `xact_commit` of the bench database
    (pg_stat_database; updated by the server about once a second)."""
    async def query():
        import asyncpg
        conn = await asyncpg.connect(admin_url)
        try:
            row = await conn.fetchrow("SELECT sessions, xact_commit FROM pg_stat_database WHERE datname = $1",
                                      load.PG_DB)
        finally:
            await conn.close()
        return dict(row) if row else {"sessions": 0, "xact_commit": 0}
    return load.asyncio.run(query())


#: The replicas' METRICS_TOKEN (their /metrics tell the actions each applied: `applied_actions`).
METRICS_TOKEN = "proxy-load-bench"


def applied_actions(base_url: str) -> int:
    """The actions a replica applied since it started: the sum of its
    `osaka_actions_total{outcome="applied"}` (app/metrics.py; an applied action's log line is at
    `debug`, so the log at `info` does not hold them)."""
    text = httpx.get(f"{base_url}/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"},
                     timeout=30).raise_for_status().text
    return int(sum(sample.value for family in text_string_to_metric_families(text)
                   for sample in family.samples
                   if sample.name == "osaka_actions_total" and sample.labels.get("outcome") == "applied"))


def log_spread(log_paths: list[Path]) -> tuple[list[dict], int]:
    """Per replica log → [{"ws": accepted WebSockets}] and the number of rooms whose accepted
    sockets were on more than one replica."""
    per, rooms_on = [], {}
    for i, path in enumerate(log_paths):
        ws = 0
        for rec in log_records(path.read_text(errors="replace")):
            if rec.get("msg") == "ws" and rec.get("accepted"):
                ws += 1
                rooms_on.setdefault(rec.get("path", ""), set()).add(i)
        per.append({"ws": ws})
    return per, sum(1 for on in rooms_on.values() if len(on) > 1)


def run_proxied_step(step: int, rooms: int, args, tmp: Path, caddy_bin: str, extra_env: dict) -> dict:
    """Database, replicas, Caddy, one load.py step through it, everything stopped → the row."""
    db_url = load.fresh_database("postgres", tmp, step, args.pg_admin_url)
    work = tmp / f"step{step}"
    work.mkdir()
    servers: list[load.Server] = []
    proxy = None
    try:
        for r in range(args.replicas):
            servers.append(load.Server(db_url, work / f"replica{r}.log",
                                       {"METRICS_TOKEN": METRICS_TOKEN, **extra_env}).start())
        proxy = CaddyProcess([f"127.0.0.1:{s.port}" for s in servers], work, caddy=caddy_bin,
                             policy=POLICIES[args.policy]).start()
        time.sleep(0.5)
        watch = {f"replica{r}": s.pid for r, s in enumerate(servers)}
        watch["caddy"] = proxy.pid
        probes = {"pg_cpu_s": postgres_cpu_s,
                  "pg_sessions": lambda: pg_database_stats(args.pg_admin_url)["sessions"],
                  "pg_commits": lambda: pg_database_stats(args.pg_admin_url)["xact_commit"]}
        row = load.run_step(proxy.base_url, None, rooms, args, None, watch=watch, probes=probes)
        applied = [applied_actions(s.base_url) for s in servers]
    except Exception:
        for s in servers:
            print(f"{s.log_path.name} tail:\n{s.log_tail(1500)}", file=sys.stderr)
        if proxy is not None:
            print(f"caddy log tail:\n{proxy.log_tail(1500)}", file=sys.stderr)
        raise
    finally:
        if proxy is not None:
            proxy.stop()
        for s in servers:
            s.stop()
    spread, split = log_spread([s.log_path for s in servers])
    procs = row.pop("procs")
    replicas = [{"port": s.port, **procs[f"replica{r}"], **spread[r], "applied": applied[r]}
                for r, s in enumerate(servers)]
    cpu = sum(r["cpu_pct"] for r in replicas)
    row.update({
        "db": "postgres", "via": "caddy", "policy": args.policy, "replicas": replicas,
        "server_cpu_pct": round(cpu, 1),
        "server_cpu_ms_per_action": round(10 * cpu * row["duration_s"] / row["actions"], 2) if row["actions"] else None,
        "server_rss_mb": round(sum(r["rss_mb"] for r in replicas), 1),
        "caddy_cpu_pct": procs["caddy"]["cpu_pct"], "caddy_rss_mb": procs["caddy"]["rss_mb"],
        "all_cpu_pct": round(cpu + procs["caddy"]["cpu_pct"], 1),
        "pg_cpu_pct": round(100 * row["deltas"]["pg_cpu_s"] / row["duration_s"], 1),
        "pg_sessions": row["deltas"]["pg_sessions"], "pg_commits": row["deltas"]["pg_commits"],
        "split_rooms": split, "nofile": list(resource.getrlimit(resource.RLIMIT_NOFILE)),
        "caddy_errors": proxy.error_lines(),
    })
    row["mem_per_room_kb"] = None  # several processes: no single idle baseline
    return row


def print_row(r: dict, header: bool = False) -> None:
    """One line of the table: load.py's figures, then CPU and sockets per replica and Caddy's."""
    cols = [("rooms", 6), ("players", 8), ("actions", 8), ("actions_per_s", 7), ("p50_ms", 8), ("p95_ms", 8),
            ("p99_ms", 8), ("max_ms", 8), ("errors", 7), ("refused", 8), ("server_cpu_pct", 7),
            ("server_cpu_ms_per_action", 7), ("caddy_cpu_pct", 7), ("pg_cpu_pct", 6), ("client_cpu_pct", 6),
            ("load1", 6)]
    names = {"actions_per_s": "act/s", "server_cpu_pct": "app%", "server_cpu_ms_per_action": "app ms",
             "caddy_cpu_pct": "caddy%", "pg_cpu_pct": "pg%", "client_cpu_pct": "cli%", "load1": "load"}
    if header:
        print("".join(f"{names.get(c, c):>{w}}" for c, w in cols) + "  per replica: cpu% / ws / applied", flush=True)
    vals = {**r, "load1": r["loadavg"][0]}
    per = "  ".join(f"{x['cpu_pct']}/{x['ws']}/{x['applied']}" for x in r["replicas"])
    print("".join(f"{vals[c] if vals[c] is not None else '-':>{w}}" for c, w in cols) +
          f"  {per}  split rooms {r['split_rooms']}, pg sessions {r['pg_sessions']:g}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicas", type=int, default=2, help="osaka serve processes behind Caddy")
    parser.add_argument("--rooms", default="250,1000,2000", help="comma-separated room counts (the ramp)")
    parser.add_argument("--duration", type=float, default=30.0, help="measured seconds per step")
    parser.add_argument("--think", type=float, default=2.0, help="mean think time per decision, s")
    parser.add_argument("--pg-admin-url", default="postgresql://postgres@127.0.0.1:5432/test",
                        help="PostgreSQL server (the bench database is created next to it)")
    parser.add_argument("--workers", type=int, default=2, help="client worker processes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--again", action=argparse.BooleanOptionalAction, default=True,
                        help="a room whose game ends in the window plays again (load.py's --again)")
    parser.add_argument("--policy", choices=sorted(POLICIES), default="room",
                        help="how Caddy picks a replica: by room code (deploy/Caddyfile) or round robin (before)")
    parser.add_argument("--caddy", default="caddy", help="the caddy binary (Debian: apt-get install caddy)")
    parser.add_argument("--json", help="write the results here (a list, one object per step)")
    parser.add_argument("--env", action="append", default=[], metavar="KEY=VALUE",
                        help="extra environment for the replicas (repeatable)")
    args = parser.parse_args(argv)
    args.db, args.url = "postgres", None   # what load.run_step reads
    if args.replicas < 1:
        parser.error("--replicas must be at least 1")
    caddy_bin = shutil.which(args.caddy)
    if caddy_bin is None:
        parser.error(f"no {args.caddy!r} on PATH (apt-get install -y caddy)")
    steps = [int(x) for x in args.rooms.split(",") if x.strip()]
    extra_env = dict(kv.split("=", 1) for kv in args.env)
    nofile = raise_open_files()
    print(f"proxy load benchmark: {args.replicas} replicas on PostgreSQL behind Caddy ({args.policy}), rooms {steps}, "
          f"{args.duration:g} s per step, think {args.think:g} s, {args.workers} client workers; "
          f"{load.machine()}, open files {nofile[0]}, load {os.getloadavg()[0]:.2f}", flush=True)
    out: list[dict] = []
    tmp = Path(tempfile.mkdtemp(prefix="osaka-proxybench-"))
    try:
        for i, rooms in enumerate(steps):
            row = run_proxied_step(i, rooms, args, tmp, caddy_bin, extra_env)
            row["date"] = time.strftime("%Y-%m-%d %H:%M:%S")
            out.append(row)
            print_row(row, header=i == 0)
            if row["errors"] or row["refused"] or row["caddy_errors"]:
                print(f"      errors {row['error_kinds']}  refused {row['refused_kinds']}  "
                      f"caddy error lines {row['caddy_errors']}", flush=True)
    finally:
        if args.json:
            Path(args.json).parent.mkdir(parents=True, exist_ok=True)
            Path(args.json).write_text(json.dumps(out, indent=1) + "\n")
        try:
            load.asyncio.run(load._pg_admin(args.pg_admin_url, f'DROP DATABASE IF EXISTS "{load.PG_DB}" WITH (FORCE)'))
        except Exception as exc:
            print(f"could not drop {load.PG_DB}: {exc}", file=sys.stderr)
        if os.environ.get("PROXY_BENCH_KEEP"):
            print(f"logs kept in {tmp}", file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
