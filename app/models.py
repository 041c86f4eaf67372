"""Database tables: rooms, seats, actions, finished games (`games`), chat messages, notification
targets, their outbox and the VAPID keys. The database
is the truth; memory only caches it.

A started game is stored as a snapshot of its full state JSON on the room row (`rooms.state`,
written every few actions in the same UPDATE as the version, and at the start and the end:
`rooms.state_version` says which version it is at while that is behind `rooms.version`) plus
the log of applied actions with the events each produced. Loading a game reads the snapshot and
the log and plays only the few actions after the snapshot again, under the rules version the
game carries (`rooms.rules_version`; docs/versioning.md, docs/deploy.md), so a later engine,
rules fix or Python cannot change a stored game.
"""
from __future__ import annotations

import json
import zlib
from datetime import UTC, datetime
from typing import Any

import orjson
from sqlalchemy import (JSON, false, true, BigInteger, Boolean, CheckConstraint, DateTime, ForeignKey, Index,
                        Integer, LargeBinary, Select, String, TypeDecorator, UniqueConstraint, select)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


def utcnow() -> datetime:
    """Current UTC time, naive (stored the same way in SQLite and PostgreSQL)."""
    return datetime.now(UTC).replace(tzinfo=None)


class Base(DeclarativeBase):
    """Declarative base of all tables."""


def pack_json(value: Any) -> bytes:
    """`value` as stored in a packed column: its compact JSON text (UTF-8: orjson's, or
    `json.dumps`'s with non-ASCII escaped for what orjson refuses, such as a lone surrogate),
    compressed with zlib (RFC 1950, level 6: ~1 ms for a whole game's log)."""
    try:
        text = orjson.dumps(value)
    except TypeError:  # orjson.JSONEncodeError
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=True).encode("ascii")
    return zlib.compress(text, 6)


def unpack_json(data: bytes) -> Any:
    """The value of a packed column (`pack_json`)."""
    return json.loads(zlib.decompress(data))


class PackedJSON(TypeDecorator):
    """A JSON value stored compressed (`pack_json`: BLOB on SQLite, bytea on PostgreSQL).

    For values written once and read whole, such as a finished game's log (`GameRow.log`),
    whose JSON repeats the same keys and event types in every entry: SQLite stores JSON text
    as it is, and PostgreSQL's TOAST compresses a large `json` value less (a four-player log:
    45 KB of JSON, ~12 KB in TOAST, ~6 KB packed; docs/performance.md "Stored size of a
    game"). Readable without this code: zlib, then JSON."""

    impl = LargeBinary
    cache_ok = True

    def process_bind_param(self, value: Any, dialect) -> bytes | None:
        return None if value is None else pack_json(value)

    def process_result_value(self, value: bytes | None, dialect) -> Any:
        return None if value is None else unpack_json(value)


class Room(Base):
    """A room: code, visibility, status (waiting/playing/over), the game's seed and version.

    From the start on: `state` = the engine's full state JSON after `state_version` actions, or
    after `version` actions while `state_version` is null (secret: never sent to a client;
    deferred, so loading a room does not read it; stored every few actions and at the end:
    app/store/games.py `snapshot_due`, the actions after it are in the log), `rules_version` =
    the engine rules version the game was created under, `to_act` = the seat whose decision
    it is (null once over; lets a restart find the rooms where a computer player must move);
    `turn_limit_s`, `turn_at`, `deadline_at`: the turn timer (app/live/computer/timers.py)."""

    __tablename__ = "rooms"
    __table_args__ = (
        # A started game always has its snapshot (migration 0003): code that would start a game
        # without one (an older release still running) is refused instead of diverging.
        CheckConstraint("seed IS NULL OR (state IS NOT NULL AND rules_version IS NOT NULL)",
                        name="ck_rooms_started_has_state"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(16), unique=True, index=True)
    public: Mapped[bool] = mapped_column(Boolean, default=True)
    status: Mapped[str] = mapped_column(String(16), default="waiting", index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    # Last time someone was connected or joined; equal to created_at while nobody ever did.
    active_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    num_players: Mapped[int | None] = mapped_column(Integer, nullable=True)
    seed: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    started_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    rules_version: Mapped[int | None] = mapped_column(Integer, nullable=True)
    state: Mapped[dict | None] = mapped_column(JSON(none_as_null=True), nullable=True, deferred=True)
    # The version `state` is at when older than `version` (null: at `version`; migration 0017).
    state_version: Mapped[int | None] = mapped_column(Integer, nullable=True, deferred=True)
    to_act: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # Hash of the creator's address (app/ratelimit.py) while the room waits; None after the start.
    creator_hash: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    # The number of the room's current game (1 for the first; "play again" moves it on, the
    # finished one is kept in `games`: migration 0005). Server default only (code that inserts
    # sets it), so rows written as older migrations' code wrote them stay valid.
    game_no: Mapped[int] = mapped_column(Integer, server_default="1")
    # Turn timers (migration 0006; app/live/computer/timers.py): the host's seconds per decision (None =
    # off), when the current decision began, and its deadline (None without a timer or when over).
    turn_limit_s: Mapped[int | None] = mapped_column(Integer, nullable=True)
    turn_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    deadline_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True, index=True)
    # False once the host closed the chat to spectators (migration 0006; app/live/chat.py).
    # Server default only (create_room sets it), as `game_no`: rows written as older migrations'
    # code wrote them stay valid.
    chat_spectators: Mapped[bool] = mapped_column(Boolean, server_default=true())
    # The pace (migration 0010; app/pace.py): "live" (turn_limit_s of TURN_LIMITS or none) or
    # "turn" (turn-based: turn_limit_s of TURN_BASED_LIMITS, always set), and when the host
    # paused the game (None while it runs; the deadline stays stored and moves on at the resume).
    # Server defaults only (code that inserts sets them), as `game_no`: rows written as older
    # migrations' code wrote them stay valid.
    pace: Mapped[str] = mapped_column(String(8), server_default="live")
    paused_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    # The standings of the room's finished games (migration 0012; app/standings.py `series`):
    # rewritten when a game is stored in `games`, None before the first; never a game in play.
    standings: Mapped[dict | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    # The host allows hints (migration 0014; app/live/hints.py): a seat may ask what the
    # computer would do on its own decision. Off by default; server default only, as `game_no`.
    hints: Mapped[bool] = mapped_column(Boolean, server_default=false())
    # A guided first game, "Learn to play" (migration 0016; app/tutorial.py): the prepared deal,
    # its computer players seeded by their views and prompt. Server default only, as `game_no`.
    tutorial: Mapped[bool] = mapped_column(Boolean, server_default=false())

    seats: Mapped[list[Seat]] = relationship(back_populates="room", order_by="Seat.seat",
                                             cascade="all, delete-orphan", passive_deletes=True)


class Seat(Base):
    """A seat of a room. `token_hash` = sha256 hex of the seat token (None for a computer
    player); `bot_level` is set while a computer player controls the seat."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("room_id", "seat", name="uq_seats_room_seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(64))
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    bot_level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    # The seat's player said they are in for the room's next game ("play again").
    ready: Mapped[bool] = mapped_column(Boolean, server_default=false())
    # "Away until" (migration 0010; app/pace.py): the seat's decisions' clock does not run
    # before then (None or past: not away); the seconds of away taken this game, the running
    # away's rest included (at most pace.AWAY_BUDGET_S).
    away_until: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    away_used_s: Mapped[int] = mapped_column(Integer, server_default="0")
    # Last time a process held a visible page of this seat (migration 0011; app/notify/watch.py):
    # stamped every few seconds, so every process's notification sender knows it is watched.
    watched_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)

    room: Mapped[Room] = relationship(back_populates="seats")


class ActionRow(Base):
    """One applied action. `version` is the room version after it (1, 2, ...); `events` = the
    events `engine.play` returned for it (all of them, private ones too: filter with
    `engine.visible_events` before sending; deferred)."""

    __tablename__ = "actions"
    __table_args__ = (
        # Also the index of room_id (its first column): lookups and the cascade from rooms use it
        # (migration 0009 dropped the separate ix_actions_room_id).
        UniqueConstraint("room_id", "version", name="uq_actions_room_version"),
        # An action id is applied at most once per seat (migration 0002; docs/protocol.md).
        UniqueConstraint("room_id", "seat", "action_id", name="uq_actions_room_seat_action_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    version: Mapped[int] = mapped_column(Integer)
    action_id: Mapped[str] = mapped_column(String(128))
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict] = mapped_column(JSON)
    events: Mapped[list] = mapped_column(JSON(none_as_null=True), deferred=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class GameRow(Base):
    """A finished game of a room (app/records.py reads it): stored when the room plays again,
    or earlier, once the game is over, by `records.compact_finished` (then the room is still
    `over` at this `number`, and its action rows are gone: this row is the game's log).

    `number` = the game's number in its room (1, 2, ...; unique per room: a rematch inserts
    the finished game once, however many requests cross); `players` = [{"seat", "name",
    "bot_level", "computer"}] at the end; `log` = [{"version", "seat", "action_id", "action",
    "events", "at"}] (every event, private ones too: the game is over), stored packed in the
    column `packed_log` (`PackedJSON`: zlib of the JSON; migration 0009, before it a `log`
    JSON column of the same list); `final_state` = the engine's full state JSON at the end;
    `facts` = what the game adds to the room's standings (app/standings.py `game_facts`;
    migration 0012)."""

    __tablename__ = "games"
    __table_args__ = (UniqueConstraint("room_id", "number", name="uq_games_room_number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    rules_version: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    num_players: Mapped[int] = mapped_column(Integer)
    players: Mapped[list] = mapped_column(JSON)
    log: Mapped[list] = mapped_column("packed_log", PackedJSON, deferred=True)
    final_state: Mapped[dict] = mapped_column(JSON, deferred=True)
    started_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    ended_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    facts: Mapped[dict | None] = mapped_column(JSON(none_as_null=True), nullable=True, deferred=True)


class ChatMessage(Base):
    """One chat message of a room (app/live/chat.py): `seat` (None = a spectator's), the `name`
    shown, `text` (1 to 300 characters, shown as text only). Free text of the players: never
    anything the server knows of the game."""

    __tablename__ = "chat_messages"
    __table_args__ = (Index("ix_chat_messages_room_id", "room_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(String(300))
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


def unlocked(where: Any) -> Select:
    """`SELECT rooms.id WHERE <where>`, only the rows no other transaction has locked, locked
    now in the order of their ids (`FOR UPDATE SKIP LOCKED` on PostgreSQL; SQLite has one
    writer at a time and no row locks: there it is the plain SELECT). For a statement that
    touches many rooms and must never wait for, or deadlock with, the transactions that change
    a room (the cleanup's `active_at`: app/live/room/cleanup.py).
    https://www.postgresql.org/docs/current/sql-select.html#SQL-FOR-UPDATE-SHARE"""
    rooms = Room.__table__
    return select(rooms.c.id).where(where).order_by(rooms.c.id).with_for_update(skip_locked=True)


class ServerClock(Base):
    """One row (id 1): `alive_at` = the latest time a server process was known to be running
    (stamped every few seconds by every process, and once more by a process stopping cleanly;
    null until the first start). A process that starts and finds it older than a few seconds
    moves every running turn clock on by the gap, once (migration 0008; app/live/computer/downtime.py)."""

    __tablename__ = "server_clock"
    __table_args__ = (CheckConstraint("id = 1", name="ck_server_clock_one_row"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    alive_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)


class ServerNotice(Base):
    """The host's maintenance notice (at most one row, id 1; none: no notice): `restart_at`
    (UTC, the restart it announces, or null), `text` (free text as typed, at most
    NOTICE_MAX_CHARS, or null), `set_at`. Every process reads it at start and when told
    (app/live/notice.py; migration 0013); shown on every table and the home page."""

    __tablename__ = "server_notice"
    __table_args__ = (CheckConstraint("id = 1", name="ck_server_notice_one_row"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    restart_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    text: Mapped[str | None] = mapped_column(String(200), nullable=True)
    set_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


#: `NotifyTarget.seat` of a room's webhook (the host's channel; no seat of its own).
WEBHOOK_SEAT = -1


class NotifyTarget(Base):
    """Where one seat's notifications go (app/notify/; migration 0011): `kind` = "webpush"
    (`url` = the push service endpoint, `keys` = {"p256dh", "auth"}, RFC 8291), "apprise"
    (`url` = an Apprise URL or an e-mail address) or "webhook" (the room's, `seat` =
    WEBHOOK_SEAT, `url` an Apprise URL). `holder` = the seat's token hash when it was saved
    (a seat that changed hands is not notified); `lang` "en"/"de"; `quiet` = {"from", "to",
    "tz"} or None; `base_url` = scheme://host/prefix the links point to; `off_hash` = sha256
    hex of the "turn off" token, which is HMAC(VAPID private key, `off_salt`) (app/notify/keys.py);
    `failed` = {"reason", "at"} once its notifications went dead."""

    __tablename__ = "notify_targets"
    __table_args__ = (UniqueConstraint("room_id", "seat", "kind", name="uq_notify_targets_room_seat_kind"),
                      UniqueConstraint("off_hash", name="uq_notify_targets_off_hash"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    url: Mapped[str] = mapped_column(String(2048))
    keys: Mapped[dict | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    holder: Mapped[str | None] = mapped_column(String(64), nullable=True)
    lang: Mapped[str] = mapped_column(String(8), default="en")
    quiet: Mapped[dict | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    base_url: Mapped[str] = mapped_column(String(512))
    off_hash: Mapped[str] = mapped_column(String(64))
    off_salt: Mapped[str] = mapped_column(String(32))
    failed: Mapped[dict | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class OutboxRow(Base):
    """One notification to send (app/notify/outbox.py): unique per (`target_id`, `key`), e.g.
    "turn:{game_no}:{version}", so however many processes enqueue it, it exists once. `kind`
    = "turn" / "reminder" / "result"; `seat` = whose decision (None for a result); `game_no`
    and `version` = the decision it is about (stale once the room moved on); `due_at`;
    `lease_until` = a sender claimed it until then; `attempts` = failed tries; `state` =
    "pending" → "sent" / "dropped" / "dead"."""

    __tablename__ = "notify_outbox"
    __table_args__ = (UniqueConstraint("target_id", "key", name="uq_notify_outbox_target_key"),
                      Index("ix_notify_outbox_due", "state", "due_at"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    target_id: Mapped[int] = mapped_column(ForeignKey("notify_targets.id", ondelete="CASCADE"), index=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    key: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    game_no: Mapped[int] = mapped_column(Integer)
    version: Mapped[int] = mapped_column(Integer)
    due_at: Mapped[datetime] = mapped_column(DateTime)
    lease_until: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    state: Mapped[str] = mapped_column(String(16), default="pending")
    error: Mapped[str | None] = mapped_column(String(300), nullable=True)
    sent_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class VapidKey(Base):
    """One row (id 1): the server's VAPID key pair (RFC 8292; app/notify/webpush.py), made at
    the first start by whichever process comes first. `private_pem` = PKCS#8 PEM of the P-256
    key; `public_key` = base64url of its uncompressed point (the applicationServerKey)."""

    __tablename__ = "vapid_keys"
    __table_args__ = (CheckConstraint("id = 1", name="ck_vapid_keys_one_row"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    private_pem: Mapped[str] = mapped_column(String(512))
    public_key: Mapped[str] = mapped_column(String(128))
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class HintRow(Base):
    """One hint given (app/live/hints.py, docs/protocol.md "Hints"): at most one per decision,
    the decision being the game (`seed`: unique per game of the room) at `version`. `seat` =
    whose decision; `action` = the suggested action JSON and `why` = its reason ({"code", …}),
    both private to that seat until the game is over; that a hint was used is public (the log,
    the result, the record)."""

    __tablename__ = "hints"
    __table_args__ = (UniqueConstraint("room_id", "seed", "version", name="uq_hints_room_seed_version"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    seed: Mapped[int] = mapped_column(BigInteger)
    version: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict] = mapped_column(JSON)
    why: Mapped[dict] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class ReviewRow(Base):
    """The review of a finished game (app/live/reviews.py, bots/review.py; migration 0015): one
    per game of a room (`seed`: unique per game of the room; `number` its number there).
    `status` "pending" | "running" | "ready" | "failed"; `progress` 0..100; `review` the JSON of
    `bots.review.review_game` once ready (None before); `error` a short reason when failed;
    `updated_at` the last change (a running review older than `reviews.LEASE_S` is taken up
    again: its process died)."""

    __tablename__ = "reviews"
    __table_args__ = (UniqueConstraint("room_id", "seed", name="uq_reviews_room_seed"),
                      Index("ix_reviews_status", "status"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    seed: Mapped[int] = mapped_column(BigInteger)
    number: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16))
    progress: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    review: Mapped[dict | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    error: Mapped[str | None] = mapped_column(String(200), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
