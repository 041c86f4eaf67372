"""Payment when ships reach Edo (R-pay): scoring, Achievement tokens, the end check, the
Black Tide with insurance, the ships' return; and the end of the game (R-end).

Functions here work on a fresh state copy owned by the caller (rules.py) and append events
to ``ev`` when it is a list.
"""
from __future__ import annotations

from .cards import ANORI, COLOR, COLORS, EDO, OSAKA, TOKENS_TO_END, VALUE, WAVES
from .deck import draw
from .insurance import may_insure
from .state import GameState


def clockwise_from(s: GameState, seat: int) -> tuple[int, ...]:
    """Seats in clockwise order (increasing index, wrapping) starting with ``seat``."""
    return _CLOCKWISE[s.num_players][seat]


#: players -> seat -> the seats clockwise from it (``clockwise_from``)
_CLOCKWISE = {n: tuple(tuple(range(seat, n)) + tuple(range(seat)) for seat in range(n))
              for n in range(2, 5)}


def set_value(cards: list[int], tokens: int) -> tuple[int, int, int]:
    """Price, value and VPs of a set (R-pay-1): price = highest value + tokens of that
    colour; value = price x cards, rounded up to a multiple of 5; VPs = value / 5.

    >>> set_value([20, 21, 22], 0)   # red 5,5,5, no tokens
    (5, 15, 3)
    """
    high = 0
    value = VALUE
    for c in cards:                              # (a plain loop: cheaper than max(generator))
        if value[c] > high:
            high = value[c]
    price = high + tokens
    raw = price * len(cards)
    value = -(-raw // 5) * 5
    return price, value, value // 5


def pay(s: GameState, ev: list | None) -> str:
    """Resolve a payment for every ship at Edo (R-pay-1..6); the active player is ``s.turn``.

    Returns ``"over"`` when the end check ended the game (R-pay-4), ``"insurance"`` when
    players must now decide on insurance (phase set, ``to_act`` the first of them), or
    ``"done"`` when the payment is complete (ships returned, R-pay-9) and the turn goes on
    to the refresh.
    """
    ships = s.ships
    at_edo = []
    for col in _COLOURS:
        if ships[col] == EDO:
            at_edo.append(col)
    if ev is not None:
        ev.append({"type": "payment", "colors": [COLORS[c] for c in at_edo], "visible_to": None})
    order = clockwise_from(s, s.turn)
    goods = list(s.goods)
    vp_cards = list(s.vp_cards)
    vp_subs = list(s.vp_subs)
    tokens = list(s.tokens)
    scored: list[list[int]] = [[], [], [], []]           # by seat (at most 4)
    color = COLOR
    value = VALUE
    # R-pay-1, R-pay-2: scoring; R-pay-1a: colour by colour in colour order, and within a
    # colour the players clockwise from the active player.
    for col in at_edo:
        for p in order:
            mine = goods[p]
            if not mine:
                continue
            sold = []
            kept = []
            low = 5
            high = 0
            for g in mine:
                c = g[0]
                if color[c] == col:
                    sold.append(c)
                    v = value[c]
                    if v > high:
                        high = v
                    if v < low:
                        low = v
                else:
                    kept.append(g)
            if not sold:
                continue
            goods[p] = tuple(kept)
            price, val, vps = set_value(sold, tokens[p][col])
            # R-pay-2a: the lowest values become VPs; a stable sort keeps equal values in
            # merchandise order (bought first, recorded first).
            by_value = sold if low == high else sorted(sold, key=value.__getitem__)
            to_vp, rest = by_value[:vps], by_value[vps:]
            drawn = subs = 0
            extra = []
            for _ in range(vps - len(to_vp)):
                card = draw(s, ev)
                if card is None:
                    subs += 1
                else:
                    extra.append(card)
                    drawn += 1
            vp_cards[p] = vp_cards[p] + tuple(to_vp) + tuple(extra)
            if subs:
                vp_subs[p] += subs
            if rest:
                s.discard = s.discard + tuple(rest)
            scored[p].append(col)
            if ev is not None:
                ev.append({"type": "sale", "seat": p, "color": COLORS[col], "cards": sold,
                           "price": price, "value": val, "vp": vps, "discarded": rest,
                           "drawn": drawn, "substitutes": subs, "visible_to": None})
    s.goods = tuple(goods)
    s.vp_cards = tuple(vp_cards)
    s.vp_subs = tuple(vp_subs)
    if ev is not None:
        for p in order:
            if scored[p]:
                ev.append({"type": "vp_total", "seat": p, "vp": s.vp(p), "visible_to": p})
    # R-pay-3: one token per colour scored (R-comp-4: the supply is unlimited, so nothing
    # limits the count).
    for p in order:
        if scored[p]:
            t = list(tokens[p])
            for col in scored[p]:
                t[col] += 1
                if ev is not None:
                    ev.append({"type": "token_gained", "seat": p, "color": COLORS[col],
                               "visible_to": None})
            tokens[p] = tuple(t)
    s.tokens = tuple(tokens)
    # R-pay-4: the end check, before the Black Tide.
    for t in tokens:
        if sum(t) >= TOKENS_TO_END:
            end_game(s, "tokens", ev)
            return "over"
    # R-pay-5: the Black Tide sinks every ship on a wave space.
    sinking = []
    for col in _COLOURS:
        if ships[col] in WAVES:
            sinking.append(col)
    if sinking:
        s.sinking = sinking = tuple(sinking)
        if ev is not None:
            ev.append({"type": "black_tide", "colors": [COLORS[c] for c in sinking],
                       "visible_to": None})
        queue = []
        for p in order:
            if may_insure(s, p):
                queue.append(p)
        if queue:
            s.phase = "insurance"
            s.insurance_queue = queue = tuple(queue)
            s.to_act = queue[0]
            return "insurance"
    finish_tide(s, ev)
    return "done"


_COLOURS = range(4)


def finish_tide(s: GameState, ev: list | None) -> None:
    """After all insurance decisions: uninsured goods of sinking colours are lost
    (R-pay-8); ships at Edo return to Osaka and sunk ships to Anori (R-pay-9)."""
    sinking = s.sinking
    if sinking:
        goods = list(s.goods)
        lost_all = []
        color = COLOR
        for p in clockwise_from(s, s.turn):
            keep = []
            lost: dict[int, list[int]] = {}
            for g in goods[p]:
                c = g[0]
                col = color[c]
                if not g[1] and col in sinking:
                    if col in lost:
                        lost[col].append(c)
                    else:
                        lost[col] = [c]
                else:
                    keep.append(g)
            if lost:
                goods[p] = tuple(keep)
                for col in sorted(lost):
                    lost_all += lost[col]
                    if ev is not None:
                        ev.append({"type": "sunk", "seat": p, "color": COLORS[col],
                                   "cards": lost[col], "visible_to": None})
        s.goods = tuple(goods)
        s.discard = s.discard + tuple(lost_all)
    ships = list(s.ships)
    for col in _COLOURS:
        if ships[col] == EDO or col in sinking:
            to = OSAKA if ships[col] == EDO else ANORI
            if ev is not None:
                ev.append({"type": "ship_returned", "color": COLORS[col], "from": ships[col],
                           "to": to, "visible_to": None})
            ships[col] = to
    s.ships = tuple(ships)
    s.sinking = ()
    s.insurance_queue = ()


def winners(s: GameState) -> tuple[int, ...]:
    """R-end-2: most VPs; tie → most Achievement tokens; still tied → all tied win."""
    best = max((s.vp(p), sum(s.tokens[p])) for p in range(s.num_players))
    return tuple(p for p in range(s.num_players) if (s.vp(p), sum(s.tokens[p])) == best)


def end_game(s: GameState, reason: str, ev: list | None) -> None:
    """End the game (R-end-1, R-end-3): phase "over", nobody to act, winners named."""
    s.phase = "over"
    s.to_act = None
    s.insurance_queue = ()
    s._game = s._game._replace(winners=winners(s), end_reason=reason)
    if ev is not None:
        ev.append({"type": "game_over", "reason": reason, "winners": list(s.winners),
                   "vp": [s.vp(p) for p in range(s.num_players)],
                   "tokens": [sum(t) for t in s.tokens], "visible_to": None})
