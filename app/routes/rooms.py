"""HTTP API of rooms (docs/protocol.md): create, list, show, join, bots, start, hand a seat to a bot."""
from __future__ import annotations

from fastapi import APIRouter, Path, Request, Response

from .. import pace as P
from .. import rooms as R
from ..lobby import with_root
from ..deps import LiveDep, SessionDep, TokenDep
from ..refusals import Refusal, responses
from ..names import check_name
from ..prefix import root_of
from ..ratelimit import address_hash, address_key, check_waiting_rooms
from .. import rematch
from ..models import utcnow
from ..schemas import (AgainIn, AgainOut, BotIn, ChatSettingsIn, CreateRoomIn, HintsIn, CreateRoomOut, JoinRoomIn, JoinRoomOut, LobbyRoomOut,
                       RoomOut, SeatOut, StatusOut, TurnLimitIn, TutorialIn)
from ..security import cookie_name
from .. import tutorial as T

router = APIRouter(prefix="/api/rooms", tags=["rooms"])
# "Learn to play" (app/tutorial.py): outside /api/rooms, whose /{code} it would share.
tutorial_router = APIRouter(prefix="/api", tags=["rooms"])
COOKIE_MAX_AGE_S = 30 * 86400
# The refusals of each route (app/refusals.py `responses`: the OpenAPI document lists them with
# their status and body). A room change also answers 404 `room_not_found` (`Tables.change`).
HOST = ("room_not_found", "unauthorized", "not_host")
SEATED = ("room_not_found", "unauthorized")
# A route with a JSON body: 422 `bad_request` for a body that is not the one asked for, 415
# `unsupported_media_type` for one whose Content-Type is not JSON (app/errors.py).
BODY = ("bad_request", "unsupported_media_type")


def _seat_number(raw: str) -> int:
    """A seat number from the path: "0" to "3", else 404 `seat_not_found` (also for "7", "-1", "x")."""
    if not (raw.isascii() and raw.isdigit()) or int(raw) >= R.MAX_SEATS:
        raise Refusal("seat_not_found")
    return int(raw)


def _set_seat_cookie(request: Request, response: Response, live, code: str, token: str) -> None:
    # Secure when COOKIE_SECURE is set or the request came over https — directly, or through a
    # trusted proxy's X-Forwarded-Proto (uvicorn rewrites the scheme; FORWARDED_ALLOW_IPS).
    # Path: the app's prefix (app/prefix.py), so other apps on the same host never see it.
    secure = live.settings.cookie_secure or request.url.scheme == "https"
    response.set_cookie(cookie_name(code), token, max_age=COOKIE_MAX_AGE_S, path=root_of(request) or "/",
                        httponly=True, samesite="lax", secure=secure)


async def _lookup(request: Request, session, code: str):
    """The room (`R.load_room`), with the per-address limit on codes of no room: a 404 counts
    (`lookup`, ROOM_LOOKUP_LIMIT); an address over it gets 429 for any code, known or not, so
    the answer tells a guesser nothing."""
    limiter, host = request.app.state.limiter, request.client.host if request.client else None
    limiter.check("lookup", host)
    try:
        return await R.load_room(session, code)
    except Refusal as exc:
        if exc.status == 404:
            limiter.allow("lookup", address_key(host))
        raise


def _drop_stale_cookie(request: Request, response: Response, code: str) -> None:
    """Delete the room's seat cookie when the request carried one (not a Bearer token): its
    token holds no seat of the room any more."""
    if request.headers.get("authorization", "")[:7].lower() != "bearer " and cookie_name(code) in request.cookies:
        response.delete_cookie(cookie_name(code), path=root_of(request) or "/", httponly=True, samesite="lax")


@router.post("", status_code=201, response_model=CreateRoomOut,
             responses=responses("rate_limited", "too_many_rooms", "bad_name", "name_reserved", "bad_turn_limit",
                                 "bad_pace", "bad_pace_limit", *BODY, "conflict"))
async def create_room(body: CreateRoomIn, request: Request, response: Response, live: LiveDep,
                      session: SessionDep):
    """Create a room; the caller is the host in seat 0. Sets the seat cookie; the token is shown once.
    429 `rate_limited` / `too_many_rooms` (per address), 422 `name_reserved`. `pace` "turn": a
    turn-based room, `turn_limit_s` one of `turn_based_limits` (422 `bad_pace_limit`; 422
    `bad_pace` for another pace: app/pace.py)."""
    host = request.client.host if request.client else None  # behind a trusted proxy: X-Forwarded-For
    request.app.state.limiter.hit("create", host)
    check_name(body.name)
    limit = P.check_pace(body.pace, body.turn_limit_s, *_limits(live))
    creator = address_hash(host)
    await check_waiting_rooms(session, creator, live.settings.rooms_per_address,
                              live.settings.unused_room_ttl_s)
    room, token = await R.create_room(session, body.name, body.public, creator, limit, body.pace, body.hints)
    await session.commit()  # a new room: nobody can hold its lock yet
    _set_seat_cookie(request, response, live, room.code, token)
    await live.room_created(room.code, body.public)
    return {"code": room.code, "url": R.room_url(room.code, root_of(request)), "seat": 0, "token": token}


@tutorial_router.post("/tutorial", status_code=201, response_model=CreateRoomOut,
             responses=responses("rate_limited", "bad_name", "name_reserved", *BODY, "conflict"))
async def create_tutorial(body: TutorialIn, request: Request, response: Response, live: LiveDep,
                          session: SessionDep):
    """"Learn to play": a private room with the caller in seat 0 and two normal computer
    players, started at once on the prepared deal (app/tutorial.py). Sets the seat cookie, as
    `POST /api/rooms`; counted as a room created (429 `rate_limited`), never a waiting one."""
    host = request.client.host if request.client else None
    request.app.state.limiter.hit("create", host)
    check_name(body.name)
    room, token = await T.create_tutorial(session, body.name, address_hash(host))
    await session.commit()
    async with live.change(room.code, release=session) as held:
        await T.start_tutorial(held.session, held.room)
    _set_seat_cookie(request, response, live, room.code, token)
    return {"code": room.code, "url": R.room_url(room.code, root_of(request)), "seat": 0, "token": token}


@router.get("", response_model=list[LobbyRoomOut], responses=responses())
async def list_rooms(request: Request, live: LiveDep, session: SessionDep):
    """The open public rooms: waiting, a seat free, a seated person connected (app/lobby.py)."""
    return with_root(await live.lobby_rooms(session), root_of(request))


@router.get("/{code}", response_model=RoomOut, responses=responses("room_not_found", "rate_limited"))
async def show_room(code: str, request: Request, response: Response, live: LiveDep, session: SessionDep,
                    token: TokenDep):
    """The room summary; `you` is the caller's seat (from the cookie or Bearer token) or null.
    A seat cookie whose token holds no seat of the room any more (its seat changed hands) is
    deleted, so the page's next WebSocket connects as a spectator's instead of being refused.
    429 `rate_limited` (every code) once the caller's address looked up ROOM_LOOKUP_LIMIT
    codes of no room (404): room codes cannot be guessed by asking."""
    room = await _lookup(request, session, code)
    seat = R.seat_of(room, token)
    if seat is None and token is not None:
        _drop_stale_cookie(request, response, room.code)
    return {**live.summary(room, seat.seat if seat else None), "url": R.room_url(room.code, root_of(request))}


# Every change below runs in `live.change` (`Tables.change`, app/live/room/lock.py): under the room's lock,
# with the room read there; it commits, tells the room's connections, the lobby, the other
# processes and the computer players.

@router.post("/{code}/join", response_model=JoinRoomOut,
             responses=responses("room_not_found", "rate_limited", "room_full", "game_started", "name_taken",
                                 "conflict", "bad_name", "name_reserved", *BODY))
async def join_room(code: str, body: JoinRoomIn, request: Request, response: Response, live: LiveDep,
                    session: SessionDep, token: TokenDep):
    """Take the next free seat. A caller who already holds a seat of this room gets it back.
    429 `rate_limited` (per address), 409 `name_taken`, 422 `name_reserved`."""
    request.app.state.limiter.hit("join", request.client.host if request.client else None)
    room = await _lookup(request, session, code)
    mine = R.seat_of(room, token)
    if mine is not None:
        return {"code": room.code, "url": R.room_url(room.code, root_of(request)), "seat": mine.seat, "token": token}
    async with live.change(room.code, release=session) as held:
        seat, new = await R.join_room(held.session, held.room, body.name)
    _set_seat_cookie(request, response, live, room.code, new)
    return {"code": room.code, "url": R.room_url(room.code, root_of(request)), "seat": seat.seat, "token": new}


@router.post("/{code}/bots", response_model=SeatOut,
             responses=responses(*HOST, "room_full", "game_started", "conflict", "bad_level", *BODY))
async def add_bot(code: str, body: BotIn, live: LiveDep, token: TokenDep):
    """(Host only, before the start.) A computer player of `level` takes the next free seat."""
    async with live.change(code) as held:
        R.require_host(held.room, token)
        seat = await R.add_bot(held.session, held.room, body.level)
    return {"seat": seat.seat}


@router.post("/{code}/start", response_model=StatusOut,
             responses=responses(*HOST, "game_started", "not_enough_players", "seat_empty"))
async def start_game(code: str, live: LiveDep, token: TokenDep):
    """(Host only.) Start the game with the seated players; 409 `not_enough_players` below 2."""
    async with live.change(code) as held:
        R.require_host(held.room, token)
        await R.start_game(held.session, held.room)
    return {"status": "playing"}


@router.post("/{code}/again", response_model=AgainOut,
             responses=responses(*SEATED, "game_not_over", "game_started", *BODY))
async def play_again(code: str, body: AgainIn, live: LiveDep, token: TokenDep):
    """(A seated player, after the end.) Play again in the same room with the same seats: the
    first such request moves the room on to a new waiting game (exactly one, however many
    cross: app/rematch.py); every request marks its player as in. 409 `game_not_over`,
    409 `game_started` (the next game already began)."""
    async with live.change(code) as held:
        seat = R.require_seat(held.room, token)
        new = await rematch.play_again(held.session, held.room, seat, body.game)
        number = held.room.game_no
    return {"game": number, "status": "waiting", "new": new}


@router.post("/{code}/leave", response_model=SeatOut,
             responses=responses(*SEATED, "host_cannot_leave", "game_started"))
async def leave_seat(code: str, request: Request, response: Response, live: LiveDep, token: TokenDep):
    """(A seated person other than the host, before a game starts.) Give up the seat: it is
    free for someone else; the caller watches as a spectator (its seat cookie is deleted; every
    open socket of that token is told `seat_lost` and becomes a spectator's, in every process).
    409 `host_cannot_leave`."""
    async with live.change(code) as held:
        seat = R.require_seat(held.room, token)
        number = seat.seat
        await rematch.leave_seat(held.session, held.room, seat)
    _drop_stale_cookie(request, response, held.room.code)
    return {"seat": number}


@router.post("/{code}/timer", response_model=RoomOut,
             responses=responses(*HOST, "game_started", "bad_turn_limit", "bad_pace", "bad_pace_limit", *BODY))
async def set_timer(code: str, body: TurnLimitIn, live: LiveDep, token: TokenDep):
    """(Host only, before the start.) The pace and the turn timer: `pace` "live" (or null: the
    room's pace as it is) with seconds per decision one of the room's `turn_limits` or null/0
    for none (422 `bad_turn_limit`), or "turn" with one of `turn_based_limits` (422
    `bad_pace_limit`; 422 `bad_pace` for another pace). → the room summary."""
    if body.pace is not None:
        P.check_pace(body.pace, body.turn_limit_s, *_limits(live))  # refused before the lock
    async with live.change(code) as held:
        R.require_host(held.room, token)
        pace = body.pace or held.room.pace or P.LIVE
        limit = P.check_pace(pace, body.turn_limit_s, *_limits(live))
        P.set_pace(held.room, pace, limit)
        out = live.summary(held.room, R.HOST_SEAT)
    return {**out, "turn_limit_s": limit, "pace": pace}


@router.post("/{code}/hints", response_model=RoomOut, responses=responses(*HOST, "game_started", *BODY))
async def set_hints(code: str, body: HintsIn, live: LiveDep, token: TokenDep):
    """(Host only, before the start.) Hints allowed (`allowed`: true) or not: in a room with
    hints a seat may ask what the computer would do on its own decision (the room WebSocket's
    `hint` frame; every hint used is shown to everyone). 409 `game_started` once a game began.
    → the room summary."""
    async with live.change(code) as held:
        R.require_host(held.room, token)
        R.set_hints(held.room, body.allowed)
        out = live.summary(held.room, R.HOST_SEAT)
    return out


def _limits(live) -> tuple[list[int], list[int]]:
    """The live and the turn-based times per decision this server offers (its test settings)."""
    return R.turn_limits(live.settings.turn_limit_test_s), P.turn_based_limits(live.settings.turn_based_test_s)


@router.post("/{code}/chat", response_model=RoomOut, responses=responses(*HOST, *BODY))
async def chat_settings(code: str, body: ChatSettingsIn, live: LiveDep, token: TokenDep):
    """(Host only, any time.) Open (`spectators: true`) or close the chat to spectators: closed,
    they neither send (`chat_closed`) nor receive messages. → the room summary."""
    async with live.change(code) as held:
        R.require_host(held.room, token)
        R.set_chat_spectators(held.room, body.spectators)
        out = live.summary(held.room, R.HOST_SEAT)
    return out


@router.post("/{code}/seats/{seat}/bot", response_model=SeatOut,
             responses=responses(*SEATED, "seat_not_found", "game_not_started", "game_over", "seat_connected",
                                 "bot_plays_seat", "not_connected", "not_yet", "bad_level", *BODY))
async def seat_to_bot(code: str, body: BotIn, live: LiveDep, token: TokenDep,
                      seat: str = Path(description="seat number, 0 to 3")):
    """(During a game.) A computer player plays a disconnected seat until its player connects
    again; 409 `seat_connected` while that seat has a live connection. The host may do it at
    once, any other connected seated player after HANDOVER_AFTER_S seconds offline (403 `not_yet`);
    after a server restart the host too waits that long for a seat not connected since the start.
    Without a turn timer, a seat whose decision it has been for HANDOVER_AFTER_S seconds (and
    connected that long, when it came back meanwhile) may be handed over by any other seated
    player even while it is connected."""
    async with live.change(code) as held:
        room = held.room
        by = R.require_seat(room, token).seat
        number = _seat_number(seat)
        presence = live.seat_presence(room, number)
        idle = None
        if room.status == "playing" and room.to_act == number and room.turn_at is not None:
            idle = (utcnow() - room.turn_at).total_seconds()
            if presence.connected_s is not None:  # a seat that just came back is not idle
                idle = min(idle, presence.connected_s)
        await R.hand_seat_to_bot(held.session, room, number, body.level, presence.connected, by,
                                 presence.offline_s, live.settings.handover_after_s, idle, presence.since_start)
    return {"seat": number}


@router.delete("/{code}/seats/{seat}/bot", response_model=SeatOut,
               responses=responses(*SEATED, "seat_not_found", "not_your_seat", "not_a_bot"))
async def take_seat_back(code: str, live: LiveDep, token: TokenDep,
                         seat: str = Path(description="seat number, 0 to 3")):
    """(During a game, the seat's own player.) Take the seat back from the computer player
    (e.g. after repeated time-outs); its clock starts again if it is its decision. 403
    `not_your_seat` for another seat's token; 409 `not_a_bot` when no computer plays it."""
    async with live.change(code) as held:
        mine = R.require_seat(held.room, token)
        number = _seat_number(seat)
        if mine.seat != number:
            raise Refusal("not_your_seat")
        if mine.bot_level is None:
            raise Refusal("not_a_bot", "No computer player plays this seat.")
        await R.take_seat_back(held.session, held.room.id, number)
        held.table.forget_seats()
    return {"seat": number}


@router.delete("/{code}/seats/{seat}", response_model=SeatOut,
               responses=responses(*HOST, "seat_not_found", "host_cannot_leave", "game_started"))
async def remove_seat(code: str, live: LiveDep, token: TokenDep,
                      seat: str = Path(description="seat number, 0 to 3")):
    """(Host only, before the start.) Free a seat: a computer player's, or a person's (whose
    open sockets are told `seat_lost` and watch on as a spectator's); 409 `host_cannot_leave`
    for the host's own seat, 409 `game_started` after the start."""
    async with live.change(code) as held:
        R.require_host(held.room, token)
        number = _seat_number(seat)
        await R.remove_seat(held.session, held.room, number)
    return {"seat": number}


__all__ = ["router"]
