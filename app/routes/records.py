"""HTTP API of finished games (docs/protocol.md "Finished games"): the list, the record as
JSON (docs/record.schema.json) and as text, and the replay steps. Only finished games:
the current game before its end is `409 game_not_over` (R-info-3)."""
from __future__ import annotations

from fastapi import APIRouter, Path
from fastapi.responses import JSONResponse, PlainTextResponse

from .. import records
from .. import replay as replay_mod
from .. import rooms as R
from ..deps import LiveDep, SessionDep
from ..refusals import responses

router = APIRouter(prefix="/api/rooms", tags=["games"])
GAMES = responses("room_not_found")
RECORD = responses("room_not_found", "game_not_found", "game_not_over", "bad_request")
Number = Path(ge=1, le=1_000_000, description="the game's number in the room (1, 2, ...)")


def _attachment(code: str, number: int, ext: str) -> dict:
    return {"Content-Disposition": f'attachment; filename="osaka-{code}-game{number}.{ext}"',
            "Cache-Control": "no-store"}


@router.get("/{code}/games", responses=GAMES)
async def list_games(code: str, session: SessionDep):
    """The room's finished games: `{"current", "status", "games": [{"number", "players",
    "winners", "reason", "started_at", "ended_at"}]}` (oldest first)."""
    room = await R.load_room(session, code)
    return await records.finished_games(session, room)


@router.get("/{code}/games/{number}/record.json", responses=RECORD)
async def record_json(code: str, session: SessionDep, number: int = Number):
    """The record of a finished game as a JSON download (docs/record.schema.json)."""
    room = await R.load_room(session, code)
    rec = await records.game_record(session, room, number)
    return JSONResponse(rec, headers=_attachment(room.code, number, "json"))


@router.get("/{code}/games/{number}/record.txt", responses=RECORD, response_class=PlainTextResponse)
async def record_text(code: str, session: SessionDep, number: int = Number):
    """The record of a finished game as a readable text log (English, UTF-8)."""
    room = await R.load_room(session, code)
    rec = await records.game_record(session, room, number)
    return PlainTextResponse(replay_mod.text_log(rec), headers=_attachment(room.code, number, "txt"))


@router.get("/{code}/games/{number}/replay", responses=RECORD)
async def replay(code: str, session: SessionDep, number: int = Number):
    """Every moment of a finished game with all hands (app/replay.py `replay`), for the replay page."""
    room = await R.load_room(session, code)
    rec = await records.game_record(session, room, number)
    return JSONResponse(replay_mod.replay(rec), headers={"Cache-Control": "no-store"})


@router.get("/{code}/games/{number}/review", responses=RECORD)
async def review(code: str, session: SessionDep, live: LiveDep, number: int = Number):
    """The review of a finished game (docs/protocol.md "Review"): `{"status": "none" | "pending"
    | "running" | "ready" | "failed", "progress": 0..100, "review": null | the review}`. A game
    finished before reviews existed gets its review now (status "pending" at first)."""
    room = await R.load_room(session, code)
    found, queued = await records.review_of(session, room, number)
    if queued:
        await session.commit()
        live.review_due()
    return JSONResponse(found, headers={"Cache-Control": "no-store"})
