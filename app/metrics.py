"""What a host's Prometheus scrapes from one server process (`GET /metrics`, app/routes/health.py;
docs/deploy.md "Metrics"), by the `prometheus_client` library
(https://prometheus.github.io/client_python/) in its text format.

Counted where it happens, cheaply (a counter is a lock and an add):

- `osaka_actions_total{outcome, by}`: every submitted action by its outcome, `applied` or the
  refusal's code (`stale_version`, `game_paused`, an engine code, …), and who sent it
  (`player`, `bot`, `timeout`): app/live/actions/attempt.py `Attempt.note`;
- `osaka_action_seconds{stage}`: from the frame's arrival at the action path to `committed`
  (the group commit answered) and to `sent` (its frames queued for every connection);
- `osaka_commit_batch_actions`: actions per group-commit transaction (commits.py);
- `osaka_send_queue_dropped_total`: connections dropped because their send queue was full;
- `osaka_bot_decisions_total{level}` and `osaka_bot_decision_seconds{level}`: computer-player
  choices (computer/decide.py, the worker's time included);
- `osaka_notifications_total{target, outcome}`: deliveries `sent`, `failed` (tried again),
  `dead`, `dropped` (stale or the seat changed hands): app/notify/sender.py.

Read at each scrape (`Gauges.collect`, given by the route): `osaka_rooms{state}` (waiting,
playing, over: in the database, so the same from every process), `osaka_sockets{kind}` (this
process's room, lobby and "my games" connections) and `osaka_db_pool_in_use` (connections
checked out of this process's pool).

One registry per process (`REGISTRY`, not the library's global one, so nothing else the
process imports adds to it); a test that starts several apps in one process sees their sums.
"""
from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

REGISTRY = CollectorRegistry(auto_describe=True)

#: Seconds: 0.5 ms to 5 s (an action's path on a laptop is ~1 ms, a slow disk's commit ~50 ms).
LATENCY_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)

ACTIONS = Counter("osaka_actions", "Actions submitted, by outcome (applied or the refusal's code) and sender.",
                  ["outcome", "by"], registry=REGISTRY)
ACTION_SECONDS = Histogram("osaka_action_seconds", "Seconds from an action's arrival to committed / sent.",
                           ["stage"], buckets=LATENCY_BUCKETS, registry=REGISTRY)
COMMIT_BATCH = Histogram("osaka_commit_batch_actions", "Actions per group-commit transaction.",
                         buckets=(1, 2, 4, 8, 16, 32, 64, 128, 256), registry=REGISTRY)
SEND_DROPPED = Counter("osaka_send_queue_dropped", "Connections dropped because their send queue was full.",
                       registry=REGISTRY)
BOT_DECISIONS = Counter("osaka_bot_decisions", "Computer-player decisions, by level.", ["level"], registry=REGISTRY)
BOT_SECONDS = Histogram("osaka_bot_decision_seconds", "Seconds a computer player took to choose, by level.",
                        ["level"], buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0), registry=REGISTRY)
NOTIFICATIONS = Counter("osaka_notifications", "Notification deliveries, by target kind and outcome.",
                        ["target", "outcome"], registry=REGISTRY)


class Gauges(Collector):
    """The values read at each scrape: `read()` → {"rooms": {state: n}, "sockets": {kind: n},
    "pool": n} (set by the route just before it renders, since the room counts need an async
    database query)."""

    def __init__(self) -> None:
        self.values: dict = {"rooms": {}, "sockets": {}, "pool": 0}

    def collect(self):
        rooms = GaugeMetricFamily("osaka_rooms", "Rooms in the database, by state.", labels=["state"])
        for state in ("waiting", "playing", "over"):
            rooms.add_metric([state], self.values["rooms"].get(state, 0))
        yield rooms
        sockets = GaugeMetricFamily("osaka_sockets", "Open WebSocket connections of this process, by kind.",
                                    labels=["kind"])
        for kind, n in sorted(self.values["sockets"].items()):
            sockets.add_metric([kind], n)
        yield sockets
        yield GaugeMetricFamily("osaka_db_pool_in_use", "Database connections checked out of this process's pool.",
                                value=self.values["pool"])


GAUGES = Gauges()
REGISTRY.register(GAUGES)


def render(values: dict) -> bytes:
    """The text exposition of everything above, with the scrape-time `values` (`Gauges`)."""
    GAUGES.values = values
    return generate_latest(REGISTRY)

#: The hot path's series, resolved once.
COMMITTED = ACTION_SECONDS.labels(stage="committed")
SENT = ACTION_SECONDS.labels(stage="sent")
