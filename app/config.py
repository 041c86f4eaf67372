"""Server settings, read from the environment once in `create_app` (pydantic-settings)."""
from __future__ import annotations

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from .prefix import RESERVED, normalize_prefix
from .ratelimit import parse_limits


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
    bot_workers: int = Field(1, ge=1)
    handover_after_s: float = Field(60, ge=0)     # any seated player may hand a seat offline this long to a computer player (the host at once)
    # turn timers (app/live/timers.py): an extra, short choice of seconds per decision offered
    # besides 30/60/120/300 (for tests and demos; 0 = none), and how often each process looks
    # for decisions past their deadline
    turn_limit_test_s: int = Field(0, ge=0)
    timer_poll_s: float = Field(0.5, gt=0)
    # chat (app/live/chat.py): messages one seat (a spectator: one address) may send per room
    chat_limit: str = "5/10seconds;30/minute"
    # lobby and cleanup
    room_ttl_s: float = Field(86400, gt=0)        # a waiting room nobody was connected to this long is deleted
    unused_room_ttl_s: float = Field(300, gt=0)   # a room nobody ever joined or connected to: deleted after this long
    cleanup_interval_s: float = Field(30, gt=0)   # how often the cleanup task runs
    # connections
    send_queue_size: int = Field(256, ge=1)       # frames buffered per connection before it is dropped
    max_frame_bytes: int = Field(65536, ge=1024)  # larger client frames are refused (bad_message)
    ws_max_size: int = Field(1 << 20, ge=65536)   # larger frames close the socket (uvicorn, code 1009)
    ws_ping_interval_s: float = Field(20, gt=0)
    ws_ping_timeout_s: float = Field(20, gt=0)
    # per-message deflate (RFC 7692) on the WebSockets: 0.1-0.3 KB instead of ~1.5 KB per player
    # and move, for ~10-25 % more server CPU per move and ~190 KB more memory per room of 4
    # (docs/performance.md, "Per-message compression off by default")
    ws_compression: bool = False
    flood_rate: float = Field(20, gt=0)           # client messages per second allowed on average
    flood_burst: int = Field(60, ge=1)            # ... and in one burst
    max_bad_messages: int = Field(50, ge=1)       # bad or flooding messages before the socket is closed (1008)
    # room WebSockets opened (app/live/admission.py; `limits` notation, "off" = none): per seat,
    # per client address; and new connections of one room waiting for it at once
    connect_seat_limit: str = "10/10seconds;30/minute"
    connect_address_limit: str = "60/10seconds;600/minute"
    max_arrivals_waiting: int = Field(16, ge=1)
    cookie_secure: bool = False                   # Secure seat cookies always (else only on https requests)
    # reverse proxy: comma-separated addresses (or "*") whose X-Forwarded-For/-Proto/-Prefix are trusted
    forwarded_allow_ips: str = "127.0.0.1,::1"
    root_path: str = ""                           # URL path prefix the app is served under ("/osaka"; app/prefix.py)
    max_body_bytes: int = Field(65536, ge=1024)   # larger HTTP bodies get 413 too_large
    # abuse limits per client address (app/ratelimit.py; `limits` notation, "off" = none)
    room_create_limit: str = "10/minute;60/hour"  # rooms created
    room_join_limit: str = "60/minute;600/hour"   # join requests
    room_lookup_limit: str = "30/minute;300/hour"  # lookups of codes of no room (404): more get 429 for every code
    rooms_per_address: int = Field(20, ge=0)      # waiting rooms one address may hold (0 = no cap)
    lobby_rooms_per_address: int = Field(5, ge=0)  # rooms of one address listed in the lobby (0 = no cap)

    @field_validator("room_create_limit", "room_join_limit", "room_lookup_limit", "connect_seat_limit", "connect_address_limit",
                     "chat_limit")
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
