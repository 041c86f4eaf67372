"""Every refusal the server sends, in one registry, and the one exception that carries one.

A refusal has a stable snake_case `code` (the contract: clients show their own text for it,
static/js/i18n/), an English `message` (for developers and logs), and `fields`: its
parameters as JSON values next to the code, e.g. `retry_after_s` (docs/protocol.md "HTTP
error codes", "WebSocket error codes").

- `CODES`: each code with its HTTP status (None: sent on the room WebSocket only), its
  default message (a `str.format` template over the refusal's parameters), the fields it may
  carry, and whether the room WebSocket sends it. The engine's codes (`IllegalAction.code`)
  come from `engine.REFUSAL_CODES`, not a copy; their messages are the engine's.
- `Refusal`: the exception every layer raises (rooms, names, rate limits, chat, frames, the
  action path, the handshake). HTTP turns it into a response in `app/errors.py`
  (`refusal_response`), the WebSocket into an `error` frame with `Refusal.frame`.
- `responses(*codes)`: the OpenAPI `responses=` of a route that may refuse with those codes
  (every status, its codes, the error body and its headers), so the schema says what the
  server does.

Pure: no I/O, no web framework (app/live/sockets/frames.py, the pure part of the WebSocket
protocol, uses it).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import engine

#: The longest message id an `error` frame echoes (docs/protocol.md: an `id` of 1-128 characters).
MAX_ECHOED_ID = 128


@dataclass(frozen=True)
class Code:
    """One refusal code: `status` is its HTTP status (None: WebSocket only); `message` the
    English default, a `str.format` template over the refusal's parameters; `fields` the
    parameters sent next to the code (all optional: a WebSocket flood refusal has no
    `retry_after_s`); `ws`: sent on the room WebSocket too; `engine`: an `IllegalAction.code`;
    `sent`: False for an outcome of the server's own actions that is only logged."""

    code: str
    status: int | None
    message: str
    fields: tuple[str, ...] = ()
    ws: bool = False
    engine: bool = False
    sent: bool = True


_HTTP = [
    Code("unauthorized", 401, "A seat token of this room is needed."),
    Code("not_host", 403, "Only the host may do this."),
    Code("not_yet", 403, "Possible in {retry_after_s} s.", ("retry_after_s",)),
    Code("not_connected", 403, "Only a player connected to the game may do this."),
    Code("not_your_seat", 403, "Only the seat's own player may take it back."),
    Code("forbidden", 403, "Request refused."),
    Code("seat_link_invalid", 403, "This seat link holds no seat any more: its player signed out other devices."),
    Code("room_not_found", 404, "There is no room with this code.", ws=True),
    Code("game_not_found", 404, "This room has no such game."),
    Code("seat_not_found", 404, "There is no such seat in this room."),
    Code("not_found", 404, "Not found."),
    Code("method_not_allowed", 405, "Method not allowed."),
    Code("room_full", 409, "The room already has {max_seats} players.", ("max_seats",)),
    Code("game_started", 409, "The game has already started."),
    Code("seat_link_other_seat", 409, "This browser already plays {name} in this room: open the link's seat instead only if you mean to.",
         ("name",)),
    Code("not_enough_players", 409, "At least {min_players} players are needed.", ("min_players",)),
    Code("game_not_started", 409, "The game has not started yet.", ws=True),
    Code("game_over", 409, "The game is over."),
    Code("seat_connected", 409, "That player is connected."),
    Code("bot_plays_seat", 409, "A computer player already plays this seat; only the host changes its level."),
    Code("not_a_bot", 409, "Only a computer player can be removed."),
    Code("name_taken", 409, "Someone at this table already has this name or one that looks the same; "
         "choose another."),
    Code("game_not_over", 409, "The game is not over yet."),
    Code("host_cannot_leave", 409, "The host keeps seat 1."),
    Code("seat_empty", 409, "Seat {shown} is empty: fill it before starting.", ("seat",)),
    Code("conflict", 409, "Someone else took that seat at the same moment; try again."),
    # Pace, away and pause (app/pace.py)
    Code("game_paused", 409, "The host paused the game.", ws=True),
    Code("not_paused", 409, "The game is not paused."),
    Code("not_turn_based", 409, "Only in a turn-based room."),
    Code("turn_based_room", 409, "In a turn-based room only the host hands a seat over; the time-out decides for late players."),
    Code("too_large", 413, "The body is larger than {limit} bytes."),
    Code("unsupported_media_type", 415, "Request refused."),
    Code("bad_name", 422, "The name is not valid."),
    Code("name_reserved", 422, "This name looks like a computer player's; choose another."),
    Code("bad_level", 422, "There is no such level."),
    Code("bad_turn_limit", 422, "Choose no timer or one of the offered times."),
    Code("bad_pace", 422, "The pace is live or turn."),
    Code("bad_pace_limit", 422, "This time per decision is not offered for the {pace} pace."),
    Code("bad_away_time", 422, "Choose a time in the future."),
    Code("away_too_long", 422, "At most {left_s} s of away time are left in this game.", ("left_s",)),
    Code("bad_request", 422, "The request is not valid."),
    Code("notify_bad_url", 422, "That is no address notifications can be sent to."),
    Code("notify_no_host", 422, "The host {host} cannot be found (no such name, or no DNS here).", ("host",)),
    Code("notify_private_url", 422, "That address is on a private or local network; this server sends "
         "notifications there only when its host allows it (NOTIFY_ALLOW_PRIVATE)."),
    Code("notify_no_smtp", 422, "This server sends no e-mail; give a notification URL instead."),
    # The host's admin page (app/routes/admin.py): the maintenance notice
    Code("notice_empty", 422, "A notice needs a restart time or some text."),
    Code("notice_too_long", 422, "A notice has at most {max_chars} characters.", ("max_chars",)),
    Code("notice_bad_char", 422, "A notice cannot hold control or invisible characters."),
    Code("notice_bad_minutes", 422, "The restart is 1 to {max_minutes} minutes away.", ("max_minutes",)),
    Code("rate_limited", 429, "Too many requests from your address; try again in {retry_after_s} s.",
         ("retry_after_s",), ws=True),
    Code("too_many_rooms", 429, "Your address already holds {held} waiting rooms; start or leave one first.",
         ("retry_after_s",)),
    Code("unavailable", 503, "The game's database cannot be reached right now; try again shortly.", ws=True),
]
_WS = [
    Code("bad_message", None, "The message is not valid."),
    Code("too_many_connections", None, "Too many connections; try again later."),
    Code("not_seated", None, "This connection does not hold that seat (any more)."),
    Code("stale_version", None, "The game is at version {version}, not {sent}."),
    Code("bad_token", None, "This token does not belong to a seat of this room."),
    Code("bad_origin", None, "Cross-site connections may not use the seat cookie."),
    Code("chat_empty", None, "A message needs some text."),
    Code("chat_too_long", None, "A message has at most {max_chars} characters."),
    Code("chat_bad_char", None, "A message cannot hold control or invisible characters (such as U+200B or U+202E)."),
    Code("chat_closed", None, "The host closed the chat to spectators."),
    Code("hints_off", None, "This room does not allow hints."),
    Code("hint_failed", None, "No hint could be found right now; try again."),
    Code("chat_name", None, "Spectators chat under a name of 1 to 24 characters unlike a player's or a computer's."),
    # Never sent: outcomes of the server's own actions, logged only (app/live/actions/path.py).
    Code("not_timed_out", None, "That decision has not timed out.", sent=False),
    Code("not_a_bot_seat", None, "Seat {seat} of room {room} is no longer that computer player's.", sent=False),
]
_WS = [Code(c.code, c.status, c.message, c.fields, ws=True, sent=c.sent) for c in _WS]


def _registry() -> dict[str, Code]:
    codes = {c.code: c for c in [*_HTTP, *_WS]}
    for name in engine.REFUSAL_CODES:  # an engine refusal refuses an `act`: WebSocket
        known = codes.get(name)
        codes[name] = (Code(name, None, "The action is not possible now.", ws=True, engine=True) if known is None
                       else Code(name, known.status, known.message, known.fields, ws=True, engine=True))
    return codes


#: Every refusal code → its `Code` (module docstring).
CODES: dict[str, Code] = _registry()
#: The codes sent over HTTP, by status.
BY_STATUS: dict[int, tuple[str, ...]] = {}
for _c in CODES.values():
    if _c.status is not None:
        BY_STATUS[_c.status] = (*BY_STATUS.get(_c.status, ()), _c.code)
BY_STATUS = dict(sorted(BY_STATUS.items()))


class Refusal(Exception):
    """A refused request or message: `code` (a key of `CODES`), `status` (its HTTP status, or
    the one given), `message` (the code's template formatted with `params`, unless a message
    naming the exact reason is given), `fields` (the params that are among the code's fields:
    sent with it), `msg_id` (a WebSocket message's `id`, echoed in the frame).

    Raises KeyError for a code that is not in `CODES` (a bug: add it to the registry and to
    docs/protocol.md), and KeyError for a template parameter that was not given.
    """

    def __init__(self, code: str, message: str | None = None, *, status: int | None = None,
                 msg_id: Any = None, **params: int | str):
        spec = CODES[code]
        self.code = code
        self.status = status if status is not None else spec.status
        self.params = params
        self.fields = {name: params[name] for name in spec.fields if name in params}
        self.message = message if message is not None else spec.message.format(**params)
        self.msg_id = msg_id
        super().__init__(self.message)

    def body(self) -> dict:
        """The JSON body of an HTTP refusal: `{"error": {"code", "message", **fields}}`."""
        return {"error": {"code": self.code, "message": self.message, **self.fields}}

    def frame(self, msg_id: Any = None) -> dict:
        """The WebSocket `error` frame: `{"type": "error", "code", "message", "id"?, **fields}`
        with the refused message's `id` (`msg_id`, else the one raised with) when it is a
        string of at most MAX_ECHOED_ID characters."""
        msg_id = self.msg_id if msg_id is None else msg_id
        out: dict[str, Any] = {"type": "error", "code": self.code, "message": self.message}
        if isinstance(msg_id, str) and len(msg_id) <= MAX_ECHOED_ID:
            out["id"] = msg_id
        out.update(self.fields)
        return out


# --- OpenAPI -------------------------------------------------------------------------------

_RETRY_AFTER = {"Retry-After": {"description": "whole seconds until trying again makes sense",
                                "required": True, "schema": {"type": "integer", "minimum": 1}}}
_STATUS_HEADERS = {429: _RETRY_AFTER, 503: _RETRY_AFTER}
#: The refusals any route of the API may answer with: the database away, a body too large
#: (app/main.py BodyLimit looks at every request). A route with a body or a typed parameter
#: names `bad_request` itself.
COMMON = ("unavailable", "too_large")


def error_schema(codes: tuple[str, ...] | list[str]) -> dict:
    """The JSON schema of an error body with one of `codes` (their fields as integers)."""
    fields = sorted({f for c in codes for f in CODES[c].fields})
    props: dict[str, Any] = {"code": {"type": "string", "enum": list(codes)}, "message": {"type": "string"}}
    props.update({f: {"type": "integer"} for f in fields})
    return {"type": "object", "required": ["error"],
            "properties": {"error": {"type": "object", "required": ["code", "message"], "properties": props}}}


def responses(*codes: str, common: tuple[str, ...] = COMMON) -> dict[int | str, dict]:
    """The OpenAPI `responses=` of a route that may refuse with `codes` (and `common`): per
    HTTP status a description naming the codes, the error body's schema (`code` one of
    them) and, for 429 and 503, the `Retry-After` header.

    Raises KeyError for an unknown code, ValueError for a WebSocket-only one."""
    by_status: dict[int, list[str]] = {}
    for name in dict.fromkeys([*codes, *common]):
        status = CODES[name].status
        if status is None:
            raise ValueError(f"{name} is not sent over HTTP")
        by_status.setdefault(status, []).append(name)
    out: dict[int | str, dict] = {}
    for status, names in sorted(by_status.items()):
        entry: dict[str, Any] = {"description": " / ".join(f"`{n}`" for n in names),
                                 "content": {"application/json": {"schema": error_schema(names)}}}
        if status in _STATUS_HEADERS:
            entry["headers"] = _STATUS_HEADERS[status]
        out[status] = entry
    return out
