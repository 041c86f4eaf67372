"""Pydantic models of the HTTP bodies and answers (see docs/protocol.md)."""
from __future__ import annotations

import unicodedata
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, field_validator

from .names import INVISIBLE
from .pace import TURN_BASED_LIMITS
from .rooms import TURN_LIMITS

BotLevel = Literal["easy", "normal", "hard"]
RoomStatus = Literal["waiting", "playing", "over"]
MAX_NAME = 24
# Unicode general categories refused anywhere in a name: format characters (zero-width space,
# BOM, bidi controls, joiners, tags), line/paragraph separators, controls, surrogates, private
# use, unassigned (https://www.unicode.org/reports/tr44/#General_Category_Values).
_REFUSED_CATEGORIES = frozenset({"Cf", "Zl", "Zp", "Cc", "Cs", "Co", "Cn"})


#: A person's name in a request body as the OpenAPI document states it: 1 to 24 characters
#: (after trimming), and the format `player-name`, the rest of the rules of docs/protocol.md
#: §Names (Unicode categories, something visible, not a computer player's name), which no
#: JSON-schema pattern can say; `clean_name` and app/names.py `check_name` check them.
NAME_SCHEMA = {"minLength": 1, "maxLength": MAX_NAME, "format": "player-name",
               "description": "1 to 24 characters after trimming, something visible, no control, format "
                              "or invisible characters, not a computer player's name (docs/protocol.md §Names)"}
#: The turn timers a request may choose (RoomOut.turn_limits; null or 0: none). A server with
#: TURN_LIMIT_TEST_S offers one more, for tests and demos.
TURN_LIMIT_SCHEMA = {"anyOf": [{"type": "integer", "enum": [0, *TURN_LIMITS, *TURN_BASED_LIMITS]}, {"type": "null"}]}
#: The paces (app/pace.py): "live" (the default) or "turn" (turn-based; 422 `bad_pace` otherwise).
PACE_SCHEMA = {"type": "string", "enum": ["live", "turn"]}
#: Which times go with which pace (422 `bad_pace_limit` otherwise): live (or no pace: live, or
#: the room's pace as it is) with a live timer or none; turn with one of the turn-based times.
PACE_LIMIT_SCHEMA = {"anyOf": [
    {"properties": {"pace": {"anyOf": [{"const": "live"}, {"type": "null"}]}, "turn_limit_s": {
        "anyOf": [{"type": "integer", "enum": [0, *TURN_LIMITS]}, {"type": "null"}]}}},
    {"properties": {"pace": {"const": "turn"}, "turn_limit_s": {"type": "integer", "enum": list(TURN_BASED_LIMITS)}},
     "required": ["pace", "turn_limit_s"]},
]}


#: Combining marks (Mn, Me) one character of a name may carry (NFC leaves two at most in the
#: world's scripts; ten stacked U+0310 drew across other players' rows: a break test).
MAX_MARKS = 3


def clean_name(value: object) -> str:
    """A player name: trimmed (Unicode NFC), 1 to 24 characters, something visible in it, no
    character of the categories Cf/Zl/Zp/Cc/Cs/Co/Cn and at most `MAX_MARKS` combining marks in a
    row (docs/protocol.md §Names).

    Raises ValueError (→ 422 bad_name) otherwise. Names are shown as text, never as HTML.
    """
    if not isinstance(value, str):
        raise ValueError("a name is a string")
    name = unicodedata.normalize("NFC", value).strip()
    if not 1 <= len(name) <= MAX_NAME:
        raise ValueError(f"a name has 1 to {MAX_NAME} characters")
    marks = 0  # non-spacing or enclosing marks in a row: more than MAX_MARKS draw over the page
    for ch in name:
        category = unicodedata.category(ch)
        if category in _REFUSED_CATEGORIES:
            raise ValueError("a name may not contain control, format or invisible characters")
        marks = marks + 1 if category in ("Mn", "Me") else 0
        if marks > MAX_MARKS:
            raise ValueError(f"a name may carry at most {MAX_MARKS} combining marks on one character")
    if all(ch.isspace() or ord(ch) in INVISIBLE for ch in name):
        raise ValueError("a name needs at least one visible character")
    return name


class _Body(BaseModel):
    model_config = ConfigDict(extra="ignore")


class CreateRoomIn(_Body):
    """Body of POST /api/rooms."""

    model_config = ConfigDict(json_schema_extra=PACE_LIMIT_SCHEMA)

    name: str = Field(json_schema_extra=NAME_SCHEMA)
    public: StrictBool = True
    turn_limit_s: StrictInt | None = Field(default=None, json_schema_extra=TURN_LIMIT_SCHEMA)  # seconds per decision (RoomOut.turn_limits); null/0 = no timer
    pace: str = Field(default="live", json_schema_extra=PACE_SCHEMA)  # "turn": turn_limit_s one of RoomOut.turn_based_limits
    hints: StrictBool = False  # hints allowed: a seat may ask what the computer would do (app/live/hints.py)

    _name = field_validator("name", mode="before")(clean_name)


class TutorialIn(_Body):
    """Body of POST /api/rooms/tutorial ("Learn to play"): the person's name."""

    name: str = Field(json_schema_extra=NAME_SCHEMA)

    _name = field_validator("name", mode="before")(clean_name)


class ChatSettingsIn(_Body):
    """Body of POST /api/rooms/{code}/chat (host)."""

    spectators: StrictBool


class HintsIn(_Body):
    """Body of POST /api/rooms/{code}/hints (host, before the start)."""

    allowed: StrictBool


class TurnLimitIn(_Body):
    """Body of POST /api/rooms/{code}/timer (host, before the start)."""

    model_config = ConfigDict(json_schema_extra=PACE_LIMIT_SCHEMA)

    turn_limit_s: StrictInt | None = Field(default=None, json_schema_extra=TURN_LIMIT_SCHEMA)  # one of RoomOut.turn_limits; null/0 = no timer
    pace: str | None = Field(default=None, json_schema_extra={"anyOf": [PACE_SCHEMA, {"type": "null"}]})  # null: the room's pace as it is


class AwayIn(_Body):
    """Body of PUT /api/rooms/{code}/away (a seated person): away until `until` (ISO 8601 UTC,
    e.g. "2026-12-05T14:00:00Z"; a time without a zone is UTC), or null: back now."""

    until: datetime | None


class JoinRoomIn(_Body):
    """Body of POST /api/rooms/{code}/join."""

    name: str = Field(json_schema_extra=NAME_SCHEMA)

    _name = field_validator("name", mode="before")(clean_name)


class BotIn(_Body):
    """Body of POST /api/rooms/{code}/bots and /seats/{seat}/bot."""

    level: BotLevel = "normal"


class AgainIn(_Body):
    """Body of POST /api/rooms/{code}/again: the number of the finished game the player saw
    (omitted: the room's last finished game)."""

    game: int | None = Field(default=None, ge=1)


class AgainOut(BaseModel):
    """Answer of POST /api/rooms/{code}/again."""

    game: int      # the number of the game the room now waits for
    status: str    # "waiting"
    new: bool      # this request moved the room on (exactly one request per finished game)


class CreateRoomOut(BaseModel):
    """Answer of POST /api/rooms (201). The token is shown only here."""

    code: str
    url: str
    seat: int
    token: str


class JoinRoomOut(BaseModel):
    """Answer of POST /api/rooms/{code}/join. The token is shown only here."""

    code: str
    url: str
    seat: int
    token: str


class SeatOut(BaseModel):
    """Answer with a seat number (bots)."""

    seat: int


class PlayerOut(BaseModel):
    """One seat in a room summary."""

    seat: int
    name: str
    bot: bool
    bot_level: BotLevel | None
    connected: bool
    offline_s: int | None = None  # seconds without a connection (a human seat not connected now)
    connected_s: int | None = None  # seconds connected without a break (a human seat connected to this server process)
    since_start: bool = False  # room older than the server process, seat not connected since its start: offline_s counts from the start, the host too waits handover_after_s
    ready: bool = False  # said they are in for the room's next game (play again)
    away_until: str | None = None  # ISO 8601 UTC: the seat's player is away until then (null: not away)
    away_left_s: int = 0  # seconds of away this seat may still set in this game (of 7 days)


class BestSaleOut(BaseModel):
    """A name's best single sale of the series (app/standings.py): most VPs; `value` in coins."""

    game: int
    vp: int
    value: int
    color: str


class StandingRowOut(BaseModel):
    """One name's line of the standings (app/standings.py `series`)."""

    name: str
    computer: bool
    played: int
    wins: int          # won alone
    shared_wins: int   # won tied with others (R-end-2)
    vp: int
    vp_per_game: float
    by_game: list[int | None]  # its VPs in each game of `numbers` (null: not at the table)
    best_sale: BestSaleOut | None


class StandingsOut(BaseModel):
    """The room's series of finished games (docs/protocol.md "The standings")."""

    games: int
    numbers: list[int]
    players: list[StandingRowOut]


class RoomOut(BaseModel):
    """The room summary (GET /api/rooms/{code} and the WebSocket `room` message)."""

    code: str
    url: str
    status: RoomStatus
    public: bool
    host_seat: int = 0
    max_seats: int = 4
    created_at: str
    version: int
    handover_after_s: int = 60  # after this long offline (or idle on its decision, without a timer) any seated player may hand a seat to a computer player
    turn_limit_s: int | None = None  # the turn timer: seconds per decision, null = none
    turn_limits: list[int] = [30, 60, 120, 300]  # the timers the host may choose
    chat_spectators: bool = True  # spectators may read and write the chat (the host may close it)
    players: list[PlayerOut]
    you: int | None = None
    game: int = 1  # the number of the room's current game (play again moves it on)
    pace: Literal["live", "turn"] = "live"  # turn: a turn-based room (turn_limit_s of turn_based_limits)
    turn_based_limits: list[int] = [3600, 28800, 86400, 259200]  # the turn-based times the host may choose
    paused_at: str | None = None  # ISO 8601 UTC: the host paused the game then (null: running)
    standings: StandingsOut | None = None  # the finished games of the room added up (null: none yet)
    hints: bool = False  # hints allowed: a seat may ask what the computer would do (app/live/hints.py)
    tutorial: bool = False  # a "Learn to play" room (app/tutorial.py): the guide runs on its table


class LobbySeatOut(BaseModel):
    """One taken seat of a lobby room (a client names computer players from `bot_level`)."""

    seat: int
    name: str
    bot: bool
    bot_level: BotLevel | None


class LobbyRoomOut(BaseModel):
    """One open public room in the lobby list (app/lobby.py)."""

    code: str
    url: str
    players: list[str]       # names by seat (the seats' `name`s)
    seats: list[LobbySeatOut] = []
    present: int = 0         # seated people connected now (app/lobby.py)
    seats_free: int
    status: RoomStatus
    created_at: str
    pace: Literal["live", "turn"] = "live"
    turn_limit_s: int | None = None
    hints: bool = False  # hints allowed


class StatusOut(BaseModel):
    """A plain status answer (`/healthz` adds `instance`, the answering process's host name)."""

    status: str = Field(examples=["ok"])
    instance: str | None = Field(default=None, examples=["3f2a9c1b7d4e"])


class NotReadyOut(BaseModel):
    """The answer of `/readyz` while the server is not ready (503)."""

    status: Literal["not_ready"]
    reason: str = Field(examples=["database unreachable"])


class MinePlayerOut(BaseModel):
    """One seat of a room in "My games"."""

    seat: int
    name: str
    bot: bool
    bot_level: BotLevel | None
    away_until: str | None = None  # ISO 8601 UTC while its person is away (turn-based; app/pace.py)


class MineLastOut(BaseModel):
    """The last action of a room's game as a spectator sees it (`engine.visible_events`)."""

    version: int
    seat: int
    events: list[dict]


class MineRoomOut(BaseModel):
    """One room of "My games" (`GET /api/mine`, `/ws/mine`; app/mine.py)."""

    code: str
    url: str
    status: RoomStatus
    game: int
    host: str | None            # the host's name (seat 0): the room's name shown
    you: int                    # your seat
    name: str                   # your seat's name
    bot: bool                   # a computer player plays your seat now
    players: list[MinePlayerOut]
    turn_limit_s: int | None
    version: int
    to_act: int | None          # whose decision it is (playing only)
    your_turn: bool
    deadline: str | None        # ISO 8601 UTC, the decision's deadline (with a turn timer)
    turn_at: str | None         # when the current decision began
    paused: bool = False        # the host paused the game: the time stands still (app/pace.py)
    left_s: int | None = None   # while paused: the seconds left as they stood at the pause
    last: MineLastOut | None
    chat_id: int | None         # the newest chat message's id


class SeatLinkOut(BaseModel):
    """A private seat link (`POST /api/rooms/{code}/seat-link`): the token is in the fragment."""

    url: str = Field(examples=["https://example.org/r/7KQ2M9XR4T#seat=…"])
    qr_svg: str


class ClaimIn(_Body):
    """The token of a seat link (`POST /api/rooms/{code}/claim`)."""

    token: str = Field(min_length=1, max_length=128)
    #: Take the link's seat although this browser holds another seat of the room (its cookie
    #: is replaced: that seat is then only on the player's other devices).
    replace: bool = False


class SeatTokenOut(BaseModel):
    """This device's seat after a claim or a new token (`claim`, `seat-token`)."""

    code: str
    url: str
    seat: int
    token: str | None = None   # only from `seat-token`: the new token (also set as the cookie)
