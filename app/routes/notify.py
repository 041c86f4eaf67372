"""HTTP API of notifications (docs/protocol.md "Notifications"; app/notify/): the VAPID key,
a seat's settings, the room's webhook, and the "turn off" link every notification carries.

Settings are no part of the game: they are saved in the request's own session, never under
the room's lock (app/notify/targets.py)."""
from __future__ import annotations

import html

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse

from .. import rooms as R
from ..deps import LiveDep, SessionDep, TokenDep
from ..notify import targets
from ..notify.schemas import NotifyIn, NotifyOut, PushKeyOut, WebhookIn, WebhookOut
from ..notify.texts import off_page, page_lang
from ..notify.urls import redact
from ..prefix import root_of
from ..refusals import Refusal, responses

router = APIRouter(tags=["notify"])
SEATED = ("room_not_found", "unauthorized")
BODY = ("bad_request", "unsupported_media_type")
URL = ("notify_bad_url", "notify_no_host", "notify_private_url", "notify_no_smtp", "rate_limited")


def base_url(request: Request, live) -> str:
    """Where a notification's links point: PUBLIC_URL when set, else scheme://host/prefix as
    this request came (behind a trusted proxy: its X-Forwarded-Proto/-Host/-Prefix)."""
    if live.settings.public_url:
        return live.settings.public_url.rstrip("/")
    return f"{request.url.scheme}://{request.url.netloc}{root_of(request)}"


def _count_change(request: Request) -> None:
    request.app.state.limiter.hit("notify", request.client.host if request.client else None)


@router.get("/api/push/key", response_model=PushKeyOut, responses=responses())
async def push_key(request: Request):
    """The VAPID public key (RFC 8292), the browser's `applicationServerKey`: base64url of the
    uncompressed P-256 point; made at the first start and kept in the database."""
    keys = await request.app.state.notify.keys.get()
    return {"public_key": keys.public_key}


@router.get("/api/rooms/{code}/notify", response_model=NotifyOut, response_model_exclude_unset=True,
            responses=responses(*SEATED))
async def get_notify(code: str, session: SessionDep, token: TokenDep, response: Response):
    """The caller's seat's notification settings (`webhook` only for the host). 401 `unauthorized`."""
    room = await R.load_room(session, code)
    seat = R.require_seat(room, token)
    out = await targets.show(session, room, seat)
    response.headers["Cache-Control"] = "no-store"
    return out


@router.put("/api/rooms/{code}/notify", response_model=NotifyOut, response_model_exclude_unset=True,
            responses=responses(*SEATED, *URL, *BODY))
async def put_notify(code: str, body: NotifyIn, request: Request, live: LiveDep, session: SessionDep,
                     token: TokenDep):
    """Save the caller's seat's notification settings: a member left out stays as it is, null
    turns it off. 422 `notify_bad_url` / `notify_private_url` / `notify_no_smtp`, 429
    `rate_limited` (NOTIFY_CHANGE_LIMIT per address)."""
    room = await R.load_room(session, code)
    seat = R.require_seat(room, token)
    _count_change(request)
    keys = await request.app.state.notify.keys.get()
    await targets.save(session, room, seat, body, base_url(request, live), live.settings, keys)
    request.app.state.notify.nudge(room.code)
    return await targets.show(session, room, seat)


@router.delete("/api/rooms/{code}/notify", status_code=204, responses=responses(*SEATED))
async def delete_notify(code: str, session: SessionDep, token: TokenDep):
    """Every notification of the caller's seat off."""
    room = await R.load_room(session, code)
    seat = R.require_seat(room, token)
    await targets.remove(session, room.id, seat.seat)
    return Response(status_code=204)


@router.put("/api/rooms/{code}/webhook", response_model=WebhookOut,
            responses=responses(*SEATED, "not_host", *URL, *BODY))
async def put_webhook(code: str, body: WebhookIn, request: Request, live: LiveDep, session: SessionDep,
                      token: TokenDep):
    """(Host only.) The room's webhook: an Apprise URL that gets each person's turn and the
    result, or null for none (checked as a seat's URL is)."""
    room = await R.load_room(session, code)
    R.require_host(room, token)
    _count_change(request)
    keys = await request.app.state.notify.keys.get()
    row = await targets.save_webhook(session, room, body.url, body.lang, base_url(request, live), live.settings, keys)
    request.app.state.notify.nudge(room.code)
    return {"webhook": redact(row.url) if row else None}


@router.post("/api/notify/off/{token}", status_code=204, responses=responses("not_found"))
async def notify_off(token: str, session: SessionDep):
    """Turn off the target this token belongs to (the "turn off" action of a notification).
    204 also when it was off already (the action may be tapped twice); 404 `not_found` only
    for a token that is no such token's shape."""
    if not (20 <= len(token) <= 64) or not token.replace("-", "").replace("_", "").isalnum():
        raise Refusal("not_found")
    await targets.turn_off(session, token)
    return Response(status_code=204)


@router.get("/n/off/{token}", include_in_schema=False)
async def off_form(token: str, request: Request, session: SessionDep):
    """A small page with one button that turns the notification off (a GET changes nothing:
    mail scanners open links), naming the room and where the notifications go."""
    lang = page_lang(request.headers.get("accept-language", ""))
    action = f"{root_of(request)}/n/off/{html.escape(token, quote=True)}"
    found = await targets.by_off_token(session, token) if 20 <= len(token) <= 64 else None
    room = to = None
    if found is not None:
        target, room = found
        to = redact(target.url) if target.kind == "apprise" else None
    return HTMLResponse(off_page(lang, action, done=False, room=room, to=to), headers={"Cache-Control": "no-store"})


@router.post("/n/off/{token}", include_in_schema=False)
async def off_submit(token: str, request: Request, session: SessionDep):
    """The page's button: turns the target off, says so."""
    lang = page_lang(request.headers.get("accept-language", ""))
    if 20 <= len(token) <= 64:
        await targets.turn_off(session, token)
    return HTMLResponse(off_page(lang, "", done=True), headers={"Cache-Control": "no-store"})
