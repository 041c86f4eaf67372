"""All randomness of a game, per rules version (R-setup-1, R-setup-4a, R-refresh-3a).

A game's random choices are a pure function of its seed, a label and the game's rules version
(docs/versioning.md):

- version 1 (games created before rules version 2): CPython's ``random.Random`` seeded with the
  text ``"osaka:{seed}:{label}"`` (``shuffle`` and ``choice``). Kept only so those games replay
  and continue exactly as they did; its results depend on the interpreter.
- version 2 and later: the *keyed stream* below, defined by SHA-256 alone, so every Python (or
  any other language) gives the same orders. docs/engine.md ("Randomness") specifies it well
  enough to reimplement.

The labels: ``"0"`` for the setup shuffle, ``"1"``, ``"2"``, … for the reshuffles of the
discard pile (the state's ``shuffles`` count before the reshuffle), ``"start"`` for the
start-player tie break.
"""
from __future__ import annotations

import random
from hashlib import sha256
from struct import unpack

_TWO64 = 1 << 64


class KeyedStream:
    """The keyed stream of 64-bit numbers of (``seed``, ``label``) (rules version 2).

    Block ``k`` (k = 0, 1, 2, …) is SHA-256 of the ASCII text ``"osaka-v2:{seed}:{label}:{k}"``
    (``seed`` and ``k`` in decimal, ``seed`` with a leading ``-`` when negative). The stream is
    the blocks' bytes one after another, read 8 bytes at a time as big-endian unsigned integers.
    """

    __slots__ = ("_prefix", "_block", "_buf", "_pos")

    def __init__(self, seed: int, label: str) -> None:
        self._prefix = f"osaka-v2:{seed}:{label}:".encode("ascii")
        self._block = 0
        self._buf: list[int] = []
        self._pos = 0

    def next_u64(self) -> int:
        """The next number of the stream, 0 <= x < 2**64."""
        if self._pos == len(self._buf):
            digest = sha256(self._prefix + str(self._block).encode("ascii")).digest()
            self._block += 1
            self._buf = [int.from_bytes(digest[i:i + 8], "big") for i in range(0, 32, 8)]
            self._pos = 0
        x = self._buf[self._pos]
        self._pos += 1
        return x

    def below(self, m: int) -> int:
        """A uniform integer 0 <= r < ``m`` (m >= 1) by rejection sampling: take numbers x
        from the stream until x < 2**64 - (2**64 mod m), then r = x mod m."""
        limit = _TWO64 - _TWO64 % m
        x = self.next_u64()
        while x >= limit:
            x = self.next_u64()
        return x % m


def keyed_shuffle(seed: int, label: str, cards) -> list[int]:
    """``cards`` in a uniformly random order drawn from the keyed stream of (``seed``,
    ``label``): Fisher-Yates from the end, for i = n-1 down to 1 swap positions i and
    ``below(i + 1)``.

    Same result as driving ``KeyedStream.below`` step by step; this reads the numbers a
    shuffle needs in one go (the blocks' texts precomputed) and falls back to the stream only
    after a rejection (chance below 2**-57 per step for up to 108 cards) or for more than 128
    cards.
    """
    order = list(cards)
    n = len(order)
    if n < 2:
        return order
    prefix = f"osaka-v2:{seed}:{label}:".encode("ascii")
    blocks = (n + 2) // 4                    # n - 1 numbers, 4 per block
    if blocks > len(_BLOCKS):
        return _keyed_shuffle_slow(seed, label, cards)
    data = b"".join([sha256(prefix + b).digest() for b in _BLOCKS[:blocks]])
    numbers = unpack(f">{4 * blocks}Q", data)
    if n >= len(_LIMITS) or _HIGH in data:
        # A number may be rejected: check them one by one. (Every limit for m <= 128 is at
        # least 2**64 - 127, so a number at or above one begins with 7 bytes 0xff; when no 7
        # such bytes follow one another in the data, none is.)
        limits = _LIMITS
        for m, x in zip(range(n, 1, -1), numbers):
            if m >= len(limits) or x >= limits[m]:
                return _keyed_shuffle_slow(seed, label, cards)
    for i, m, x in zip(range(n - 1, 0, -1), range(n, 1, -1), numbers):  # i = n-1 down to 1
        j = x % m
        order[i], order[j] = order[j], order[i]
    return order


def _keyed_shuffle_slow(seed: int, label: str, cards) -> list[int]:
    """``keyed_shuffle`` step by step through ``KeyedStream`` (used after a rejection)."""
    order = list(cards)
    stream = KeyedStream(seed, label)
    for i in range(len(order) - 1, 0, -1):
        j = stream.below(i + 1)
        order[i], order[j] = order[j], order[i]
    return order


_LIMITS: tuple[int, ...] = (0,) + tuple(_TWO64 - _TWO64 % m for m in range(1, 129))
_HIGH = b"\xff" * 7
assert min(_LIMITS[1:]) >> 8 == int.from_bytes(_HIGH, "big")
#: the block numbers' ASCII text, 0 to 31 (the blocks of up to 128 cards)
_BLOCKS: tuple[bytes, ...] = tuple(str(b).encode("ascii") for b in range(32))


def keyed_choice(seed: int, label: str, items):
    """One of ``items`` (a non-empty sequence): ``items[below(len(items))]``."""
    return items[KeyedStream(seed, label).below(len(items))]


def shuffled(rules_version: int, seed: int, label: int | str, cards) -> list[int]:
    """The cards in the order of the shuffle ``label`` of game ``seed`` under
    ``rules_version`` (R-setup-1, R-refresh-3a)."""
    if rules_version == 1:
        order = list(cards)
        random.Random(f"osaka:{seed}:{label}").shuffle(order)
        return order
    return keyed_shuffle(seed, str(label), cards)


def choice(rules_version: int, seed: int, label: str, items):
    """One of ``items`` chosen by the game's random source (R-setup-4a)."""
    if rules_version == 1:
        return random.Random(f"osaka:{seed}:{label}").choice(items)
    return keyed_choice(seed, label, items)
