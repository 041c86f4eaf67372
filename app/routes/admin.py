"""The host's admin page and its API (docs/protocol.md "Admin"; docs/deploy.md "The admin
page"): the rooms with their players and state, closing a room for everyone, the maintenance
notice shown on every table. Off (404 `not_found`, like an unknown path) while ADMIN_TOKEN is
unset; every API call needs `Authorization: Bearer <ADMIN_TOKEN>` (compared in constant time:
401 `unauthorized`), and an address sending wrong tokens is held at ADMIN_LIMIT (429
`rate_limited` with `retry_after_s`, for any token, so a guesser learns nothing more). The page
itself is a skeleton: static/js/admin.js asks for the token and keeps it in sessionStorage."""
from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import HTMLResponse

from .. import admin as A
from ..deps import LiveDep, SessionDep
from ..ratelimit import address_key
from ..refusals import Refusal, responses
from ..security import bearer_is
from ..schemas_admin import AdminRoomsOut, NoticeIn, NoticeSetOut
from .pages import _page

router = APIRouter(tags=["admin"])
#: What every admin route may answer before its own work.
GUARD = ("not_found", "unauthorized", "rate_limited")
_NO_STORE = {"Cache-Control": "no-store"}


def _enabled(request: Request) -> str:
    """ADMIN_TOKEN, or 404 `not_found` while it is unset (the admin page is off)."""
    token = request.app.state.settings.admin_token
    if not token:
        raise Refusal("not_found")
    return token


def require_admin(request: Request) -> None:
    """The caller holds ADMIN_TOKEN (`Authorization: Bearer …`), else 401 `unauthorized`,
    counted per client address (ADMIN_LIMIT: over it 429 `rate_limited`); 404 while it is off."""
    token = _enabled(request)
    limiter, host = request.app.state.limiter, request.client.host if request.client else None
    limiter.check("admin", host)
    if not bearer_is(request.headers.get("authorization", ""), token):
        limiter.allow("admin", address_key(host))
        raise Refusal("unauthorized", "The admin token is needed (Authorization: Bearer …).")


Admin = Annotated[None, Depends(require_admin)]


@router.get("/admin", response_class=HTMLResponse, include_in_schema=False)
async def admin_page(request: Request) -> HTMLResponse:
    """The admin page (templates/admin.html, static/js/admin.js); 404 while ADMIN_TOKEN is unset."""
    _enabled(request)
    response = _page(request, "admin.html", "admin")
    response.headers["X-Robots-Tag"] = "noindex"
    return response


@router.get("/api/admin/rooms", response_model=AdminRoomsOut, responses=responses(*GUARD))
async def admin_rooms(_: Admin, live: LiveDep, session: SessionDep, response: Response):
    """(The server's host.) The rooms in the database, most recently active first (at most
    500), each with its state, pace, game number, times and players (name, computer or person,
    connected to any server process), and the maintenance notice shown now."""
    response.headers.update(_NO_STORE)
    return {"rooms": await A.live_rooms(session, live.connected_seats), "notice": live.notice_out()}


@router.post("/api/admin/rooms/{code}/close", status_code=204, response_class=Response,
             responses=responses(*GUARD, "room_not_found"))
async def close_room(code: str, _: Admin, live: LiveDep) -> Response:
    """(The server's host.) Close the room for everyone: it is deleted with its games and chat;
    every socket to it, in every server process, gets `room_closed` and is closed. 404
    `room_not_found` for a code of no room."""
    await live.close_room(code)
    return Response(status_code=204, headers=_NO_STORE)


@router.put("/api/admin/notice", response_model=NoticeSetOut,
            responses=responses(*GUARD, "notice_empty", "notice_bad_minutes", "notice_too_long", "notice_bad_char",
                                "bad_request", "unsupported_media_type"))
async def set_notice(body: NoticeIn, _: Admin, live: LiveDep, response: Response):
    """(The server's host.) Show a maintenance notice on every table and the home page, in
    every server process, until cleared: a restart `restart_in_min` minutes from now (1 to
    1440; the pages count down) and/or a free `text` (at most 200 characters, trimmed; no
    control characters). 422 `notice_empty` (neither), `notice_bad_minutes` (`max_minutes`),
    `notice_too_long` (`max_chars`), `notice_bad_char`. → the notice shown now."""
    restart_at, text = A.check_notice(body.restart_in_min, body.text)
    await live.set_notice(restart_at, text)
    response.headers.update(_NO_STORE)
    return {"notice": live.notice_out()}


@router.delete("/api/admin/notice", response_model=NoticeSetOut, responses=responses(*GUARD))
async def clear_notice(_: Admin, live: LiveDep, response: Response):
    """(The server's host.) Clear the maintenance notice everywhere. → `{"notice": null}`."""
    await live.set_notice(None, None)
    response.headers.update(_NO_STORE)
    return {"notice": None}
