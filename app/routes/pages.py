"""HTML pages: home (`/`), room and table (`/r/{code}`), how to play (`/how-to-play`), the
rules with their ids (`/rules`, docs/rules.md), and the room link's QR code (`/r/{code}/qr.svg`).

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
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from sqlalchemy import select

from .. import pace as P
from .. import rooms as R
from ..models import Room
from ..prefix import root_of
from ..rulesdoc import rules_html
from ..security import normalize_code

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES_DIR = ROOT / "templates"
STATIC_DIR = ROOT / "static"
MANIFEST = TEMPLATES_DIR / "manifest.webmanifest"



def _urls(request: Request) -> dict:
    """Template context of every page: `root`, the URL prefix of the request (`""` or
    `/osaka`, app/prefix.py), which every URL in the templates starts with; `asset(path)`, the
    versioned URL of a static file, and `import_map`, the modules' versioned URLs (app/assets.py)."""
    root = root_of(request)
    assets = request.app.state.assets
    return {"root": root, "asset": lambda path: assets.url(path, root), "import_map": assets.import_map(root)}


templates = Jinja2Templates(directory=str(TEMPLATES_DIR), context_processors=[_urls])

router = APIRouter(include_in_schema=False)

_NOT_A_CODE_CHARS = re.compile(r"[^A-Za-z0-9-]")


def _not_found_page(request: Request, code: str) -> HTMLResponse:
    """404 with the room page: its script asks the API and says, in the reader's language,
    that there is no such room. Only letters, digits and `-` of the path (at most 32) reach
    the HTML (autoescaped anyway)."""
    shown = _NOT_A_CODE_CHARS.sub("", code)[:32] or "-"
    return templates.TemplateResponse(request, "room.html", {"page": "room", "code": shown},
                                      status_code=404, headers={"Cache-Control": "no-cache"})


async def _room_exists(request: Request, code: str) -> bool:
    """True when a room with this canonical code is in the database."""
    async with request.app.state.live.sessions() as session:
        return await session.scalar(select(Room.id).where(Room.code == code)) is not None


def _page(request: Request, template: str, page: str, **extra: object) -> HTMLResponse:
    """Render one page skeleton; `page` names the ES module that draws it."""
    return templates.TemplateResponse(
        request, template, {"page": page, **extra},
        headers={"Cache-Control": "no-cache"},
    )


@router.get("/", response_class=HTMLResponse)
async def home(request: Request) -> HTMLResponse:
    """Home: create a room (live or turn-based: the times the waiting room offers too), the
    live list of open public rooms (via `/ws/lobby`)."""
    settings = request.app.state.live.settings
    return _page(request, "home.html", "home", live_limits=R.turn_limits(settings.turn_limit_test_s),
                 turn_based_limits=P.turn_based_limits(settings.turn_based_test_s))


@router.get("/mine", response_class=HTMLResponse)
async def my_games(request: Request) -> HTMLResponse:
    """"My games": the rooms this browser holds a seat in (static/js/mine.js asks `/api/mine`
    and listens on `/ws/mine`); nothing of them is in the HTML."""
    return _page(request, "mine.html", "mine")


@router.get("/how-to-play", response_class=HTMLResponse)
async def how_to_play(request: Request) -> HTMLResponse:
    """A short how-to-play page (text from the message catalogue)."""
    return _page(request, "how_to_play.html", "howto")


@router.get("/rules", response_class=HTMLResponse)
async def rules(request: Request) -> HTMLResponse:
    """The rules as implemented (docs/rules.md, English), each rule anchored by its id
    (`/rules#R-pay-9`): the how-to-play page links its sections here."""
    return _page(request, "rules.html", "rules", rules=rules_html())


@router.get("/manifest.webmanifest")
async def web_app_manifest() -> Response:
    """The web app manifest (W3C "Web Application Manifest"), so a phone can add the game to
    its home screen. Served beside the pages, not under /static/, so that its relative URLs
    (start `./`, icons `static/img/…`) resolve to the app's root under any URL prefix."""
    return Response(MANIFEST.read_bytes(), media_type="application/manifest+json",
                    headers={"Cache-Control": "no-cache"})


@router.get("/r/{code}", response_class=HTMLResponse)
async def room_page(request: Request, code: str) -> Response:
    """The room: seats and join form before the start, the game table after it, the result
    at the end. The seat comes from the HttpOnly cookie `osaka_<code>` (sent by the browser
    on the script's fetch and WebSocket calls), so a reload lands back in the same seat.

    The code is read as the API reads it (docs/protocol.md §Rooms: case, `-` and spaces,
    I/L/O): another spelling is redirected (301) to the canonical `/r/{CODE}`; something
    that cannot be a code gets an HTML 404 page. A well-formed code of no room gets the page,
    which asks the API and says so."""
    canonical = normalize_code(code)
    if canonical is None:
        return _not_found_page(request, code)
    if canonical != code:
        return RedirectResponse(f"{root_of(request)}/r/{canonical}", status_code=301)
    return _page(request, "room.html", "room", code=canonical)


@router.get("/r/{code}/games/{number}", response_class=HTMLResponse)
async def replay_page(request: Request, code: str, number: int) -> Response:
    """The replay of a finished game (static/js/replay.js asks `/api/rooms/{code}/games/{n}/replay`;
    a game not over yet gets that API's `409 game_not_over`, so nothing of it is in the page).
    Another spelling of the code is redirected; something that is not a code gets a 404 page."""
    canonical = normalize_code(code)
    if canonical is None or number < 1:
        return _not_found_page(request, code)
    if canonical != code:
        return RedirectResponse(f"{root_of(request)}/r/{canonical}/games/{number}", status_code=301)
    return _page(request, "replay.html", "replay", code=canonical, number=number)


@router.get("/r/{code}/qr.svg")
async def room_qr(request: Request, code: str) -> Response:
    """SVG QR code of the room's absolute URL (`{base_url}r/{CODE}`, canonical code: scheme,
    host, port and prefix as the proxy forwarded the request, app/prefix.py), for
    friends at the same table; 404 for a code of no room. Made with segno
    (https://segno.readthedocs.io): error correction M, a 4-module quiet zone, dark modules
    black on white."""
    canonical = normalize_code(code)
    if canonical is None or not await _room_exists(request, canonical):
        return Response("Not found.", status_code=404, media_type="text/plain")
    url = str(request.base_url) + "r/" + canonical
    buf = io.BytesIO()
    segno.make(url, error="m").save(
        buf, kind="svg", scale=4, border=4, dark="#000", light="#fff", xmldecl=False,
        svgns=True, title="QR code of the room link",
    )
    return Response(
        buf.getvalue(), media_type="image/svg+xml",
        headers={"Cache-Control": "public, max-age=3600"},
    )
