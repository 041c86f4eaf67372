"""Fixtures for the browser tests: a real `osaka serve` subprocess on a temporary SQLite
database (migrated with `osaka migrate` first, bots without delay; app/testing/launcher.py) and Debian's headless
Chromium driven by Playwright. Screenshots go to test-artifacts/screenshots/ (gitignored)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from app.testing.launcher import NO_ADDRESS_LIMITS, QUIET, ServerProcess

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-artifacts" / "screenshots"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-gpu",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}


class E2EServer(ServerProcess):
    """A running `osaka serve` on its own migrated SQLite file in `tmp` (the shared launcher,
    app/testing/launcher.py): `.base_url` ("http://127.0.0.1:PORT"), `.stop()`; `env` adds or
    overrides environment variables (settings, e.g. HANDOVER_AFTER_S); `port` reuses a port
    (a restart)."""

    def __init__(self, tmp: Path, port: int | None = None, env: dict[str, str] | None = None):
        super().__init__(f"sqlite+aiosqlite:///{tmp / 'e2e.db'}", tmp / "server.log",
                         env={**QUIET, **NO_ADDRESS_LIMITS, **(env or {})}, port=port)
        self.start(migrate_first=True)


@pytest.fixture(scope="session")
def e2e_server(tmp_path_factory) -> E2EServer:
    """One real server for the browser tests of this session (each test makes its own rooms)."""
    srv = E2EServer(tmp_path_factory.mktemp("e2e"))
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def e2e_server_quick_handover(tmp_path_factory) -> E2EServer:
    """A second real server where any player may hand an offline seat to a computer player
    after 5 seconds (HANDOVER_AFTER_S) instead of 60."""
    srv = E2EServer(tmp_path_factory.mktemp("e2e-handover"), env={"HANDOVER_AFTER_S": "5"})
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def e2e_server_quick_timer(tmp_path_factory) -> E2EServer:
    """A server that offers a 2-second turn timer (TURN_LIMIT_TEST_S, looked after every 0.2 s:
    TIMER_POLL_S) besides the usual 30 s to 5 min, so a time-out happens within a test; computer
    players wait 1 s before each move, so a game they play lasts long enough to take a seat back.
    Per-message compression is on here (WS_COMPRESSION, off by default), so a browser plays over
    compressed frames in the suite too."""
    srv = E2EServer(tmp_path_factory.mktemp("e2e-timer"), env={"TURN_LIMIT_TEST_S": "2", "TIMER_POLL_S": "0.2",
                                                                         "BOT_DELAY_S": "1", "WS_COMPRESSION": "true"})
    yield srv
    srv.stop()


@pytest.fixture(scope="package")
def browser():
    """Headless Debian Chromium (never a downloaded browser build). Package scope: Playwright's
    sync API runs an event loop while it is open, so it is closed after the browser tests,
    before the asyncio tests that come later in a whole-suite run (tests/unit)."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def new_page(browser):
    """new_page(viewport=DESKTOP, **context_options) -> a page in a fresh browser context
    (its own cookies = its own player). Page errors and dialogs (alert) are recorded on
    page.errors / page.dialogs; a test fails if any page raised a script error."""
    contexts = []
    pages = []

    def make(viewport=None, **opts):
        ctx = browser.new_context(viewport=viewport or DESKTOP, **opts)
        contexts.append(ctx)
        page = ctx.new_page()
        page.errors = []
        page.dialogs = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        page.on("dialog", lambda d: (page.dialogs.append(d.message), d.dismiss()))
        page.set_default_timeout(15000)
        pages.append(page)
        return page

    yield make
    errors = [e for p in pages for e in p.errors]
    for ctx in contexts:
        ctx.close()
    assert not errors, errors


@pytest.fixture(scope="session")
def shots() -> Path:
    """The screenshot folder (created)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS
