"""Card facts for the bots, from the engine's public card catalogue (docs/engine.md "Cards";
R-comp-1, R-comp-2, R-comp-3). Nothing here computes a card's colour or value on its own."""

from __future__ import annotations

from engine import CARD_COLORS, CARD_ICONS, CARD_VALUES, COLORS, EDO, NUM_CARDS, WAVES

__all__ = ["ALL_CARDS", "COLOR_INDEX", "COLORS", "EDO", "ICONS", "VALUE", "WAVES", "color_index",
           "color_of", "icons_of", "sale_vp", "value_of"]

COLOR_INDEX: dict[str, int] = {c: i for i, c in enumerate(COLORS)}
ALL_CARDS: frozenset[int] = frozenset(range(NUM_CARDS))
#: VALUE[id] -> 2, 3 or 5; ICONS[id] -> 2, 1 or 0 (lookup tables for hot loops)
VALUE: tuple[int, ...] = CARD_VALUES
ICONS: tuple[int, ...] = CARD_ICONS


def color_index(card: int) -> int:
    """Colour index 0..3 of a card id."""
    return CARD_COLORS[card]


def color_of(card: int) -> str:
    """Colour name of a card id (``"red"``, ``"blue"``, ``"yellow"``, ``"green"``)."""
    return COLORS[CARD_COLORS[card]]


def value_of(card: int) -> int:
    """Coin/goods value of a card id: 2, 3 or 5 (R-comp-1)."""
    return CARD_VALUES[card]


def icons_of(card: int) -> int:
    """Insurance icons of a card id: 2 on a value-2 card, 1 on a value-3, 0 on a value-5 (R-comp-2)."""
    return CARD_ICONS[card]


def sale_vp(max_value: int, count: int, tokens: int) -> int:
    """VPs of selling ``count`` goods of one colour (R-pay-1).

    Price = highest value + Achievement tokens of that colour; value = price x count, rounded up
    to the next multiple of 5; VPs = value / 5. ``sale_vp(5, 3, 0) == 3``, ``sale_vp(2, 1, 0) == 1``.
    """
    if count <= 0:
        return 0
    return -(-((max_value + tokens) * count) // 5)
