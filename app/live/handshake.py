"""The handshake of a room WebSocket, before the room is read: which seat token it carries,
whether a seat cookie may be used (same origin), and how a refused socket is answered."""
from __future__ import annotations

from urllib.parse import urlsplit

from starlette.websockets import WebSocket, WebSocketState

from ..security import cookie_name
from .hub import dumps
from ..refusals import Refusal


def token_of(ws: WebSocket, code: str | None) -> tuple[str | None, bool]:
    """(token, came_from_cookie): the Bearer header wins over the room's cookie."""
    auth = ws.headers.get("authorization", "")
    if auth[:7].lower() == "bearer ":
        return auth[7:].strip() or None, False
    if code is not None:
        token = ws.cookies.get(cookie_name(code))
        if token:
            return token, True
    return None, False


def same_origin(ws: WebSocket) -> bool:
    """A browser's handshake from another site must not ride on the seat cookie."""
    origin = ws.headers.get("origin")
    if not origin:
        return True
    return urlsplit(origin).netloc.lower() == ws.headers.get("host", "").lower()


async def refuse_socket(ws: WebSocket, refusal: Refusal, close_code: int = 1008) -> None:
    """Accept (if not yet), send the refusal's `error` frame and close with `close_code`
    (reason: its code)."""
    try:
        if ws.application_state == WebSocketState.CONNECTING:
            await ws.accept()
        await ws.send_text(dumps(refusal.frame()))
        await ws.close(close_code, refusal.code)
    except Exception:
        pass
