"""Server settings, read from the environment once in `create_app` (pydantic-settings)."""
from __future__ import annotations

from collections.abc import Mapping

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from .prefix import RESERVED, normalize_prefix
from .ratelimit import parse_limits

#: Variables that were settings once and are no longer read, each with what took its place. A
#: host may still set one in its environment or .env: `osaka serve` names them in one warning
#: at start (`retired_settings`) rather than failing, so the host notices and can drop them.
RETIRED = {
    "FLOOD_RATE": "FLOOD_LIMIT (limits notation, e.g. 60/3seconds)",
    "FLOOD_BURST": "FLOOD_LIMIT (limits notation, e.g. 60/3seconds)",
    "MAX_BAD_MESSAGES": "a fixed bound of 50 (docs/protocol.md)",
    "MAX_FRAME_BYTES": "a fixed bound of 65536 (docs/protocol.md)",
    "WS_MAX_SIZE": "a fixed bound of 1048576 (docs/protocol.md)",
    "MAX_BODY_BYTES": "a fixed bound of 65536 (docs/protocol.md)",
    "SEND_QUEUE_SIZE": "a fixed bound of 256 (docs/protocol.md)",
    "MAX_ARRIVALS_WAITING": "a fixed bound of 16 (docs/protocol.md)",
}


def retired_settings(environ: Mapping[str, str]) -> dict[str, str]:
    """The variables of `RETIRED` set in `environ` to a non-empty value (names in any case, as
    `Settings` reads them) → {NAME: what replaced it}, sorted by name; empty when none is set.
    An empty value counts as unset: docker-compose.yml passes each on as `${NAME:-}`, so that
    one left in a host's .env reaches the server and is named."""
    present = {name.upper() for name, value in environ.items() if value.strip()}
    return {name: RETIRED[name] for name in sorted(RETIRED) if name in present}


class Settings(BaseSettings):
    """All knobs of the server. Environment variable = field name in upper case.

    Durations are in seconds. The database URL is an SQLAlchemy async URL:
    ``sqlite+aiosqlite:///./osaka.db`` (default) or ``postgresql+asyncpg://user@host/db``.
    """

    model_config = SettingsConfigDict(env_prefix="", case_sensitive=False, extra="ignore")

    database_url: str = "sqlite+aiosqlite:///./osaka.db"
    host: str = "127.0.0.1"
    port: int = 8000
    log_level: str = "info"
    # computer players
    bot_delay_s: float = Field(0.8, ge=0)
    bot_time_budget_s: float = Field(1.0, gt=0)
    # the hard player's (and the hints') floor of search simulations per decision: on a slow or
    # busy host it thinks past the budget until it has run them (docs/bots.md "A floor of
    # simulations"; 0 = the time budget alone)
    bot_min_simulations: int = Field(100, ge=0)
    bot_workers: int = Field(1, ge=1)
    # the review of every finished game (app/live/reviews.py, docs/bots.md "Review"): simulations
    # per decision (fixed, so the same record gives the same review; 0 = no reviews) and how
    # often every process looks for a review to compute (pending, or whose process died)
    review_simulations: int = Field(64, ge=0)
    review_poll_s: float = Field(30, gt=0)
    handover_after_s: float = Field(60, ge=0)     # any seated player may hand a seat offline this long to a computer player (the host at once)
    # turn timers (app/live/computer/timers.py): an extra, short choice of seconds per decision offered
    # besides 30/60/120/300 (for tests and demos; 0 = none), and how often each process looks
    # for decisions past their deadline
    turn_limit_test_s: int = Field(0, ge=0)
    # the same for turn-based rooms (app/pace.py): one short time per decision offered besides
    # 1 h/8 h/1 d/3 d, for tests and demos (0 = none)
    turn_based_test_s: int = Field(0, ge=0)
    timer_poll_s: float = Field(0.5, gt=0)
    # chat (app/live/chat.py): messages one seat (a spectator: one address) may send per room
    chat_limit: str = "5/10seconds;30/minute"
    # lobby and cleanup
    room_ttl_s: float = Field(86400, gt=0)        # a waiting room nobody was connected to this long is deleted
    unused_room_ttl_s: float = Field(300, gt=0)   # a room nobody ever joined or connected to: deleted after this long
    turn_room_ttl_s: float = Field(30 * 86400, gt=0)  # the same as room_ttl_s for a turn-based room waiting for its players
    cleanup_interval_s: float = Field(30, gt=0)   # how often the cleanup task runs
    # connections (the protocol's own bounds, which no host tunes, are constants where they
    # are enforced: SEND_QUEUE_SIZE app/live/sockets/connection.py, MAX_FRAME_BYTES and
    # MAX_BAD_MESSAGES app/live/sockets/frames.py, MAX_ARRIVALS_WAITING
    # app/live/sockets/handshake.py, MAX_BODY_BYTES app/main.py, WS_MAX_SIZE app/cli.py)
    # keep-alive pings: a host keeps its proxy's read timeout above the interval (docs/deploy.md)
    ws_ping_interval_s: float = Field(20, gt=0)
    ws_ping_timeout_s: float = Field(20, gt=0)
    # per-message deflate (RFC 7692) on the WebSockets: far fewer bytes per move, for more
    # server CPU per move and more memory per room (docs/performance.md, "Per-message compression")
    ws_compression: bool = False
    # client messages one WebSocket may send (app/live/sockets/connection.py; `limits` notation, "off" = none);
    # more are refused with `rate_limited`
    flood_limit: str = "60/3seconds"
    # room WebSockets opened (app/live/sockets/handshake.py; `limits` notation, "off" = none): per seat,
    # per client address
    connect_seat_limit: str = "10/10seconds;30/minute"
    connect_address_limit: str = "60/10seconds;600/minute"
    cookie_secure: bool = False                   # Secure seat cookies always (else only on https requests)
    # reverse proxy: comma-separated addresses (or "*") whose X-Forwarded-For/-Proto/-Prefix are trusted
    forwarded_allow_ips: str = "127.0.0.1,::1"
    root_path: str = ""                           # URL path prefix the app is served under ("/osaka"; app/prefix.py)
    # abuse limits per client address (app/ratelimit.py; `limits` notation, "off" = none)
    room_create_limit: str = "10/minute;60/hour"  # rooms created
    room_join_limit: str = "60/minute;600/hour"   # join requests
    room_lookup_limit: str = "30/minute;300/hour"  # lookups of codes of no room (404): more get 429 for every code
    rooms_per_address: int = Field(20, ge=0)      # waiting rooms one address may hold (0 = no cap)
    lobby_rooms_per_address: int = Field(5, ge=0)  # rooms of one address listed in the lobby (0 = no cap)

    # notifications (app/notify/; docs/deploy.md "Notifications"): how often every process looks
    # for decisions to tell and notifications due; user-given URLs that resolve to loopback,
    # private, link-local or metadata addresses are refused unless allowed (a LAN's own ntfy);
    # notifications one seat / one room may be sent (`limits` notation; more wait); changes of
    # one address's notification settings; tries before a target is dead; seconds to connect
    # and to read per request; the links' base (scheme://host/prefix) when set, else the one
    # the request that saved the target came under
    notify_poll_s: float = Field(2, gt=0)
    notify_allow_private: bool = False
    notify_seat_limit: str = "10/minute;120/hour"
    notify_room_limit: str = "30/minute;600/hour"
    notify_change_limit: str = "20/minute;200/hour"
    notify_max_failures: int = Field(6, ge=1)
    notify_backoff_s: float = Field(2, gt=0)     # the first retry's wait; doubled after each failure
    notify_timeout_s: float = Field(5, gt=0)
    public_url: str = ""
    # mail for notifications to a plain e-mail address (Apprise mailto://; unset = refused with
    # `notify_no_smtp`); STARTTLS on SMTP_PORT (587) or, with SMTP_STARTTLS=false, plain SMTP
    # (a local relay) -- port 465 means TLS from the start
    smtp_host: str = ""
    smtp_port: int = Field(587, ge=1, le=65535)
    smtp_user: str = ""
    smtp_password: str = ""
    smtp_from: str = ""
    smtp_starttls: bool = True
    # GET /metrics (app/metrics.py; docs/deploy.md "Metrics"): Prometheus's scrape with
    # `Authorization: Bearer <this>`; empty = off (404)
    metrics_token: str = ""
    # the admin page (GET /admin, /api/admin/...; app/routes/admin.py; docs/deploy.md "The
    # admin page"): the host's token, `Authorization: Bearer <this>`; empty = off (404); wrong
    # tokens per client address (`limits` notation; more get 429 rate_limited)
    admin_token: str = ""
    admin_limit: str = "10/minute;50/hour"

    @field_validator("room_create_limit", "room_join_limit", "room_lookup_limit", "connect_seat_limit", "connect_address_limit",
                     "chat_limit", "flood_limit", "notify_seat_limit", "notify_room_limit", "notify_change_limit",
                     "admin_limit")
    @classmethod
    def _rate(cls, value: str) -> str:
        """A typo in a limit stops the server at start, not silently at the first request."""
        parse_limits(value)
        return value

    @field_validator("root_path")
    @classmethod
    def _root_path(cls, value: str) -> str:
        """`/osaka/` → `/osaka`; a prefix that is no plain path stops the server at start."""
        prefix = normalize_prefix(value)
        if prefix is None:
            raise ValueError(f"ROOT_PATH must be a path like /osaka (not starting with one of "
                             f"{', '.join(sorted(RESERVED))}), got {value!r}")
        return prefix
