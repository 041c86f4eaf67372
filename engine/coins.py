"""Paying with coins (R-buy-2, R-buy-3): the one definition of a minimal payment, the listing
of every distinct minimal payment, and the cheapest one.

A payment's *shape* is ``(n2, n3, n5)``: how many cards of value 2, 3 and 5 it uses. Whether a
payment is legal depends only on its shape (R-buy-3: it covers the cost and no card can be
left out), so the legal shapes of a hand are listed once (``payment_shapes``) and both the
listing of actions and the acceptance of a submitted payment use that list.
"""
from __future__ import annotations

from functools import lru_cache

from .cards import KIND, VALUE


def payment_shapes(have: tuple[int, int, int], cost: int) -> list[tuple[int, int, int]]:
    """Every minimal shape ``(n2, n3, n5)`` payable from ``have`` (cards of value 2, 3, 5 in
    hand) for ``cost`` (R-buy-2, R-buy-3), fives then threes ascending.

    A payment is minimal when its total covers the cost and the total without its lowest card
    would not; so for each count of 5s and 3s at most one count of 2s works.
    """
    out = []
    for n5 in range(have[2] + 1):
        for n3 in range(have[1] + 1):
            s35 = 5 * n5 + 3 * n3
            n2 = -(-(cost - s35) // 2) if s35 < cost else 0
            if n2 > have[0]:
                continue
            total = s35 + 2 * n2
            lowest = 2 if n2 else 3 if n3 else 5
            if total >= cost > total - lowest:
                out.append((n2, n3, n5))
    return out


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


def minimal_payments(hand: tuple[int, ...], cost: int) -> list[tuple[int, ...]]:
    """Every distinct minimal payment of ``cost`` from ``hand`` (R-buy-2, R-buy-3), one per
    multiset of card kinds (cards of the same colour and value are interchangeable): each
    shape of ``payment_shapes`` with every split of its counts over the colours."""
    by_kind: list[list[int]] = [[], [], [], [], [], [], [], [], [], [], [], []]
    kind = KIND
    for c in hand:
        by_kind[kind[c]].append(c)
    lens = [len(k) for k in by_kind]
    caps = (tuple(lens[0:4]), tuple(lens[4:8]), tuple(lens[8:12]))
    have = (sum(caps[0]), sum(caps[1]), sum(caps[2]))
    if 2 * have[0] + 3 * have[1] + 5 * have[2] < cost:
        return []
    picks_cache: dict[int, list[tuple[int, ...]]] = {}

    def picks(v: int, n: int) -> list[tuple[int, ...]]:
        """The distinct ways to pick n cards of value index v, as id tuples."""
        key = v * 256 + n
        found = picks_cache.get(key)
        if found is None:
            found = []
            base = v * 4
            for split in splits(caps[v], n):
                chosen: tuple[int, ...] = ()
                for col in range(4):
                    k = split[col]
                    if k:
                        chosen += tuple(by_kind[base + col][:k])
                found.append(chosen)
            picks_cache[key] = found
        return found

    out = []
    for n2, n3, n5 in payment_shapes(have, cost):
        for x in picks(0, n2):
            for y in picks(1, n3):
                xy = x + y
                for z in picks(2, n5):
                    out.append(xy + z)
    return out


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
