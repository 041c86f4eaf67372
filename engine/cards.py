"""The card catalogue: 108 cards, 27 per colour (R-comp-1, R-comp-2), and the route (R-comp-3).

Card ids are 0..107. ``id // 27`` is the colour index (0 red, 1 blue, 2 yellow, 3 green);
``id % 27`` is 0..10 for value 2, 11..19 for value 3, 20..26 for value 5.
Everything here is plain data, computed once at import.
"""

COLORS: tuple[str, ...] = ("red", "blue", "yellow", "green")
COLOR_INDEX: dict[str, int] = {name: i for i, name in enumerate(COLORS)}
NUM_CARDS = 108
ALL_CARDS: tuple[int, ...] = tuple(range(NUM_CARDS))

# Route locations (R-comp-3).
OSAKA, OSHIMA, ANORI, ENSHUNADA_I, ENSHUNADA_II, EDO = range(6)
LOCATIONS: tuple[str, ...] = ("Osaka", "Oshima", "Anori", "Enshunada I", "Enshunada II", "Edo")
WAVES: frozenset[int] = frozenset((ENSHUNADA_I, ENSHUNADA_II))

#: Tokens held (all colours together) that end the game at R-pay-4.
TOKENS_TO_END = 8
#: Sum of values a starting hand must reach (R-setup-3).
STARTING_HAND_MIN = 8
MARKET_DEAL, FARM_DEAL = 5, 3          # R-setup-2
MARKET_REFRESH, FARM_REFRESH = 2, 3    # R-refresh-2


def _value(card: int) -> int:
    rank = card % 27
    return 2 if rank <= 10 else 3 if rank <= 19 else 5


#: COLOR[id] -> colour index 0..3
COLOR: tuple[int, ...] = tuple(c // 27 for c in ALL_CARDS)
#: VALUE[id] -> 2, 3 or 5 coins (R-comp-1)
VALUE: tuple[int, ...] = tuple(_value(c) for c in ALL_CARDS)
#: ICONS[id] -> insurance icons: 2 on a 2, 1 on a 3, 0 on a 5 (R-comp-2)
ICONS: tuple[int, ...] = tuple({2: 2, 3: 1, 5: 0}[v] for v in VALUE)
#: KIND[id] -> 0..11, cards of one kind (same colour and value) are interchangeable
VALUE_INDEX: dict[int, int] = {2: 0, 3: 1, 5: 2}
KIND: tuple[int, ...] = tuple(VALUE_INDEX[VALUE[c]] * 4 + COLOR[c] for c in ALL_CARDS)


#: Public names of the per-card tables (docs/engine.md "Cards"): colour index, value, icons.
CARD_COLORS, CARD_VALUES, CARD_ICONS = COLOR, VALUE, ICONS


def catalogue() -> dict:
    """The card catalogue and the route as JSON-ready data (R-comp-1..3): ``colors`` (names by
    colour index), ``cards`` (for each id 0..107 in order ``{"color", "value", "icons"}``),
    ``route`` (location names by index 0..5), ``waves`` (the Enshunada indexes) and ``edo``.
    The client's copy (static/js/catalogue.js) is generated from it and checked by a test."""
    return {
        "colors": list(COLORS),
        "cards": [{"color": COLORS[COLOR[c]], "value": VALUE[c], "icons": ICONS[c]}
                  for c in ALL_CARDS],
        "route": list(LOCATIONS),
        "waves": sorted(WAVES),
        "edo": EDO,
    }


def describe(card: int) -> str:
    """A short human label such as ``"red 5"`` for a card id (for messages and logs)."""
    return f"{COLORS[COLOR[card]]} {VALUE[card]}"
