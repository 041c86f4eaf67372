"""Bodies and answers of the host's admin API (app/routes/admin.py; docs/protocol.md "Admin").
Apart from app/schemas.py only for its length; the same conventions (times ISO 8601 UTC)."""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from .admin import NOTICE_MAX_CHARS, RESTART_MAX_MINUTES
from .schemas import BotLevel, RoomStatus

#: What NoticeIn takes, said in its schema (the handler checks it: app/admin.py `check_notice`,
#: so a body outside it gets the notice's own codes, not `bad_request`): a restart 1 to 1440
#: minutes away and/or a text of 1 to 200 characters with something visible and no control or
#: invisible characters (the format `notice-text`), at least one of them.
_MINUTES = {"anyOf": [{"type": "integer", "minimum": 1, "maximum": RESTART_MAX_MINUTES}, {"type": "null"}]}
_TEXT = {"anyOf": [{"type": "string", "minLength": 1, "maxLength": NOTICE_MAX_CHARS, "format": "notice-text"},
                   {"type": "null"}]}
_ONE_OF_THEM = {"anyOf": [{"properties": {"restart_in_min": {"type": "integer"}}, "required": ["restart_in_min"]},
                          {"properties": {"text": {"type": "string"}}, "required": ["text"]}]}


class AdminPlayerOut(BaseModel):
    """One taken seat of a listed room."""

    seat: int
    name: str
    bot: bool                       # a computer player plays it
    bot_level: BotLevel | None
    connected: bool                 # a person with a live connection in some server process


class AdminRoomOut(BaseModel):
    """One room as the admin page lists it (app/admin.py `live_rooms`)."""

    code: str
    status: RoomStatus
    paused: bool
    pace: Literal["live", "turn"]
    public: bool
    game: int                       # the room's current game number (play again moves it on)
    created_at: str
    active_at: str                  # last activity: a join, an action, a connection (cleanup's stamp)
    players: list[AdminPlayerOut]


class NoticeOut(BaseModel):
    """The maintenance notice shown now (the `notice` frame's `notice`)."""

    restart_at: str | None          # the announced restart, ISO 8601 UTC
    restart_in_s: int | None        # whole seconds until then when this was made (≥ 0)
    text: str | None                # the host's own words, as typed


class AdminRoomsOut(BaseModel):
    """GET /api/admin/rooms: the rooms (most recently active first, at most 500) and the notice."""

    rooms: list[AdminRoomOut]
    notice: NoticeOut | None


def _json_integer(value):
    """A JSON Schema integer (5 or 5.0) and nothing else: pydantic's lax int also took `true`
    and "5" as minutes (1 and 5)."""
    if isinstance(value, (bool, str)):
        raise ValueError("Input should be a valid integer")
    return value


Minutes = Annotated[int, BeforeValidator(_json_integer)]


class NoticeIn(BaseModel):
    """PUT /api/admin/notice: a restart `restart_in_min` minutes from now (1..1440) and/or a
    `text` (at most 200 characters once trimmed); at least one of them."""

    model_config = ConfigDict(extra="ignore", json_schema_extra=_ONE_OF_THEM)

    restart_in_min: Minutes | None = Field(None, json_schema_extra=_MINUTES)
    text: str | None = Field(None, json_schema_extra=_TEXT)


class NoticeSetOut(BaseModel):
    """PUT / DELETE /api/admin/notice: the notice shown now (null: none)."""

    notice: NoticeOut | None
