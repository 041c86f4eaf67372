"""Look-alike names and names that imitate computer players are refused (issue 17, app/names.py,
docs/protocol.md §Names): against a real server, and the rules on their own."""
from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest

from app.names import COMPUTER_WORDS, LEVEL_WORDS, imitates_computer, looks_alike

from .helpers import auth, create_room

ROOT = Path(__file__).resolve().parents[2]
# Invisible fillers: letters/symbols/marks that draw as nothing (kept by the name check, then
# dropped from the look keys) and format characters (refused outright as `bad_name`).
FILLERS = [0x3164, 0x2800, 0x115F, 0x1160, 0xFFA0, 0x034F, 0x17B4, 0x17B5, 0x180B, 0xFE0F, 0xE0100]
FORMAT = [0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0x00AD, 0x202E]
ALICE_ALIKES = ["Alice", "alice", "ALICE", "\u0410lice", "Alic\u0435", "\u0391lice",
                "\uff21\uff4c\uff49\uff43\uff45", "AIice", " Alice ", "Ali\u0441e"] + \
               ["Alice" + chr(c) for c in FILLERS] + [chr(0x3164) + "Alice"]
COMPUTER_LIKE = ["Computer 2 (easy)", "Computer 2 (leicht)", "Bot (easy)", "Computer", "BOT",
                 "bot3 (schwer)", "Computer (normal)", "COMPUTER 4 (HARD)", "C\u043emputer",
                 "Ｃｏｍｐｕｔｅｒ", "Bot", "⚙ Alice", "Alice ⚙\ufe0f", "Computer(hard)"]


def _join(base: str, code: str, name: str) -> httpx.Response:
    return httpx.post(f"{base}/api/rooms/{code}/join", json={"name": name})


def _refused(r: httpx.Response, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    assert r.json()["error"]["code"] == code


def test_every_look_alike_of_a_seated_name_is_refused(server):
    room = create_room(server.base_url, "Alice", public=False)
    for name in ALICE_ALIKES:
        _refused(_join(server.base_url, room["code"], name), 409, "name_taken")
    for c in FORMAT:  # format characters never get as far as the comparison
        _refused(_join(server.base_url, room["code"], "Alice" + chr(c)), 422, "bad_name")
    # Different names still get seats, and then their look-alikes are refused too.
    for name in ("Alicia", "Bob"):
        assert _join(server.base_url, room["code"], name).status_code == 200
    _refused(_join(server.base_url, room["code"], "B\u03bfb"), 409, "name_taken")  # Greek omicron
    players = httpx.get(f"{server.base_url}/api/rooms/{room['code']}").json()["players"]
    assert [p["name"] for p in players] == ["Alice", "Alicia", "Bob"]


def test_a_full_room_says_full_before_the_name(server):
    room = create_room(server.base_url, "Alice", public=False)
    for name in ("B", "C", "D"):
        assert _join(server.base_url, room["code"], name).status_code == 200
    _refused(_join(server.base_url, room["code"], "alice"), 409, "room_full")


@pytest.mark.parametrize("name", COMPUTER_LIKE)
def test_names_that_imitate_computer_players_are_refused(server, name):
    _refused(httpx.post(server.base_url + "/api/rooms", json={"name": name}), 422, "name_reserved")
    room = create_room(server.base_url, "Host", public=False)
    _refused(_join(server.base_url, room["code"], name), 422, "name_reserved")


def test_a_person_may_sit_next_to_a_computer_player_with_an_ordinary_name(server):
    room = create_room(server.base_url, "Host", public=False)
    r = httpx.post(f"{server.base_url}/api/rooms/{room['code']}/bots", json={"level": "easy"},
                   headers=auth(room["token"]))
    assert r.status_code == 200
    for name in ("Computerfreak", "Robot Rita"):  # with the host and the bot: full
        assert _join(server.base_url, room["code"], name).status_code == 200, name


def test_look_alike_rules():
    assert all(looks_alike("Alice", n) for n in ALICE_ALIKES)
    for other in ("Alicia", "Alíce", "Ali ce", "Malice", "Bob", "Al1ce!"):
        assert not looks_alike("Alice", other), other
    assert looks_alike("\u0410lice", "\u0391lice")  # Cyrillic and Greek capitals alike
    assert looks_alike("Zoë", "ZOË") and looks_alike("Straße", "STRASSE")


def test_computer_imitation_rules():
    assert all(imitates_computer(n) for n in COMPUTER_LIKE)
    for name in ("Computer 07", "Bot (easy) 2", "2 Bot", "Computer 123 (hard)"):  # numbers anywhere
        assert imitates_computer(name), name
    for name in ("Computerfreak", "Abbot", "Botticelli", "Robot", "Alice (easy)", "Computer Alice",
                 "Herr Bot", "Komputer"):
        assert not imitates_computer(name), name


def test_the_reserved_words_cover_every_language_of_the_client():
    """Every catalogue's name of a computer player and its level words are reserved words."""
    # The client's language catalogues (en.js, de.js, …), not the texts loaded with one page
    # part such as games-en.js (the end screen's).
    catalogues = sorted(p for p in (ROOT / "static/js/i18n").glob("*.js") if re.fullmatch(r"[a-z]{2}", p.stem))
    assert {p.stem for p in catalogues} >= {"en", "de"}
    for path in catalogues:
        text = path.read_text(encoding="utf-8")
        entries = dict(re.findall(r'^\s*"([\w.]+)":\s*"((?:[^"\\]|\\.)*)"', text, re.M))
        for key in ("bot.name", "bot.name_n"):
            word = entries[key].split(" ")[0].split("(")[0].casefold()
            assert word in COMPUTER_WORDS, (path.name, key, word)
            # The displayed names themselves, at every seat and level.
            for level in ("easy", "normal", "hard"):
                shown = entries[key].replace("{level}", entries[f"level.{level}"]).replace("{n}", "3")
                assert imitates_computer(shown), (path.name, shown)
        for level in ("easy", "normal", "hard"):
            assert entries[f"level.{level}"].casefold() in LEVEL_WORDS, (path.name, level)
