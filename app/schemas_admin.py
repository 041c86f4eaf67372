"""Bodies and answers of the host's admin API (app/routes/admin.py; docs/protocol.md "Admin").
Apart from app/schemas.py only for its length; the same conventions (times ISO 8601 UTC)."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from .schemas import BotLevel, RoomStatus


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


class NoticeIn(BaseModel):
    """PUT /api/admin/notice: a restart `restart_in_min` minutes from now (1..1440) and/or a
    `text` (at most 200 characters once trimmed); at least one of them."""

    model_config = ConfigDict(extra="ignore")

    restart_in_min: int | None = None
    text: str | None = None


class NoticeSetOut(BaseModel):
    """PUT / DELETE /api/admin/notice: the notice shown now (null: none)."""

    notice: NoticeOut | None
