"""The sound switch in the room's top bar, in a real browser, English and German, on a phone
(360 and 390 px wide) and a desktop: a speaker picture (waves when on, crossed out when off),
its state as a visible word even on a phone, and a name that says both ("Sound: off"); a
click turns it on and every part follows."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP
from .helpers import create_room

STATE = """() => { const b = document.getElementById('sound-btn'), s = b.querySelector('.snd-state'),
  i = b.querySelector('.ico'), r = (e) => e.getBoundingClientRect();
  return {state: s ? s.innerText : null, stateW: s ? r(s).width : 0, stateH: s ? r(s).height : 0,
          icon: getComputedStyle(i).backgroundImage, iconW: r(i).width,
          seen: [...b.children].filter((e) => r(e).width > 2).map((e) => e.textContent).join('').trim(),
          pressed: b.getAttribute('aria-pressed'), inside: r(b).right <= innerWidth,
          // On a phone it stays in the top bar's first row, beside the ? button (no extra row).
          row: Math.abs(r(b).top - r(document.querySelector('.help')).top) < 8, height: r(b).height}; }"""


@pytest.mark.parametrize("locale, off, on, name_off, name_on", [
    ("en-US", "off", "on", "Sound: off", "Sound: on"),
    ("de-DE", "aus", "an", "Ton: aus", "Ton: an"),
], ids=["en", "de"])
def test_the_sound_switch_shows_its_state_with_a_clear_icon(e2e_server, new_page, shots, locale, off, on, name_off,
                                                            name_on):
    page = new_page(locale=locale, viewport={"width": 360, "height": 640})
    create_room(page, e2e_server.base_url, "Sam", public=False)
    for size in ({"width": 360, "height": 640}, {"width": 390, "height": 844}, DESKTOP):
        page.set_viewport_size(size)
        expect(page.get_by_role("button", name=name_off, exact=True)).to_be_visible()
        st = page.evaluate(STATE)
        # The state is a word one can read (not only a struck-through note), beside a speaker.
        assert st["state"] == off and st["stateW"] >= 8 and st["stateH"] >= 8, (size, st)
        assert "sound-off.svg" in st["icon"] and st["iconW"] >= 16 and st["inside"], (size, st)
        assert st["seen"] == (off if size["width"] < 600 else name_off), (size, st)
        assert size["width"] > 600 or (st["row"] and st["height"] <= 48), (size, st)
        page.locator(".topbar").screenshot(path=str(shots / f"sound-off-{locale[:2]}-{size['width']}.png"))
    page.click("#sound-btn")
    expect(page.get_by_role("button", name=name_on, exact=True)).to_be_visible()
    st = page.evaluate(STATE)
    assert st["state"] == on and "sound-on.svg" in st["icon"] and st["pressed"] == "true", st
    page.set_viewport_size({"width": 360, "height": 640})
    assert page.evaluate(STATE)["seen"] == on
    page.locator(".topbar").screenshot(path=str(shots / f"sound-on-{locale[:2]}-360.png"))
