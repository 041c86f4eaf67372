"""Helpers of the in-process tests: an app with its lifespan-free `Live`, and an HTTP client."""
from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from http.cookiejar import DefaultCookiePolicy

import httpx

from app.config import Settings
from app.live.service import Live
from app.main import create_app


@contextlib.asynccontextmanager
async def running(settings: Settings) -> AsyncIterator[tuple[Live, httpx.AsyncClient]]:
    """(live, client): the app's `Live` started (lobby feed, fan-out) and an httpx client that
    calls the app in this event loop; everything closed afterwards. The client keeps no
    cookies: every request speaks for the token it sends (many players share one client)."""
    app = create_app(settings)
    live: Live = app.state.live
    await live.start()
    transport = httpx.ASGITransport(app=app)
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://osaka.test") as client:
            client.cookies.jar.set_policy(DefaultCookiePolicy(allowed_domains=[]))
            yield live, client
    finally:
        await live.close()
        await app.state.db_engine.dispose()


def auth(token: str) -> dict:
    """The Authorization header of a seat token."""
    return {"Authorization": f"Bearer {token}"}


@contextlib.asynccontextmanager
async def serving(settings: Settings) -> AsyncIterator[tuple[Live, str]]:
    """(live, "127.0.0.1:PORT"): the app served by uvicorn inside this event loop (no
    subprocess), with its lifespan, for real WebSocket clients; stopped afterwards."""
    import asyncio

    import uvicorn

    from app.testing.launcher import free_port
    app = create_app(settings)
    port = free_port()
    from app.ws_protocol import CoalescingWebSocketProtocol  # as `osaka serve` runs it
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                           ws=CoalescingWebSocketProtocol))
    task = asyncio.create_task(server.serve())
    try:
        async with asyncio.timeout(30):
            while not server.started:
                if task.done():
                    task.result()  # raises what stopped it
                await asyncio.sleep(0.02)
        yield app.state.live, f"127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 30)
