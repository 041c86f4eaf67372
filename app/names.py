"""Names at one table must look different, and no person may pass for a computer player.

A name's **look keys** (docs/protocol.md §Names): Unicode NFKC, invisible fillers removed
(Hangul fillers, braille blank, combining grapheme joiner, variation selectors, …; the
Cf characters such as U+200B never get this far: app/schemas.py refuses them), whitespace runs
as one space, then the confusable **skeleton** of Unicode TR39 (ICU's SpoofChecker,
https://www.unicode.org/reports/tr39/#Confusable_Detection) taken two ways: of the case-folded
name (so "ALICE" meets "alice") and case-folded after the skeleton (so "AIice", capital I,
meets "Alice"). Two names clash when either key is the same: "Alice" vs "alice", "ALICE",
Cyrillic "Аlice"/"Alicе", Greek "Αlice", fullwidth "Ａｌｉｃｅ", "Alice" + U+3164.

Computer players are shown as "Computer (easy)", "Computer 2 (leicht)" … in the client's
languages (static/js/i18n/*.js `bot.name`, `level.*`) and stored as "Bot (easy)" (app/rooms.py).
A person's name is refused (`name_reserved`) when, with everything but letters and digits
dropped, its look key is one of COMPUTER_WORDS, optionally followed by a number (0–99) and/or a
level word of LEVEL_WORDS ("Computer", "Bot", "Computer 2 (easy)", "bot3 (schwer)"), or when it
contains the computer player's marker ⚙ (U+2699). "Computerfreak" and "Abbot" stay allowed.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

import icu  # PyICU (wheel: pyicu-wheels): ICU's TR39 implementation

from .refusals import Refusal

# Characters that draw as nothing although they are letters/symbols/marks (Hangul fillers,
# braille blank, combining grapheme joiner, Khmer inherent vowels, Mongolian free variation
# selectors, variation selectors): dropped from look keys; a name made only of these and
# whitespace is blank (app/schemas.py).
INVISIBLE = frozenset({0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800, 0x034F, 0x17B4, 0x17B5,
                       *range(0x180B, 0x1810), *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)})
# What the client calls a computer player, in every language it shows (en.js, de.js: `bot.name`),
# and the server's stored name ("Bot (easy)"); the level words of `level.*` in those catalogues.
COMPUTER_WORDS = ("computer", "bot")
LEVEL_WORDS = ("easy", "normal", "hard", "leicht", "schwer")
COMPUTER_MARKER = "\u2699"  # ⚙, the marker of a computer player's swatch (static/js/common.js)

_SPACES = re.compile(r"\s+")
_DROP_INVISIBLE = {cp: None for cp in INVISIBLE}
_SPOOF = icu.SpoofChecker()


def _skeleton(text: str) -> str:
    """The TR39 confusable skeleton (ICU), e.g. "Аlice" (Cyrillic А) → "Alice", "m" → "rn"."""
    return _SPOOF.getSkeleton(0, text)


def _visible(name: str) -> str:
    """NFKC, invisible fillers dropped, whitespace runs as one space, trimmed."""
    text = unicodedata.normalize("NFKC", name).translate(_DROP_INVISIBLE)
    return _SPACES.sub(" ", text).strip()


@lru_cache(maxsize=4096)
def look_keys(name: str) -> tuple[str, str]:
    """(skeleton of the case-folded name, case-folded skeleton) after `_visible`: two names that
    share either look alike (module docstring)."""
    text = _visible(name)
    folded = unicodedata.normalize("NFKC", text.casefold())
    return (_skeleton(folded), unicodedata.normalize("NFKC", _skeleton(text).casefold()))


def looks_alike(a: str, b: str) -> bool:
    """True when names `a` and `b` cannot be told apart (same first or same second look key)."""
    ka, kb = look_keys(a), look_keys(b)
    return ka[0] == kb[0] or ka[1] == kb[1]


def _alnum(text: str) -> str:
    return "".join(ch for ch in text if ch.isalnum())


_DIGITS = re.compile(r"\d")


@lru_cache(maxsize=1)
def _computer_keys() -> frozenset[str]:
    """The look keys (letters only) of every name a computer player can be shown with, its
    number left out ("Computer 2 (easy)" → "computereasy")."""
    out: set[str] = set()
    for word in COMPUTER_WORDS:
        for level in ["", *LEVEL_WORDS]:
            out.update(_alnum(k) for k in look_keys(f"{word} ({level})"))
    return frozenset(out)


def imitates_computer(name: str) -> bool:
    """True for a name that reads like a computer player's in any of the client's languages
    ("Computer 2 (easy)", "Bot (leicht)", "Computer", "BOT"), with any number anywhere in it
    ("Computer 07", "Bot (easy) 2": found by a break test), or carries the marker ⚙."""
    if COMPUTER_MARKER in _skeleton(_visible(name)):
        return True
    return any(_alnum(k) in _computer_keys() for k in look_keys(_DIGITS.sub("", unicodedata.normalize("NFKC", name))))


def check_name(name: str, others: Iterable[str] = ()) -> None:
    """Refuse a person's name for a seat: 422 `name_reserved` if it imitates a computer player,
    409 `name_taken` if it looks like the name of a seat already taken (`others`)."""
    if imitates_computer(name):
        raise Refusal("name_reserved")
    for other in others:
        if looks_alike(name, other):
            raise Refusal("name_taken")
