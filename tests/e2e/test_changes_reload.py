"""What changed since your last turn, across a reload (static/js/changes.js), in a real
browser: a reloaded page marks exactly what the same page marked before (the changes since
that player's own last turn, tests/e2e/test_visual.py's oracle), and what this tab had shown
already is not made to look new again: those rings, badges and wakes stay, but they do not
pulse or rock a second time; a change that came after the reload does. The game is played by
tests/e2e/driver.py; a browser page sits in seat 0."""
from __future__ import annotations

from .driver import Table
from .helpers import goto
from .test_visual import _expected_changes

MARKS = """() => ({fresh: [...document.querySelectorAll('.card.fresh')].map(e => +e.dataset.card).sort((a, b) => a - b),
  moved: [...document.querySelectorAll('.ship.moved')].map(e => e.dataset.color).sort(),
  gained: document.querySelectorAll('.tok.gained').length, lost: document.querySelectorAll('.lost-note').length,
  pulsing: [...document.querySelectorAll('.card.fresh')].filter(e => getComputedStyle(e).animationName !== 'none')
    .map(e => +e.dataset.card).sort((a, b) => a - b),
  rocking: [...document.querySelectorAll('.ship.moved .ship-body')]
    .filter(e => getComputedStyle(e).animationName !== 'none').length})"""


def _sync(page, table: Table) -> None:
    page.wait_for_function("v => +(document.body.dataset.version || -1) >= v", arg=table.seats[0].version)


def _worth_a_look(table: Table):
    def done(events, view) -> bool:
        if view["phase"] != "turn" or view["to_act"] != 0:
            return False
        ch = _expected_changes(table.seats[0].events, view, 0)
        return bool(ch["fresh"] and ch["moved"])
    return done


def test_a_reload_marks_the_same_and_does_not_replay_what_was_shown(e2e_server, new_page):
    table = Table(e2e_server.base_url, ["Ann", "Ben", "Cleo"])
    table.start()
    table.play_until(_worth_a_look(table))
    page = new_page()
    page.context.add_cookies([table.cookie(0)])
    goto(page, f"{table.base}/r/{table.code}")
    page.wait_for_selector("#players .player")
    _sync(page, table)
    before = page.evaluate(MARKS)
    ch = _expected_changes(table.seats[0].events, table.view, 0)
    assert set(before["fresh"]) >= ch["fresh"] and before["fresh"], before   # (+ goods bought since)
    assert set(before["moved"]) == set(ch["moved"]) and before["rocking"] == len(ch["moved"]), before
    assert before["pulsing"] == before["fresh"]   # the first time this tab shows them

    page.reload()
    page.wait_for_selector("#players .player")
    _sync(page, table)
    after = page.evaluate(MARKS)
    assert {k: after[k] for k in ("fresh", "moved", "gained", "lost")} == \
        {k: before[k] for k in ("fresh", "moved", "gained", "lost")}, (before, after)
    assert after["pulsing"] == [] and after["rocking"] == 0, after

    # Ann's turn, then the others': what they change is new to this tab and moves as it comes.
    table.step()
    table.play_until(_worth_a_look(table))
    _sync(page, table)
    now = page.evaluate(MARKS)
    assert now["pulsing"] == now["fresh"] and now["fresh"], now
    # A new tab (another window, nothing shown there yet) shows them moving too.
    other = new_page()
    other.context.add_cookies([table.cookie(0)])
    goto(other, f"{table.base}/r/{table.code}")
    other.wait_for_selector("#players .player")
    _sync(other, table)
    fresh_tab = other.evaluate(MARKS)
    assert fresh_tab["fresh"] == now["fresh"] and fresh_tab["pulsing"] == fresh_tab["fresh"], fresh_tab
    table.close()
