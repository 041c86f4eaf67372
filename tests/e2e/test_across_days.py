"""Issue 31's whole evening, spread over "days": a turn-based game of three people and a
computer player, played to the end in real browsers on PostgreSQL with TWO server processes
(Ann and Cy on one, Ben on the other), every person's turn notified exactly once while their
page is in the background, with one seat away and one pause in between and a server restart in
the middle.

- Ann (the host, English) turns on Web Push in her panel: headless Chromium reaches no real push
  service, so an init script makes PushManager's subscribe return a subscription to a real local
  RFC 8030 push service (tests/app/notify_receivers.py) that checks the VAPID signature and
  decrypts each message (RFC 8291) with keys the test made as a browser would. She also gives
  the room a webhook (Apprise json:// to a local receiver).
- Ben (English, the other process) and Cy (German) paste Apprise json:// URLs of that receiver.
- All pages are "in the background" (document.visibilityState hidden, as a tab behind another
  one), but Ann's for the first stretch: nothing is sent for her decisions then.
- Before each decision of a person in the background the test waits for its one notification
  (a player acts when told), and for the webhook's turn; at the end nothing more comes: each
  person got exactly one per decision, the webhook one per decision of a person in the
  background (a person at the table is not announced to the group) and the result.
- The time per decision is the test setting (TURN_BASED_TEST_S), long enough that no time-out
  plays for anyone.
"""
from __future__ import annotations

import asyncio
import json
import os
import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta

import httpx
import pytest
from playwright.sync_api import expect

from app.testing.launcher import NO_ADDRESS_LIMITS, QUIET, ServerProcess
from tests.app.notify_receivers import HookReceiver, PushService
from tests.conftest import _pg_admin

from .helpers import HIDE, PUSH, create_room, decide, join_room, put_aside, take_up, version, wait_acting

TEST_S = 900  # seconds per decision: turn-based, shortened by TURN_BASED_TEST_S
ENV = {**QUIET, **NO_ADDRESS_LIMITS, "TURN_BASED_TEST_S": str(TEST_S), "TIMER_POLL_S": "0.2",
       "NOTIFY_ALLOW_PRIVATE": "true", "NOTIFY_POLL_S": "0.3", "NOTIFY_BACKOFF_S": "0.3",
       "NOTIFY_SEAT_LIMIT": "off", "NOTIFY_ROOM_LIMIT": "off", "NOTIFY_CHANGE_LIMIT": "off"}
ANN_VISIBLE_DECISIONS = 4  # Ann watches her page for her first decisions: nothing is sent for them


def _wait(cond, what: str, timeout: float = 20) -> None:
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError(what)
        time.sleep(0.05)


def _put_ok(page, path_end: str, method: str = "PUT"):
    return page.expect_response(lambda r: r.url.endswith(path_end) and r.request.method == method)


def _open_panel(page) -> None:
    page.click("#notify-btn")
    expect(page.locator("#notify-dlg[open]")).to_be_visible()
    expect(page.locator("#notify-save")).to_be_enabled()


def _admin(sql: str) -> None:
    """One statement on TEST_DATABASE_URL's server, from a thread of its own (Playwright's sync
    API runs an event loop in this one)."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, _pg_admin(os.environ["TEST_DATABASE_URL"], sql)).result()


@pytest.fixture
def pg_url(database_url):
    """An empty PostgreSQL database of this test alone (dropped after)."""
    name = f"osaka_days_{secrets.token_hex(4)}"
    _admin(f'CREATE DATABASE "{name}"')
    yield os.environ["TEST_DATABASE_URL"].rsplit("/", 1)[0] + "/" + name
    _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.mark.postgresql_only
@pytest.mark.slow
def test_a_turn_based_game_across_two_processes_with_notifications(pg_url, tmp_path, new_page, shots):
    a = ServerProcess(pg_url, tmp_path / "a.log", env=ENV).start(migrate_first=True)
    b = ServerProcess(pg_url, tmp_path / "b.log", env=ENV).start()
    hook = HookReceiver()
    push = PushService(httpx.get(a.base_url + "/api/push/key").json()["public_key"])
    assert httpx.get(b.base_url + "/api/push/key").json()["public_key"] == push.public_key, "one key pair"
    try:
        # ---- the room: Ann on A, Ben on B, Cy on A; a computer player in the fourth seat ----
        ann = new_page(timezone_id="Europe/Berlin")
        ann.context.add_init_script(script=HIDE)
        ann.context.add_init_script(script=f"{PUSH}({json.dumps(push.subscribe('ann'))})")
        code = create_room(ann, a.base_url, "Ann", public=False)
        with _put_ok(ann, "/timer", "POST") as resp:
            ann.select_option("#timer-select", f"turn:{TEST_S}")
        assert resp.value.status == 200, resp.value.text()
        ben = new_page(timezone_id="America/New_York")
        ben.context.add_init_script(script=HIDE)
        join_room(ben, b.base_url, code, "Ben")
        cy = new_page(locale="de-DE", timezone_id="Asia/Tokyo")
        cy.context.add_init_script(script=HIDE)
        join_room(cy, a.base_url, code, "Cy")
        expect(cy.locator("#timer-text")).to_contain_text("Rundenbasiert")
        ann.click("#add-bot")
        ann.wait_for_function("document.querySelectorAll('.seat:not(.empty)').length === 4")

        # ---- notifications, each in their own panel ----
        _open_panel(ann)
        ann.context.grant_permissions(["notifications"], origin=a.base_url)
        ann.click("#notify-push")
        expect(ann.locator("#notify-push")).to_be_checked()
        ann.fill("#notify-webhook", hook.url("room"))
        with _put_ok(ann, f"/api/rooms/{code}/notify") as mine, _put_ok(ann, f"/api/rooms/{code}/webhook") as room:
            ann.click("#notify-save")
        assert mine.value.status == 200 and room.value.status == 200, (mine.value.text(), room.value.text())
        ann.click("#notify-close")
        for page, name in ((ben, "ben"), (cy, "cy")):
            _open_panel(page)
            page.fill("#notify-apprise", hook.url(name))
            with _put_ok(page, f"/api/rooms/{code}/notify") as resp:
                page.click("#notify-save")
            assert resp.value.status == 200, resp.value.text()
            page.click("#notify-close")

        ann.click("#start-btn")
        pages = [ann, ben, cy]
        for page in pages:
            page.wait_for_selector("#players .player")
        for page in (ben, cy):  # in the background from now on; Ann watches for a while
            page.evaluate("__hide(true)")

        told = {0: lambda: [m for m in push.received if m["path"] == "/push/ann"],
                1: lambda: hook.to("ben"), 2: lambda: hook.to("cy")}
        hidden = {0: False, 1: True, 2: True}
        expected = {0: 0, 1: 0, 2: 0}   # notifications each person must have had by now
        decisions = {0: 0, 1: 0, 2: 0}  # decisions each person made
        told_for = {0: 0, 1: 0, 2: 0}   # of them, the new ones (not the next of the same seat in a row)
        after = {}                      # seat -> the version right after its last decision
        ann_seen = 0                    # Ann's new decisions while her page was in view
        room_turns = 0                  # people's decisions begun: the webhook's turns
        seat_of = {id(p): s for s, p in enumerate(pages)}
        away_done = pause_done = restart_done = False

        for step in range(600):
            acting = wait_acting(pages, timeout_s=60)
            if acting is None:
                break
            page, phase = acting
            seat = seat_of[id(page)]
            at = version(page)
            new = after.get(seat) != at  # not this seat's next decision in a row: told (app/notify/triggers.py)
            if new and hidden[seat]:  # (a turn whose person is at the table is not posted: app/notify/sender.py)
                room_turns += 1
                _wait(lambda: len(hook.to("room")) >= room_turns, f"the webhook's turn {room_turns} did not come")
            if hidden[seat] and new:
                expected[seat] += 1
                _wait(lambda: len(told[seat]()) >= expected[seat],
                      f"seat {seat}'s notification {expected[seat]} did not come (step {step})")
            assert len(told[seat]()) == expected[seat], (seat, told[seat]())
            decide(page, phase, step)
            after[seat] = at + 1
            decisions[seat] += 1
            told_for[seat] += new
            if seat == 0 and not hidden[0]:
                ann_seen = told_for[0]
            if seat == 0 and decisions[0] == ANN_VISIBLE_DECISIONS:
                assert told[0]() == [], "Ann's page was in view: nothing was sent to her"
                ann.evaluate("__hide(true)")
                hidden[0] = True

            if not away_done and step >= 10:
                # Ben is away for two days (the dialog), shown to the others; then back early.
                away_done = True
                put_aside(ben)
                ben.click("#away-btn")
                until = ben.evaluate("""() => { const d = new Date(Date.now() + 2 * 86400000); d.setSeconds(0, 0);
                  const two = (n) => String(n).padStart(2, '0');
                  return d.getFullYear() + '-' + two(d.getMonth() + 1) + '-' + two(d.getDate()) + 'T'
                    + two(d.getHours()) + ':' + two(d.getMinutes()); }""")
                ben.fill("#away-input", until)
                with _put_ok(ben, "/away") as resp:
                    ben.click("#away-save")
                assert resp.value.status == 200, resp.value.text()
                for other in (ann, cy):  # across the two processes
                    expect(other.locator("#pace .away[data-seat='1']")).to_be_visible()
                summary = httpx.get(f"{a.base_url}/api/rooms/{code}").json()
                away_until = datetime.fromisoformat(summary["players"][1]["away_until"].replace("Z", "+00:00"))
                assert away_until - datetime.now(away_until.tzinfo) > timedelta(days=1, hours=23)
                ann.screenshot(path=str(shots / "across-days-away.png"))
                ben.click("#away-btn")
                with _put_ok(ben, "/away") as resp:
                    ben.click("#away-clear")
                assert resp.value.status == 200, resp.value.text()
                expect(ann.locator("#pace .away")).to_have_count(0)
                take_up(ben)

            if not pause_done and step >= 20:
                # The host pauses: Ben (the other process) sees it, and his move is refused; she resumes.
                pause_done = True
                put_aside(ann)
                with _put_ok(ann, "/pause", "POST") as resp:
                    ann.click("#pause-btn")
                assert resp.value.status == 200, resp.value.text()
                expect(ben.locator("#paused-banner")).to_be_visible()
                expect(cy.locator("#paused-banner")).to_contain_text("pausiert")
                summary = httpx.get(f"{b.base_url}/api/rooms/{code}").json()
                assert summary["paused_at"], summary
                ben.screenshot(path=str(shots / "across-days-paused.png"))
                with _put_ok(ann, "/resume", "POST") as resp:
                    ann.click("#resume-btn")
                assert resp.value.status == 200, resp.value.text()
                for page in pages:
                    expect(page.locator("#paused-banner")).to_have_count(0)
                take_up(ann)

            if not restart_done and step >= 40:
                # Server A (Ann's and Cy's) stops and starts again on its port; their pages come back.
                restart_done = True
                a.stop()
                a = ServerProcess(pg_url, tmp_path / "a2.log", env=ENV, port=a.port).start()
        else:
            raise AssertionError("the game did not end")

        assert away_done and pause_done and restart_done, "the game ended before the away, pause and restart"
        for page in pages:
            expect(page.locator(".result:not([hidden])")).to_be_visible()
        _wait(lambda: len(hook.to("room")) >= room_turns + 1, "the webhook's result did not come")
        time.sleep(2.0)  # several polls of both processes later: nothing more comes
        print(f"decisions {decisions}, new {told_for}, notified {expected} (Ann in view for {ann_seen}), "
              f"webhook {len(hook.to('room'))}, steps {step}")
        assert {s: len(told[s]()) for s in told} == expected, "exactly one notification per decision"
        assert expected[0] == told_for[0] - ann_seen and ann_seen >= 1 and expected[0] > 5
        assert expected[1] == told_for[1] > 5 and expected[2] == told_for[2] > 5
        room = hook.to("room")
        assert len(room) == room_turns + 1 and room_turns == sum(told_for.values()) - ann_seen
        assert all("turn in room" in m["payload"]["title"] for m in room[:-1])
        assert room[-1]["payload"]["title"].startswith("Game over in room"), room[-1]

        # What was sent: the room's link, the words in each person's language, nothing hidden.
        for m in push.received:
            assert m["error"] is None, m["error"]
            p = m["payload"]
            assert p["room"] == code and p["url"] == f"{a.base_url}/r/{code}" and p["lang"] == "en", p
        assert all(m["payload"]["title"].startswith("Your turn") for m in hook.to("ben"))
        assert all(m["payload"]["title"].startswith("Du bist dran") for m in hook.to("cy"))
        for m in push.received + hook.received:
            assert f"/r/{code}" in m["raw"], m["raw"]
            for secret in ('"hand"', "deck", "seed"):
                assert secret not in m["raw"], (secret, m["raw"])
        tokens = [c["value"] for p in pages for c in p.context.cookies() if c["name"] == f"osaka_{code}"]
        assert len(tokens) == 3
        for m in push.received + hook.received:
            for secret in tokens:
                assert secret not in m["raw"]
            if not m["payload"]["title"].startswith(("Game over", "Spielende")):
                assert " VP" not in m["raw"] and " SP" not in m["raw"], m["raw"]  # no VP before the end
        ann.screenshot(path=str(shots / "across-days-result.png"))
    finally:
        hook.close()
        push.close()
        a.stop()
        b.stop()
