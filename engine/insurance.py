"""Insurance choices at the Black Tide (R-pay-6 and its Rulings R-pay-6a): the one definition
of a legal insurance decision, used both to list and to accept them.

Per sinking colour a choice has a *shape* ``(a, b, k)``: ``a`` value-2 cards (2 icons each)
and ``b`` value-3 cards (1 icon each) of that colour discarded to insure ``k`` of its uninsured
goods. Legality depends only on the shapes, so ``_colour_shapes`` lists them once.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import product

from .cards import COLOR, ICONS, VALUE
from .coins import picker, splits
from .state import GameState


def discard_shapes(twos: int, threes: int, k: int) -> list[tuple[int, int]]:
    """The minimal discards ``(a, b)`` from ``twos`` value-2 and ``threes`` value-3 cards of
    one colour whose icons cover ``k`` goods (R-pay-6a): 2a + b >= k and no card can be left
    out. ``k = 0`` gives only ``(0, 0)``: insuring nothing discards nothing."""
    out = []
    for a in range(min(twos, (k + 1) // 2) + 1):
        b = max(0, k - 2 * a)
        if b > threes:
            continue
        if a and 2 * (a - 1) + b >= k:
            continue
        if b and 2 * a + b - 1 >= k:
            continue
        out.append((a, b))
    return out


@lru_cache(maxsize=None)
def _colour_shapes(twos: int, threes: int, at_risk: int) -> tuple[tuple[int, int, int], ...]:
    """Every legal shape ``(a, b, k)`` of one colour (R-pay-6a): ``a`` value-2 and ``b``
    value-3 cards discarded (``discard_shapes``) to insure ``k`` goods, from ``twos`` value-2
    and ``threes`` value-3 icon cards and ``at_risk`` uninsured goods of that colour, insuring
    nothing first (cached: a few small counts)."""
    icons = 2 * twos + threes
    return tuple((a, b, k) for k in range(min(at_risk, icons) + 1)
                 for a, b in discard_shapes(twos, threes, k))


@lru_cache(maxsize=None)
def _by_goods(shapes: tuple[tuple[int, int, int], ...]) -> tuple[tuple[int, tuple], ...]:
    """``shapes`` grouped by goods insured ``k``: ``((k, ((a, b), ...)), ...)``, the groups
    and each group's discards in the order of ``shapes`` (cached: few distinct shapes)."""
    by_k: dict[int, list[tuple[int, int]]] = {}
    for a, b, k in shapes:
        by_k.setdefault(k, []).append((a, b))
    return tuple((k, tuple(discards)) for k, discards in by_k.items())


def colour_options(hand: tuple[int, ...], own: tuple[tuple[int, bool], ...],
                   col: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every distinct (discard, goods) of one sinking colour ``col`` for a seat with ``hand``
    (card ids) and merchandise ``own`` (``(card, insured)`` pairs), in the order of
    ``_option_positions``: the value-2 then value-3 cards of that colour discarded are the
    first in hand order, the goods insured of each value the first in merchandise order
    (goods of one value are interchangeable). ``[((), ())]`` alone when no good of that
    colour is at risk or the hand holds no icon card of it (the only shape is ``(0, 0, 0)``).

    The choices depend only on the counts of those cards, so they are worked out once per
    counts as positions (``_OPTIONS``), and a call only picks its cards."""
    color = COLOR
    value = VALUE
    g2: list[int] = []                           # uninsured goods of ``col`` by value,
    g3: list[int] = []                           # in merchandise order
    g5: list[int] = []
    for c, insured in own:
        if not insured and color[c] == col:
            v = value[c]
            if v == 2:
                g2.append(c)
            elif v == 3:
                g3.append(c)
            else:
                g5.append(c)
    if not g2 and not g3 and not g5:
        return [((), ())]
    twos: list[int] = []
    threes: list[int] = []
    for c in hand:
        if color[c] == col:
            v = value[c]
            if v == 2:
                twos.append(c)
            elif v == 3:
                threes.append(c)
    if not twos and not threes:                  # nothing to insure with
        return [((), ())]
    key = (len(twos), len(threes), len(g2), len(g3), len(g5))
    pickers = _OPTIONS.get(key)
    if pickers is None:
        pickers = _OPTIONS[key] = tuple((picker(d), picker(g))
                                        for d, g in _option_positions(*key))
    discards = tuple(twos + threes)
    goods = tuple(g2 + g3 + g5)
    out = []
    for pick_discard, pick_goods in pickers:
        out.append((pick_discard(discards), pick_goods(goods)))
    return out


#: (twos, threes, goods of value 2, 3, 5) -> a picker pair per ``_option_positions``
_OPTIONS: dict[tuple[int, ...], tuple] = {}


def _option_positions(twos: int, threes: int, g2: int, g3: int,
                      g5: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """``colour_options`` as positions, for ``twos`` value-2 and ``threes`` value-3 icon cards
    (positions into them, twos first) and ``g2``, ``g3``, ``g5`` uninsured goods of values 2,
    3, 5 (positions into them in that order): per goods count ``k`` of the legal shapes
    (``_by_goods`` of ``_colour_shapes``, R-pay-6a), every split of ``k`` over the values
    (``splits``, fewest 2s first), and per split every discard ``(a, b)`` of that ``k``: the
    first ``a`` twos and ``b`` threes. Insuring nothing comes first."""
    out = []
    for k, discards in _by_goods(_colour_shapes(twos, threes, g2 + g3 + g5)):
        for n2, n3, n5 in splits((g2, g3, g5), k):
            goods = (tuple(range(n2)) + tuple(range(g2, g2 + n3))
                     + tuple(range(g2 + g3, g2 + g3 + n5)))
            for a, b in discards:
                out.append((tuple(range(a)) + tuple(range(twos, twos + b)), goods))
    return out


def insurance_options(s: GameState, seat: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every distinct insurance choice (discard, goods) of ``seat`` (R-pay-6, R-pay-6a): per
    sinking colour any number of its uninsured goods (distinct up to value) with a minimal
    discard of that colour's icon cards covering them; insuring nothing included (first).
    The choices of each colour (``colour_options``) combined, colours in colour order; a
    colour with no choice but insuring nothing adds nothing to the combinations."""
    hand, own = s.hands[seat], s.goods[seat]
    per_colour = []
    for col in s.sinking:
        options = colour_options(hand, own, col)
        if len(options) > 1:
            per_colour.append(options)
    if len(per_colour) <= 1:                     # one colour to choose in: its choices
        return per_colour[0] if per_colour else [((), ())]
    out = []
    for combo in product(*per_colour):
        discard: tuple[int, ...] = ()
        goods: tuple[int, ...] = ()
        for d, g in combo:
            discard += d
            goods += g
        out.append((discard, goods))
    return out


def may_insure(s: GameState, seat: int) -> bool:
    """Whether ``seat`` has an insurance choice besides insuring nothing, so must be asked
    (R-pay-6 Ruling: only a player with an uninsured good and an icon card of one sinking
    colour is asked): a sinking colour with a good at risk and a discard shape for one good
    (``discard_shapes`` for one good is not empty exactly when the hand holds a card of that
    colour with an icon, a 2 or a 3)."""
    sinking = s.sinking
    color = COLOR
    at_risk = 0                                  # bit ``col``: a sinking colour's good at risk
    for c, insured in s.goods[seat]:
        if not insured:
            col = color[c]
            if col in sinking:
                at_risk |= 1 << col
    if not at_risk:
        return False
    icons = ICONS
    for c in s.hands[seat]:
        if icons[c] and at_risk >> color[c] & 1:
            return True
    return False


def insurance_listed(s: GameState, seat: int, discard: tuple[int, ...],
                     goods: tuple[int, ...]) -> bool:
    """Whether (discard, goods) equals a listed insurance choice up to interchangeable cards.

    Canonical form, per colour: (value-2 discards, value-3 discards, value-5 discards,
    uninsured goods named, insured goods named), over distinct cards of the seat's hand and
    merchandise. A listed choice has, per sinking colour, ``(a, b, 0, k, 0)`` for one of its
    shapes (``_colour_shapes``: ``(a, b)`` among ``discard_shapes`` of the colour's hand
    cards for ``k``), and zeros for every other colour.
    """
    hand = s.hands[seat]
    own = dict(s.goods[seat])
    if len(set(discard)) != len(discard) or len(set(goods)) != len(goods):
        return False
    if any(c not in hand for c in discard) or any(c not in own for c in goods):
        return False
    canon = [[0, 0, 0, 0, 0] for _ in range(4)]
    for c in discard:
        canon[COLOR[c]][_SLOT[VALUE[c]]] += 1
    for c in goods:
        canon[COLOR[c]][4 if own[c] else 3] += 1
    for col in range(4):
        a, b, fives, k, insured = canon[col]
        if col not in s.sinking:
            if a or b or fives or k or insured:
                return False
        elif fives or insured or (a, b) not in _hand_discards(hand, col, k):
            return False
    return True


_SLOT = {2: 0, 3: 1, 5: 2}


def _hand_discards(hand: tuple[int, ...], col: int, k: int) -> list[tuple[int, int]]:
    """``discard_shapes`` for ``k`` goods of colour ``col`` from the icon cards in ``hand``."""
    twos = threes = 0
    for c in hand:
        if COLOR[c] == col:
            v = VALUE[c]
            if v == 2:
                twos += 1
            elif v == 3:
                threes += 1
    return discard_shapes(twos, threes, k)
