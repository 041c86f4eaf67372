"""The one sender: claims due outbox rows (outbox.claim: a lease, so one sender however many
processes run) and delivers each, or drops, defers or gives up on it.

For one claimed row, in order (`Sender.one`):
1. Read the row, its target, the room and its seats (a short transaction; none is open while
   a request is made).
2. Drop it when stale (`stale`: the decision it is about was made, the game moved on, the seat
   changed hands or a computer player plays it) or its target failed.
3. Defer it, counting nothing, while the seat is watched (a visible page, here or in another
   process: watch.py) -- so it goes out once the page is hidden, if the decision is still open
   --, inside the seat's quiet hours (to their end), or over the per-seat / per-room rate
   (NOTIFY_SEAT_LIMIT, NOTIFY_ROOM_LIMIT, counted over the rows sent: every process's).
4. Build the message (texts.py: public information only), check the URL again (urls.check:
   resolve and refuse private addresses before EACH request) and deliver it in a worker thread
   (webpush.py, apprise_send.py: NOTIFY_TIMEOUT_S to connect and to read).
5. Sent: `sent`. Failed: tried again after NOTIFY_BACKOFF_S × 2^(failures−1); after
   NOTIFY_MAX_FAILURES failures (or at once for a Web Push 404/410: the subscription is gone)
   the row is `dead` and the target `failed` {reason, at}, shown by the API, until saved again.
"""
from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta
from typing import Callable
from zoneinfo import ZoneInfo

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from .. import metrics
from ..config import Settings
from ..models import WEBHOOK_SEAT, ActionRow, GameRow, NotifyTarget, OutboxRow, Room, Seat, utcnow
from ..ratelimit import parse_limits
from ..refusals import Refusal
from ..rooms import iso, room_url
from . import apprise_send, outbox, texts, urls, webpush
from .keys import VapidKeys
from .watch import watched

log = logging.getLogger("osaka.notify")
#: Seconds before a watched seat's notification is looked at again.
WATCH_RECHECK_S = 5
PARALLEL = 4


def quiet_end(quiet: dict | None, now: datetime) -> datetime | None:
    """The end (naive UTC) of the quiet hours `quiet` ({"from", "to", "tz"}) when `now` (naive
    UTC) is inside them, else None. `to` before `from`: across midnight."""
    if not quiet:
        return None
    zone = ZoneInfo(quiet["tz"])
    local = now.replace(tzinfo=ZoneInfo("UTC")).astimezone(zone)
    (fh, fm), (th, tm) = (map(int, quiet["from"].split(":")), map(int, quiet["to"].split(":")))
    start, end = local.replace(hour=fh, minute=fm, second=0, microsecond=0), local.replace(hour=th, minute=tm, second=0,
                                                                                           microsecond=0)
    if start == end:
        return None
    if start < end:
        inside, until = start <= local < end, end
    else:
        inside = local >= start or local < end
        until = end if local < end else end + timedelta(days=1)
    if not inside:
        return None
    return until.astimezone(ZoneInfo("UTC")).replace(tzinfo=None)


async def stale(session: AsyncSession, row: OutboxRow, room: Room) -> bool:
    """True when the decision `row` is about is over: the room is no longer in play in that
    game with that seat to act, or (a `turn`) another seat acted since, or (a `reminder`) any
    action did. A `result` is never stale."""
    if row.kind == "result":
        return False
    if room.status != "playing" or room.game_no != row.game_no or room.to_act != row.seat:
        return True
    if row.kind == "reminder":
        return room.version != row.version
    other = await session.scalar(select(func.count(ActionRow.id)).where(
        ActionRow.room_id == room.id, ActionRow.version > row.version, ActionRow.seat != row.seat))
    return bool(other)


async def _events(session: AsyncSession, room: Room, game_no: int, version: int) -> list:
    """The events of the action at `version` of game `game_no` (the finished games' log too)."""
    if version <= 0:
        return []
    if room.game_no == game_no:
        events = await session.scalar(select(ActionRow.events).where(ActionRow.room_id == room.id,
                                                                      ActionRow.version == version))
        if events is not None:
            return events
    log_ = await session.scalar(select(GameRow.log).where(GameRow.room_id == room.id, GameRow.number == game_no))
    for entry in log_ or []:
        if entry.get("version") == version:
            return entry.get("events") or []
    return []


class Sender:
    """Delivers this process's claims (module docstring); `watching()` → the (code, seat)
    with a visible page here (`Live.watched_seats`)."""

    def __init__(self, settings: Settings, sessions: async_sessionmaker[AsyncSession], keys: VapidKeys,
                 watching: Callable[[], set[tuple[str, int]]]):
        self.settings = settings
        self.sessions = sessions
        self.keys = keys
        self.watching = watching
        self.seat_limits = parse_limits(settings.notify_seat_limit)
        self.room_limits = parse_limits(settings.notify_room_limit)
        self.sent = 0  # notifications this process delivered
        self.stopping = False  # set by `Notify.close`: nothing more is claimed or started
        self.sending = 0       # rows being handled now (`one` under way)
        self._unstarted: dict[int, datetime] = {}  # claimed here, not started: id → lease

    async def run_once(self) -> int:
        """Claim the due rows and handle them: one room's one after the other (so its rate is
        counted with the previous one sent), at most PARALLEL rooms at a time → rows claimed.
        (Two processes may each hold one row of a room at once: across processes the rates
        are a bound each process keeps, not a shared one.) Once `stopping`, claims nothing
        (→ 0) and starts no row more: those claimed wait for `release`."""
        if self.stopping:
            return 0
        async with self.sessions() as session:
            claimed = await outbox.claim(session)
        gate = asyncio.Semaphore(PARALLEL)
        by_room: dict[int, list[tuple[int, datetime]]] = {}
        for row_id, lease, room_id in claimed:
            by_room.setdefault(room_id, []).append((row_id, lease))
            self._unstarted[row_id] = lease

        async def room(rows: list[tuple[int, datetime]]) -> None:
            async with gate:
                for row_id, lease in rows:
                    if self.stopping:
                        return
                    self._unstarted.pop(row_id, None)
                    self.sending += 1
                    try:
                        await self.one(row_id, lease)
                    except Exception:
                        log.exception("notification %s failed unexpectedly", row_id)
                    finally:
                        self.sending -= 1
        await asyncio.gather(*(room(rows) for rows in by_room.values()))
        return len(claimed)

    async def release(self) -> int:
        """Give back the rows claimed here and not started (`outbox.release`), so that another
        process sends them at once rather than when their lease runs out (`outbox.LEASE_S`,
        60 s): at a stop (`Notify.close`) → rows given back. Raises what the database raises."""
        rows, self._unstarted = self._unstarted, {}
        if not rows:
            return 0
        async with self.sessions() as session:
            given = await outbox.release(session, rows)
            await session.commit()
        return given

    async def _over_rate(self, session: AsyncSession, target: NotifyTarget, now: datetime) -> datetime | None:
        """When a notification of this target's seat / room may go next, if a rate is full now."""
        o, t = OutboxRow, NotifyTarget
        checks = [(self.room_limits, o.room_id == target.room_id)]
        if target.seat != WEBHOOK_SEAT:
            checks.append((self.seat_limits, (t.room_id == target.room_id) & (t.seat == target.seat)))
        for items, where in checks:
            for item in items:
                since = now - timedelta(seconds=item.get_expiry())
                times = (await session.scalars(select(o.sent_at).join(t, t.id == o.target_id).where(
                    where, o.state == "sent", o.sent_at > since).order_by(o.sent_at))).all()
                if len(times) >= item.amount:
                    return times[len(times) - item.amount] + timedelta(seconds=item.get_expiry())
        return None

    async def one(self, row_id: int, lease: datetime) -> None:
        """Handle one claimed row (module docstring)."""
        now = utcnow()
        async with self.sessions() as session:
            row = await session.get(OutboxRow, row_id)
            target = row and await session.get(NotifyTarget, row.target_id)
            room = target and await session.get(Room, target.room_id)
            if row is None or target is None or room is None:
                return
            seats = {s.seat: s for s in (await session.scalars(select(Seat).where(Seat.room_id == room.id))).all()}
            seat = seats.get(row.seat) if row.seat is not None else None
            if target.failed or await stale(session, row, room) or (
                    target.seat != WEBHOOK_SEAT and (seat is None or seat.token_hash != target.holder or seat.bot_level)):
                await outbox.finish(session, row_id, lease, "dropped")
                metrics.NOTIFICATIONS.labels(target=_kind(target), outcome="dropped").inc()
                return await session.commit()
            later = None
            # Held while the seat to act has its page in view -- the webhook's turn too: the group
            # need not hear of a turn its person is at the table for (one person among fast
            # computer players would flood the channel otherwise).
            if seat is not None and watched(seat.watched_at, (room.code, seat.seat) in self.watching(), now):
                later = now + timedelta(seconds=WATCH_RECHECK_S)
            later = later or quiet_end(target.quiet, now) or await self._over_rate(session, target, now)
            if later is not None:
                await outbox.defer(session, row_id, lease, later)
                return await session.commit()
            names = [seats[i].name if i in seats else "?" for i in range(max(seats, default=-1) + 1)]
            events = await _events(session, room, row.game_no, row.version)
            await session.commit()
        keys = await self.keys.get()
        off = f"{target.base_url}/api/notify/off/{keys.off_token(target.off_salt)}"
        msg = texts.message(row.kind, target.lang, room.code, names[row.seat] if row.seat is not None else "",
                            texts.move_line(events, names, target.lang) if row.kind != "result" else "",
                            texts.result_line(events, names, target.lang), target.base_url + room_url(room.code),
                            off, target.seat == WEBHOOK_SEAT)
        ok, gone, reason = await self.deliver(target, msg, keys.private_pem)
        outcome = await self._record(row_id, lease, target.id, row.attempts, ok, gone, reason)
        metrics.NOTIFICATIONS.labels(target=_kind(target), outcome=outcome).inc()

    async def deliver(self, target: NotifyTarget, msg: dict, private_pem: str) -> tuple[bool, bool, str]:
        """Check the URL again, then send → (ok, gone, reason)."""
        settings = self.settings
        try:
            checked = (urls.parse_push_endpoint(target.url) if target.kind == "webpush"
                       else urls.parse_apprise(target.url, settings))
            await urls.check(checked, settings)
        except Refusal as exc:
            return False, False, f"{exc.code}: {exc.message}"[:200]
        if target.kind == "webpush":
            subject = f"mailto:{settings.smtp_from}" if settings.smtp_from else (
                target.base_url if target.base_url.startswith("https://") else "mailto:notifications@localhost")
            result = await asyncio.to_thread(webpush.send, {"endpoint": target.url, "keys": target.keys}, msg,
                                             private_pem, subject, msg["room"], settings.notify_timeout_s)
            return result.ok, result.gone, result.reason
        body = f"{msg['body']}\n{msg['url']}"
        if target.seat != WEBHOOK_SEAT:  # the group's channel gets no off link: anyone there could use it
            off = msg["off_url"].replace("/api/notify/off/", "/n/off/")
            body += "\n\n" + texts.TEXT[msg["lang"]]["off_line"].format(url=off)
        ok, reason = await asyncio.to_thread(apprise_send.send, checked.url, checked.email, msg["title"], body, settings)
        return ok, False, reason

    async def _record(self, row_id: int, lease: datetime, target_id: int, attempts: int, ok: bool, gone: bool,
                      reason: str) -> str:
        """What became of a delivery: sent, retried after a backoff ("failed"), or dead with the
        target failed → that outcome (the metrics' label)."""
        async with self.sessions() as session:
            if ok:
                outcome = "sent"
                if await outbox.finish(session, row_id, lease, "sent"):
                    self.sent += 1
            elif gone or attempts + 1 >= self.settings.notify_max_failures:
                outcome = "dead"
                if await outbox.finish(session, row_id, lease, "dead", reason):
                    target = await session.get(NotifyTarget, target_id)
                    if target is not None:
                        target.failed = {"reason": reason or "failed", "at": iso(utcnow())}
                log.warning("notifications to target %s failed: %s", target_id, reason)
            else:
                outcome = "failed"
                wait = outbox.backoff_s(attempts + 1, self.settings.notify_backoff_s)
                await outbox.defer(session, row_id, lease, utcnow() + timedelta(seconds=wait), failed=True, error=reason)
            await session.commit()
        return outcome


def _kind(target: NotifyTarget) -> str:
    """The `target` label of a target: "webpush", "apprise" or "webhook" (the room's)."""
    return "webhook" if target.seat == WEBHOOK_SEAT else target.kind
