"""WebSocket endpoints: a room's table and the lobby feed (docs/protocol.md)."""
from __future__ import annotations

from fastapi import APIRouter, WebSocket

router = APIRouter()


@router.websocket("/ws/rooms/{code}")
async def room_socket(ws: WebSocket, code: str):
    """A room's live table: seat from the Bearer header or the room's cookie, else spectator."""
    await ws.app.state.live.serve_room(ws, code)


@router.websocket("/ws/lobby")
async def lobby_socket(ws: WebSocket):
    """The lobby feed of open public rooms."""
    await ws.app.state.live.serve_lobby(ws)


@router.websocket("/ws/mine")
async def mine_socket(ws: WebSocket):
    """"My games": the rooms of this browser's seat cookies, sent again when one changes."""
    await ws.app.state.live.serve_mine(ws)
