"""Card arithmetic from the engine's public card-id contract (R-comp-1, R-comp-2).

Card ids are 0..107; ``id // 27`` is the colour index (0 red, 1 blue, 2 yellow, 3 green) and
``id % 27`` is 0..10 for value 2, 11..19 for value 3, 20..26 for value 5. The bots only need
this arithmetic, which is part of the published contract (docs/engine.md), not engine internals.
"""

from __future__ import annotations

COLORS: tuple[str, ...] = ("red", "blue", "yellow", "green")
COLOR_INDEX: dict[str, int] = {c: i for i, c in enumerate(COLORS)}
ALL_CARDS: frozenset[int] = frozenset(range(108))
EDO = 5  # location index of Edo (R-comp-3)
WAVES = (3, 4)  # Enshunada I and II: ships there sink at a payment (R-pay-5)


def _value(card: int) -> int:
    r = card % 27
    return 2 if r <= 10 else (3 if r <= 19 else 5)


#: VALUE[id] -> 2, 3 or 5; ICONS[id] -> 2, 1 or 0 (lookup tables for hot loops)
VALUE: tuple[int, ...] = tuple(_value(c) for c in range(108))
ICONS: tuple[int, ...] = tuple({2: 2, 3: 1, 5: 0}[v] for v in VALUE)


def color_index(card: int) -> int:
    """Colour index 0..3 of a card id."""
    return card // 27


def color_of(card: int) -> str:
    """Colour name of a card id (``"red"``, ``"blue"``, ``"yellow"``, ``"green"``)."""
    return COLORS[card // 27]


def value_of(card: int) -> int:
    """Coin/goods value of a card id: 2, 3 or 5 (R-comp-1)."""
    return VALUE[card]


def icons_of(card: int) -> int:
    """Insurance icons of a card id: 2 on a value-2 card, 1 on a value-3, 0 on a value-5 (R-comp-2)."""
    return ICONS[card]


def sale_vp(max_value: int, count: int, tokens: int) -> int:
    """VPs of selling ``count`` goods of one colour (R-pay-1).

    Price = highest value + Achievement tokens of that colour; value = price x count, rounded up
    to the next multiple of 5; VPs = value / 5. ``sale_vp(5, 3, 0) == 3``, ``sale_vp(2, 1, 0) == 1``.
    """
    if count <= 0:
        return 0
    return -(-((max_value + tokens) * count) // 5)
