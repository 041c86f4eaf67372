"""A seat's notification targets and the room's webhook in the database: read as the API shows
them, saved (checked first), turned off (docs/protocol.md "Notifications").

Targets are no part of the game: saving one changes nothing a table or a connection knows, so
it runs in the request's own session, never under the room's lock (no transaction waits for a
lock). Each function takes an open session and commits nothing but `save`/`remove`/`turn_off`,
which commit their one change. A target keeps the token hash of the seat it was saved for
(`holder`): once the seat changes hands, the sender drops its notifications.
"""
from __future__ import annotations

import secrets

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from ..config import Settings
from ..models import WEBHOOK_SEAT, NotifyTarget, OutboxRow, Room, Seat, utcnow
from ..refusals import Refusal
from . import urls
from .keys import Keys, off_hash
from .schemas import NotifyIn, push_keys_ok

KINDS = ("webpush", "apprise")


async def of_seat(session: AsyncSession, room_id: int, seat: int) -> list[NotifyTarget]:
    """The targets of one seat (or of the webhook: `seat` = WEBHOOK_SEAT)."""
    return list((await session.scalars(select(NotifyTarget).where(
        NotifyTarget.room_id == room_id, NotifyTarget.seat == seat))).all())


def shown(targets: list[NotifyTarget], webhook: NotifyTarget | None, host: bool) -> dict:
    """The GET shape of a seat's targets (`webhook` only for the host)."""
    by_kind = {t.kind: t for t in targets}
    first = targets[0] if targets else None
    failed = None
    for t in targets:
        if t.failed and (failed is None or t.failed["at"] > failed["at"]):
            failed = {"target": t.kind, "reason": t.failed["reason"], "at": t.failed["at"]}
    out = {"webpush": "webpush" in by_kind, "apprise": urls.redact(by_kind["apprise"].url) if "apprise" in by_kind else None,
           "quiet": first.quiet if first else None, "lang": first.lang if first else "en", "failed": failed}
    if host:
        out["webhook"] = urls.redact(webhook.url) if webhook else None
    return out


async def show(session: AsyncSession, room: Room, seat: Seat) -> dict:
    """The GET answer of `seat`'s player."""
    mine = await of_seat(session, room.id, seat.seat)
    webhook = None
    if seat.seat == 0:
        hooks = await of_seat(session, room.id, WEBHOOK_SEAT)
        webhook = hooks[0] if hooks else None
    return shown(mine, webhook, seat.seat == 0)


def _new_target(room_id: int, seat: int, kind: str, url: str, keys_json: dict | None, holder: str | None,
                lang: str, quiet: dict | None, base_url: str, vapid: Keys) -> NotifyTarget:
    salt = secrets.token_hex(16)
    return NotifyTarget(room_id=room_id, seat=seat, kind=kind, url=url, keys=keys_json, holder=holder, lang=lang,
                        quiet=quiet, base_url=base_url, off_salt=salt, off_hash=off_hash(vapid.off_token(salt)),
                        created_at=utcnow())


async def save(session: AsyncSession, room: Room, seat: Seat, body: NotifyIn, base_url: str,
               settings: Settings, vapid: Keys) -> None:
    """Apply a PUT: every URL given is checked first (urls.py: 422 `notify_bad_url` /
    `notify_private_url` / `notify_no_smtp`), then the seat's targets are replaced, added or
    removed as the body says (a member left out stays), `lang` and `quiet` set on all of
    them; a target saved again is no longer `failed`. Commits."""
    given = body.model_fields_set
    if "webpush" in given and body.webpush is not None and not push_keys_ok(body.webpush.keys):
        raise Refusal("bad_request", "webpush.keys: an uncompressed P-256 key (65 bytes) and a 16-byte auth "
                                     "secret, base64url (RFC 8291).")
    if body.quiet is not None and body.quiet.start == body.quiet.end:
        raise Refusal("bad_request", "quiet: from and to are the same time (no hours, or every hour?).")
    checked: dict[str, urls.Target | None] = {}
    if "webpush" in given:
        checked["webpush"] = None if body.webpush is None else urls.parse_push_endpoint(body.webpush.endpoint)
    if "apprise" in given:
        checked["apprise"] = None if not body.apprise else urls.parse_apprise(body.apprise, settings)
    for target in checked.values():
        if target is not None:
            await urls.check(target, settings)
    current = {t.kind: t for t in await of_seat(session, room.id, seat.seat)}
    first = next(iter(current.values()), None)
    lang = body.lang if "lang" in given and body.lang else (first.lang if first else "en")
    quiet = (body.quiet.model_dump(by_alias=True) if body.quiet else None) if "quiet" in given else (
        first.quiet if first else None)
    for kind, target in checked.items():
        old = current.pop(kind, None)
        if old is not None:
            await session.delete(old)
            await session.flush()
        if target is not None:
            keys_json = body.webpush.keys.model_dump() if kind == "webpush" else None
            session.add(_new_target(room.id, seat.seat, kind, target.url, keys_json, seat.token_hash, lang, quiet,
                                    base_url, vapid))
    for t in current.values():
        t.lang, t.quiet = lang, quiet
        t.holder = seat.token_hash
    await session.commit()


async def save_webhook(session: AsyncSession, room: Room, url: str | None, lang: str, base_url: str,
                       settings: Settings, vapid: Keys) -> NotifyTarget | None:
    """The host's PUT of the room's webhook (checked as `save` does; null removes it), its
    texts in `lang`. Commits."""
    target = None if not url else urls.parse_apprise(url, settings)
    if target is not None:
        await urls.check(target, settings)
    await session.execute(delete(NotifyTarget).where(NotifyTarget.room_id == room.id,
                                                     NotifyTarget.seat == WEBHOOK_SEAT))
    row = None
    if target is not None:
        row = _new_target(room.id, WEBHOOK_SEAT, "webhook", target.url, None, None, lang, None, base_url, vapid)
        session.add(row)
    await session.commit()
    return row


async def remove(session: AsyncSession, room_id: int, seat: int) -> None:
    """Every target of one seat off (DELETE /api/rooms/{code}/notify). Commits."""
    await session.execute(delete(NotifyTarget).where(NotifyTarget.room_id == room_id, NotifyTarget.seat == seat))
    await session.commit()


async def by_off_token(session: AsyncSession, token: str) -> tuple[NotifyTarget, str] | None:
    """The seat target a "turn off" token belongs to and its room's code, or None (no such
    token, or the room's webhook: only its host turns that off, in the panel -- the group's
    channel sees no off link)."""
    row = (await session.execute(select(NotifyTarget, Room.code).join(Room, Room.id == NotifyTarget.room_id).where(
        NotifyTarget.off_hash == off_hash(token), NotifyTarget.seat != WEBHOOK_SEAT))).first()
    return None if row is None else (row[0], row[1])


async def turn_off(session: AsyncSession, token: str) -> bool:
    """The seat target a "turn off" token belongs to (`by_off_token`), deleted with its outbox
    rows → whether there was one. Commits."""
    found = await by_off_token(session, token)
    if found is None:
        return False
    target = found[0]
    await session.execute(delete(OutboxRow).where(OutboxRow.target_id == target.id))
    await session.delete(target)
    await session.commit()
    return True


async def follow_new_token(session: AsyncSession, room_id: int, seat: int, old_hash: str, new_hash: str) -> None:
    """The seat's person signed out their other devices (a new token, app/routes/mine.py): the
    seat's targets saved for the old token now belong to the new one, in the caller's
    transaction (under the room's lock, with the new token). Does not commit."""
    await session.execute(update(NotifyTarget).where(NotifyTarget.room_id == room_id, NotifyTarget.seat == seat,
                                                     NotifyTarget.holder == old_hash).values(holder=new_hash))
