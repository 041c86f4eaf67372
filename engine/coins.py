"""Paying with coins (R-buy-2, R-buy-3): the one definition of a minimal payment, the listing
of every distinct minimal payment, the cheapest one and the one the table suggests.

A payment's *shape* is ``(n2, n3, n5)``: how many cards of value 2, 3 and 5 it uses. Whether a
payment is legal depends only on its shape (R-buy-3: it covers the cost and no card can be
left out), so the legal shapes of a hand are listed once (``payment_shapes``) and both the
listing of actions and the acceptance of a submitted payment use that list.
"""
from __future__ import annotations

from functools import lru_cache
from operator import itemgetter

from .cards import COLOR, KIND, VALUE


@lru_cache(maxsize=4096)
def payment_shapes(have: tuple[int, int, int], cost: int) -> tuple[tuple[int, int, int], ...]:
    """Every minimal shape ``(n2, n3, n5)`` payable from ``have`` (cards of value 2, 3, 5 in
    hand) for ``cost`` (R-buy-2, R-buy-3), fives then threes ascending.

    A payment is minimal when its total covers the cost and the total without its lowest card
    would not; so for each count of 5s and 3s at most one count of 2s works. (Cached, hence
    a tuple.)
    """
    out = []
    # A minimal payment totals less than cost + 5 (total - lowest < cost), which bounds the
    # counts of 5s and 3s worth trying.
    for n5 in range(min(have[2], (cost + 4) // 5) + 1):
        for n3 in range(min(have[1], (cost + 4) // 3) + 1):
            s35 = 5 * n5 + 3 * n3
            n2 = -(-(cost - s35) // 2) if s35 < cost else 0
            if n2 > have[0]:
                continue
            if is_minimal(s35 + 2 * n2, 2 if n2 else 3 if n3 else 5, cost):
                out.append((n2, n3, n5))
    return tuple(out)


def is_minimal(total: int, lowest: int, cost: int) -> bool:
    """Whether a payment of ``total`` coins whose lowest card is worth ``lowest`` is legal for
    ``cost``: it covers the cost (R-buy-2) and no card can be left out while still covering
    it (R-buy-3), i.e. not even its lowest card."""
    return total >= cost > total - lowest


def shape_of(cards) -> tuple[int, int, int]:
    """The shape ``(n2, n3, n5)`` of some cards."""
    n = [0, 0, 0, 0, 0, 0]
    for c in cards:
        n[VALUE[c]] += 1
    return (n[2], n[3], n[5])


@lru_cache(maxsize=None)
def splits(caps: tuple[int, ...], n: int) -> tuple[tuple[int, ...], ...]:
    """Every way to pick ``n`` cards from piles of sizes ``caps`` (counts per pile)."""
    if not caps:
        return ((),) if n == 0 else ()
    out = []
    head, rest = caps[0], caps[1:]
    rest_total = sum(rest)
    for k in range(max(0, n - rest_total), min(head, n) + 1):
        for tail in splits(rest, n - k):
            out.append((k,) + tail)
    return tuple(out)


def payment_pickers(hand: tuple[int, ...], cost: int) -> tuple[tuple[int, ...], tuple] | None:
    """Every distinct minimal payment of ``cost`` from ``hand`` (R-buy-2, R-buy-3), one per
    multiset of card kinds (cards of the same colour and value are interchangeable), before
    its cards are picked: ``(cards, pickers)``, the hand sorted by kind and one picker per
    payment (in order) that takes the payment's cards, a tuple, from ``cards``; None when the
    hand cannot pay ``cost``. (``legal_actions`` builds each Buy as it picks.)

    The payments: each shape of ``payment_shapes`` (in its order) with every split of its
    counts over the colours (``_value_picks``); within a payment the 2s, then the 3s, then
    the 5s, each value colour by colour, and of each kind the first cards in hand order. So
    they depend only on the kinds of the hand's cards: they are worked out once per
    (multiset of the kinds of the hand, cost) as positions into the hand sorted by kind
    (``_payment_positions``), and each call only picks its cards at those positions."""
    # The total (to stop early when the hand is short) and the kinds in one number summed in
    # a plain loop (cheaper than sum/map over VALUE.__getitem__): per card 16 ** its KIND
    # shifted past 9 bits (4 bits per kind: at most 11 cards share one) plus its value (the
    # total fits the 9 low bits: all 108 cards are worth 336); then the hand sorted by kind
    # with a dict's __getitem__ as the key (a tuple's __getitem__ is a slot wrapper, about
    # 1.5x as slow as a key).
    if cost > 5 * len(hand):                     # short even if every card were a 5
        return None
    summed = 0
    packed = _PACKED
    for c in hand:
        summed += packed[c]
    total = summed & 511
    if total < cost:
        return None
    cards = list(hand)                           # (list.sort: cheaper than sorted())
    cards.sort(key=_KIND_OF)                     # stable: hand order within a kind
    cards = tuple(cards)
    key = summed - total + cost                  # the kinds, and the cost in the low 9 bits
    pickers = _POSITIONS.get(key)
    if pickers is None:
        pickers = _pickers(cards, cost)
        if len(_POSITIONS) >= _POSITIONS_MAX:
            _POSITIONS.clear()
            _GETTERS.clear()
        _POSITIONS[key] = pickers
    return cards, pickers


#: card -> 16 ** its KIND << 9 | its VALUE: a hand's sum counts its cards per kind (4 bits
#: each) above its total (9 bits)
_PACKED: tuple[int, ...] = tuple(1 << 4 * k << 9 | v for k, v in zip(KIND, VALUE))
#: card -> its KIND, as a sort key
_KIND_OF = dict(enumerate(KIND)).__getitem__
#: (the hand's kinds as in ``_PACKED``) * 512 + cost -> one picker per payment: it takes the
#: payment's cards (a tuple) from the hand sorted by kind (a tuple).
_POSITIONS: dict[int, tuple[itemgetter, ...]] = {}
_POSITIONS_MAX = 100_000


#: positions -> the picker of a payment at those positions (pickers are shared by hands)
_GETTERS: dict[tuple[int, ...], itemgetter] = {}


def _pickers(cards: tuple[int, ...], cost: int) -> tuple[itemgetter, ...]:
    """One picker per payment of ``_payment_positions`` for ``cards`` (a hand sorted by kind):
    ``picker`` of its positions."""
    kind = KIND
    out = []
    for p in _payment_positions(tuple([kind[c] for c in cards]), cost):
        getter = _GETTERS.get(p)
        if getter is None:
            getter = _GETTERS[p] = picker(p)
        out.append(getter)
    return tuple(out)


def picker(positions: tuple[int, ...]) -> itemgetter:
    """A callable that takes the items at ``positions`` of a tuple, as a tuple: ``itemgetter``
    of the positions (of a slice for none or one, so that it also gives a tuple)."""
    if len(positions) > 1:
        return itemgetter(*positions)
    if positions:
        return itemgetter(slice(positions[0], positions[0] + 1))
    return itemgetter(slice(0, 0))


def _payment_positions(kinds: tuple[int, ...], cost: int) -> tuple[tuple[int, ...], ...]:
    """The payments of ``payment_pickers`` for a hand whose cards, sorted by kind, have the
    kinds ``kinds`` (KIND: value index * 4 + colour): each payment as positions into that
    sorted hand. Per shape, the picks of each value are ``_value_picks`` (the splits over the
    colours)."""
    caps = [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    for k in kinds:
        caps[k >> 2][k & 3] += 1
    c2, c3, c5 = tuple(caps[0]), tuple(caps[1]), tuple(caps[2])
    n2, n3 = sum(c2), sum(c3)
    out: list[tuple[int, ...]] = []
    for s2, s3, s5 in payment_shapes((n2, n3, sum(c5)), cost):
        xs = _value_picks(c2, s2, 0)
        ys = _value_picks(c3, s3, n2)
        zs = _value_picks(c5, s5, n2 + n3)
        if len(ys) == 1 and len(zs) == 1:        # one way for the 3s and the 5s
            tail = ys[0] + zs[0]
            if tail:
                for x in xs:
                    out.append(x + tail)
            else:
                out += xs
        else:
            out += [x + y + z for x in xs for y in ys for z in zs]
    return tuple(out)


@lru_cache(maxsize=None)
def _value_picks(caps: tuple[int, int, int, int], n: int, offset: int) -> tuple[tuple[int, ...], ...]:
    """The distinct ways to pick ``n`` cards of one value up to colour, as positions: the
    cards of that value start at ``offset`` of the hand sorted by kind, ``caps[col]`` of
    colour ``col``; per split of ``n`` over the colours (``splits``), the first cards of each
    colour, colours in colour order."""
    if not n:
        return ((),)
    starts = [offset]
    for cap in caps[:3]:
        starts.append(starts[-1] + cap)
    return tuple(tuple(p for col in range(4) for p in range(starts[col], starts[col] + split[col]))
                 for split in splits(caps, n))


def cheapest_payment(hand, cost: int) -> list[int] | None:
    """A legal payment of ``cost`` from ``hand`` (card ids) that overpays least (R-buy-2,
    R-buy-3); among those, the one that spends the fewest insurance icons (R-comp-2), then
    the fewest cards. The cards of each value are taken in hand order. ``None`` when the hand
    cannot cover the cost. The least total is always minimal, so the result is always a
    payment ``apply_action`` accepts.

    >>> cheapest_payment([20, 11, 12], 6)   # red 5, red 3, red 3: pay 3 + 3
    [11, 12]
    """
    hand = list(hand)
    shapes = payment_shapes(shape_of(hand), cost)
    if not shapes:
        return None
    n2, n3, n5 = min(shapes, key=lambda s: (2 * s[0] + 3 * s[1] + 5 * s[2], 2 * s[0] + s[1],
                                            sum(s)))
    want = {2: n2, 3: n3, 5: n5}
    out = []
    for c in hand:
        v = VALUE[c]
        if want[v]:
            want[v] -= 1
            out.append(c)
    return out


def suggested_payment(hand, goods, cost: int, shapes=None) -> list[int] | None:
    """The payment the table suggests to a player: a legal payment of ``cost`` from ``hand``
    (card ids; R-buy-2, R-buy-3) that overpays least, then uses the fewest cards (the first
    such shape of ``payment_shapes``); of each value it spends first the cards whose colour
    the player holds fewest ``goods`` of (the player's merchandise, ``(card, insured)``
    pairs as in ``GameState.goods``: a card's insurance icons insure only goods of its colour,
    R-pay-6; cards of one value carry the same icons, R-comp-2), then the lower ids. The 5s,
    then the 3s, then the 2s. ``None`` when the hand cannot cover the cost. ``shapes``: the
    hand's ``payment_shapes`` for ``cost`` when the caller has them.

    >>> suggested_payment([11, 12, 20], [(13, False)], 6)   # red 3, red 3, red 5: 3 + 3
    [11, 12]
    """
    if shapes is None:
        shapes = payment_shapes(shape_of(hand), cost)
    if not shapes:
        return None
    if len(shapes) == 1:
        n2, n3, n5 = shapes[0]
    else:
        n2, n3, n5 = min(shapes, key=lambda s: (2 * s[0] + 3 * s[1] + 5 * s[2], sum(s)))
    kept = None                                  # own goods per colour, when needed
    out: list[int] = []
    for v, n in ((5, n5), (3, n3), (2, n2)):
        if n:
            cards = [c for c in hand if VALUE[c] == v]
            if len(cards) > 1:                   # which colours to keep, and the order
                if kept is None:
                    kept = [0, 0, 0, 0]
                    for g in goods:
                        kept[COLOR[g[0]]] += 1
                cards.sort(key=lambda c: (kept[COLOR[c]], c))
            out += cards[:n]
    return out
