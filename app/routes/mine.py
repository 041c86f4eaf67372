""""My games" and the seat link (docs/protocol.md "My games", "The seat link"): the rooms this
browser holds a seat in (`GET /api/mine`, from its seat cookies), a private link that signs
another device in to a seat (`POST /api/rooms/{code}/seat-link`, `POST /api/rooms/{code}/claim`),
and a new token for this device that signs every other one out (`POST /api/rooms/{code}/seat-token`)."""
from __future__ import annotations

import io

import segno
from fastapi import APIRouter, Request, Response

from .. import rooms as R
from ..deps import LiveDep, SessionDep, TokenDep
from ..mine import my_rooms, seat_tokens
from ..notify import targets
from ..prefix import root_of
from ..refusals import Refusal, responses
from ..schemas import ClaimIn, MineRoomOut, SeatLinkOut, SeatTokenOut
from ..security import hash_token, new_token
from .rooms import BODY, SEATED, _lookup, _set_seat_cookie

router = APIRouter(tags=["mine"])


@router.get("/api/mine", response_model=list[MineRoomOut], responses=responses())
async def mine(request: Request, session: SessionDep):
    """The rooms whose seat cookie this request carries and whose token still holds a seat:
    your decision first (soonest deadline first), then playing, waiting, over (app/mine.py).
    Nothing is stored: the cookies are read and forgotten."""
    return await my_rooms(session, seat_tokens(request.cookies), root_of(request))


def qr_svg(url: str) -> str:
    """An inline SVG QR code of `url` (segno, https://segno.readthedocs.io: error correction M,
    a 4-module quiet zone, black on white, no XML declaration)."""
    buf = io.BytesIO()
    segno.make(url, error="m").save(buf, kind="svg", scale=4, border=4, dark="#000", light="#fff",
                                    xmldecl=False, svgns=True, title="QR code of the seat link")
    return buf.getvalue().decode("utf-8")


@router.post("/api/rooms/{code}/seat-link", response_model=SeatLinkOut,
             responses=responses(*SEATED, "rate_limited"))
async def seat_link(code: str, request: Request, session: SessionDep, token: TokenDep):
    """(A seated player.) The private seat link of the caller's seat: the room's absolute URL
    with the seat token in the fragment (`…/r/CODE#seat=TOKEN`: a fragment is never sent to a
    server, so it reaches no log and no Referer), and its QR code as inline SVG. Whoever opens
    it plays the seat, until the player signs out other devices (`seat-token`). 401 `unauthorized`."""
    room = await _lookup(request, session, code)
    R.require_seat(room, token)
    url = f"{request.base_url}r/{room.code}#seat={token}"
    return {"url": url, "qr_svg": qr_svg(url)}


@router.post("/api/rooms/{code}/claim", response_model=SeatTokenOut,
             responses=responses("room_not_found", "rate_limited", "seat_link_invalid", "seat_link_other_seat", *BODY))
async def claim(code: str, body: ClaimIn, request: Request, response: Response, live: LiveDep,
                session: SessionDep, held: TokenDep):
    """Open a seat link on this device: when `token` holds a seat of the room now, set the room's
    seat cookie to it (the join's attributes) → the seat. 403 `seat_link_invalid` otherwise (its
    player signed out other devices); 409 `seat_link_other_seat` {name} when this request's own
    token holds another seat of the room and `replace` is not set (a browser never loses its
    seat without being asked). Counted like a join per address (ROOM_JOIN_LIMIT)."""
    request.app.state.limiter.hit("join", request.client.host if request.client else None)
    room = await _lookup(request, session, code)
    seat = R.seat_of(room, body.token)
    if seat is None:
        raise Refusal("seat_link_invalid")
    mine = R.seat_of(room, held) if held else None
    if mine is not None and mine.seat != seat.seat and not body.replace:
        raise Refusal("seat_link_other_seat", name=mine.name)
    _set_seat_cookie(request, response, live, room.code, body.token)
    return {"code": room.code, "url": R.room_url(room.code, root_of(request)), "seat": seat.seat}


@router.post("/api/rooms/{code}/seat-token", response_model=SeatTokenOut, responses=responses(*SEATED))
async def seat_token(code: str, request: Request, response: Response, live: LiveDep, token: TokenDep):
    """(A seated player.) Sign out other devices: the seat gets a new token, set as this
    device's cookie (and answered once). Through `Tables.change`, so every socket of the old
    token loses the seat at once, in every process (docs/architecture.md "The seat rule"), and
    every earlier seat link stops working. 401 `unauthorized`."""
    async with live.change(code) as held:
        seat = R.require_seat(held.room, token)
        new = new_token()
        old, seat.token_hash = seat.token_hash, hash_token(new)
        number = seat.seat
        # The same person keeps the seat: their notifications follow the new token (a target
        # saved for the old one would be dropped as the seat's having changed hands).
        await targets.follow_new_token(held.session, held.room.id, number, old, seat.token_hash)
    _set_seat_cookie(request, response, live, held.room.code, new)
    return {"code": held.room.code, "url": R.room_url(held.room.code, root_of(request)), "seat": number, "token": new}
