"""HTML pages: home (`/`), room and table (`/r/{code}`), how to play (`/how-to-play`), and
the room link's QR code (`/r/{code}/qr.svg`).

The pages are thin Jinja2 skeletons; everything a player sees is drawn by the ES modules in
`static/js/` from the JSON/WebSocket protocol (docs/protocol.md), with every string taken from
one message catalogue per language (`static/js/i18n/en.js`, `de.js`). No user data is ever
rendered into the HTML here: the room code is validated and the rest arrives as JSON that the
scripts insert as text.
"""
from __future__ import annotations

import io
import re
from pathlib import Path

import segno
from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.templating import Jinja2Templates

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES_DIR = ROOT / "templates"
STATIC_DIR = ROOT / "static"

templates = Jinja2Templates(directory=str(TEMPLATES_DIR))

router = APIRouter(include_in_schema=False)

# A room code as the server issues it: letters and digits, short. Anything else is not a room
# and gets a 404 without touching the database (the room page itself asks the API).
_CODE_RE = re.compile(r"^[A-Za-z0-9_-]{1,32}$")


def _check_code(code: str) -> str:
    """Return `code` if it looks like a room code, else raise HTTP 404."""
    if not _CODE_RE.match(code):
        raise HTTPException(status_code=404, detail="room_not_found")
    return code


def _page(request: Request, template: str, page: str, **extra: object) -> HTMLResponse:
    """Render one page skeleton; `page` names the ES module that draws it."""
    return templates.TemplateResponse(
        request, template, {"page": page, **extra},
        headers={"Cache-Control": "no-cache"},
    )


@router.get("/", response_class=HTMLResponse)
async def home(request: Request) -> HTMLResponse:
    """Home: create a room, the live list of open public rooms (via `/ws/lobby`)."""
    return _page(request, "home.html", "home")


@router.get("/how-to-play", response_class=HTMLResponse)
async def how_to_play(request: Request) -> HTMLResponse:
    """A short how-to-play page (text from the message catalogue)."""
    return _page(request, "how_to_play.html", "howto")


@router.get("/r/{code}", response_class=HTMLResponse)
async def room_page(request: Request, code: str) -> HTMLResponse:
    """The room: seats and join form before the start, the game table after it, the result
    at the end. The seat comes from the HttpOnly cookie `osaka_<code>` (sent by the browser
    on the script's fetch and WebSocket calls), so a reload lands back in the same seat."""
    return _page(request, "room.html", "room", code=_check_code(code))


@router.get("/r/{code}/qr.svg")
async def room_qr(request: Request, code: str) -> Response:
    """SVG QR code of the room's absolute URL (`{base_url}r/{code}`), for friends at the
    same table. Made with segno (https://segno.readthedocs.io): error correction M, a
    4-module quiet zone, dark modules black on white."""
    url = str(request.base_url) + "r/" + _check_code(code)
    buf = io.BytesIO()
    segno.make(url, error="m").save(
        buf, kind="svg", scale=4, border=4, dark="#000", light="#fff", xmldecl=False,
        svgns=True, title="QR code of the room link",
    )
    return Response(
        buf.getvalue(), media_type="image/svg+xml",
        headers={"Cache-Control": "public, max-age=3600"},
    )
