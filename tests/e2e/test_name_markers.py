"""Players are never told apart by name alone (issue 17): in the lobby, the top bar, the log and
the players' list every name has its seat's colour and marker next to it; a look-alike name
or one that reads like a computer player's is refused with a reason in English and German."""
from __future__ import annotations

from playwright.sync_api import expect

from .helpers import choose_token, create_room, goto, join_room, wait_acting

PLAYER_COLORS = ["white", "pink", "grey", "tan"]


def _tags(page, where: str) -> list[tuple[str, str, str]]:
    """(colour class, marker, name) of every name tag inside `where`."""
    return [tuple(tag) for tag in page.eval_on_selector_all(f"{where} .nametag", """els => els.map(e => {
        const sw = e.querySelector('.swatch');
        return [(sw.className.match(/pc-(\\w+)/) || [])[1], sw.textContent, e.textContent.slice(sw.textContent.length)];
    })""")]


def test_names_carry_their_seats_colour_and_marker(e2e_server, new_page, shots):
    base = e2e_server.base_url
    alice = new_page()
    code = create_room(alice, base, "Alice")
    alicia = new_page()
    join_room(alicia, base, code, "Alicia")
    # Lobby: both players with their seat colours; the shared initial gives way to seat numbers.
    watcher = new_page()
    goto(watcher, base + "/")
    item = watcher.locator(".room-item", has_text=code)
    expect(item.locator(".nametag")).to_have_count(2)
    assert _tags(watcher, f".room-item:has-text('{code}')") == [("white", "1", "Alice"), ("pink", "2", "Alicia")]
    watcher.screenshot(path=str(shots / "lobby-name-markers.png"))

    # Waiting room: "You are …" with the swatch.
    expect(alicia.locator(".nametag", has_text="Alicia")).to_have_count(1)
    alice.click("#start-btn")
    for page in (alice, alicia):
        page.wait_for_selector("#players .player")
    # Top bar: whose decision it is, with that seat's swatch (the other page shows it).
    players = {alice: ("white", "1", "Alice"), alicia: ("pink", "2", "Alicia")}
    for _ in range(2):  # both choose a token (the start player is random: R-setup)
        drafter, _phase = wait_acting([alice, alicia])
        other = alicia if drafter is alice else alice
        colour, marker, name = players[drafter]
        expect(other.locator(f"#turn .nametag .swatch.pc-{colour}")).to_have_text(marker)
        assert _tags(other, "#turn") == [players[drafter]]
        other.screenshot(path=str(shots / f"topbar-name-marker-{name}.png"))
        choose_token(drafter, 0)
    # The log's names carry the swatch too.
    expect(alice.locator("#log .lname .swatch").first).to_be_visible()
    log_tags = _tags(alice, "#log")
    assert log_tags and all(tag in [("white", "1", "Alice"), ("pink", "2", "Alicia")] for tag in log_tags)
    alice.screenshot(path=str(shots / "table-name-markers.png"))


def test_look_alike_and_computer_like_names_are_refused_with_a_reason(e2e_server, new_page):
    base = e2e_server.base_url
    host = new_page()
    code = create_room(host, base, "Alice")
    cases = [("en-US", "\u0410lice", "already has this name, or one that looks the same"),
             ("en-US", "Computer 2 (easy)", "looks like a computer player's"),
             ("de-DE", "ALICE", "heißt schon so oder fast genauso"),
             ("de-DE", "Computer 2 (leicht)", "sieht aus wie der eines Computerspielers")]
    for locale, name, text in cases:
        visitor = new_page(locale=locale)
        goto(visitor, f"{base}/r/{code}")
        visitor.fill("#join-name", name)
        visitor.click("#join-btn")
        expect(visitor.locator(".join .form-error")).to_contain_text(text)
    assert host.locator(".seat:not(.empty)").count() == 1


def test_a_marker_is_the_names_first_letter_or_digit_else_the_seat_number(e2e_server, new_page, shots):
    """A name starting with a sign ("<Zoe>") is marked by its first letter; one without letters
    or digits ("<*>") by its seat number, in the waiting room and at the table."""
    base = e2e_server.base_url
    host = new_page()
    code = create_room(host, base, "<Zoe>")
    join_room(new_page(), base, code, "<*>")
    host.wait_for_function("document.querySelectorAll('.seat:not(.empty)').length === 2")
    swatch = '.seat[data-seat="{}"] .swatch'
    expect(host.locator(swatch.format(0))).to_have_text("Z")
    expect(host.locator(swatch.format(1))).to_have_text("2")
    host.click("#start-btn")
    host.wait_for_selector("#players .player")
    swatch = '#players .player[data-seat="{}"] .swatch'
    expect(host.locator(swatch.format(0))).to_have_text("Z")
    expect(host.locator(swatch.format(1))).to_have_text("2")
    host.locator("#players").screenshot(path=str(shots / "markers-of-sign-names.png"))
