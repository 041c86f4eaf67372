"""The FastAPI application: `create_app(settings)` wires routers, static files (app/assets.py), errors, lifespan."""
from __future__ import annotations

import asyncio
import contextlib
import logging
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI

from .assets import Assets
from .config import Settings
from .db import make_engine, make_sessionmaker
from .errors import install_error_handlers
from .live.sockets.handshake import AdmissionGate
from .live.sockets.connection import dumps
from .live.service import Live
from .notify.service import Notify
from .logs import AccessLog
from .migrate import script_heads
from .prefix import Forwarded
from .ratelimit import Limiter
from .refusals import Refusal
from .routes import admin, health, mine, notify, pace, pages, records, rooms, static, ws
from .shutdown import shutdown_step

ROOT = Path(__file__).resolve().parent.parent
log = logging.getLogger("osaka")
#: HTTP bodies larger than this get 413 `too_large`: the largest the API takes (a room's
#: settings, a name) is under 1 KB.
MAX_BODY_BYTES = 65536


#: Headers of every HTTP answer (OWASP Secure Headers): no page of ours is framed by another
#: site (clickjacking a host's controls: CSP `frame-ancestors`, and `X-Frame-Options` for older
#: browsers), no answer is sniffed as another type, and no address (a seat link's) is sent on
#: as a referrer to another site. Found missing by a break test; the pages load nothing foreign.
SECURITY_HEADERS = [(b"x-content-type-options", b"nosniff"), (b"x-frame-options", b"DENY"),
                    (b"content-security-policy", b"frame-ancestors 'none'"),
                    (b"referrer-policy", b"same-origin")]


class SecurityHeaders:
    """Pure ASGI middleware: `SECURITY_HEADERS` on every HTTP answer that does not set them
    itself (WebSockets untouched)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def with_headers(message):
            if message["type"] == "http.response.start":
                headers = list(message.get("headers") or [])
                have = {k.lower() for k, _ in headers}
                headers.extend(h for h in SECURITY_HEADERS if h[0] not in have)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)


class BodyLimit:
    """Pure ASGI middleware: HTTP bodies over `limit` bytes get 413 `too_large` (nothing read further)."""

    def __init__(self, app, limit: int):
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            return await self._too_large(send)
        # Read the whole body first (at most `limit` bytes): a chunked body without a
        # Content-Length that grows too large is refused here with 413, before the app (whose
        # body parser would turn any error while reading into a 400) sees any of it.
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return None
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > self.limit:
                return await self._too_large(send)
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay():
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _too_large(self, send):
        body = dumps(Refusal("too_large", limit=self.limit).body()).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the app. Settings are read from the environment here, once, unless given."""
    settings = settings or Settings()
    db_engine = make_engine(settings.database_url)
    live = Live(settings, make_sessionmaker(db_engine))
    notifications = Notify(settings, live.sessions, live)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        await live.settle_clocks()  # time no server ran off the turn clocks, before anyone is served
        try:
            await live.resume()
        except Exception:  # e.g. schema missing: stay up, /readyz says why
            log.exception("could not resume games; is the database migrated?")
        await live.start()
        cleanup = asyncio.create_task(live.cleanup_loop(), name="cleanup")
        notifications.start()
        try:
            yield
        finally:  # each step logged with its stack if it overruns (`shutdown_step`)
            cleanup.cancel()
            async with shutdown_step("cleanup"):
                with contextlib.suppress(asyncio.CancelledError):
                    await cleanup
            async with shutdown_step("notifications"):
                await notifications.close()
            async with shutdown_step("live"):
                await live.close()
            async with shutdown_step("database"):
                await db_engine.dispose()

    app = FastAPI(title="Traders of Osaka", version="0.1.0", lifespan=lifespan,
                  description="Rooms and live games of Traders of Osaka. Protocol: docs/protocol.md.")
    app.state.settings = settings
    app.state.limiter = Limiter({"create": settings.room_create_limit, "join": settings.room_join_limit,
                                  "lookup": settings.room_lookup_limit, "notify": settings.notify_change_limit,
                                  "admin": settings.admin_limit})
    app.state.live = live
    app.state.notify = notifications
    app.state.db_engine = db_engine
    app.state.migration_heads = script_heads()
    install_error_handlers(app)
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)
    app.add_middleware(SecurityHeaders)  # on every answer, the 413s of BodyLimit too
    app.add_middleware(AccessLog)  # also logs the 413s of BodyLimit
    # Room sockets over the connection limits cost nothing further (admission.py).
    app.add_middleware(AdmissionGate, admission=live.admission)
    # Outermost: the URL prefix and the proxy headers of trusted proxies (app/prefix.py).
    app.add_middleware(Forwarded, trusted_hosts=settings.forwarded_allow_ips, root_path=settings.root_path)
    app.include_router(health.router)
    app.include_router(rooms.router)
    app.include_router(rooms.tutorial_router)
    app.include_router(pace.router)
    app.include_router(mine.router)
    app.include_router(records.router)
    app.include_router(notify.router)
    app.include_router(admin.router)
    app.include_router(ws.router)
    app.include_router(pages.router)
    app.state.assets = Assets(ROOT / "static")
    app.include_router(static.router)
    return app
