"""Drawing cards: the draw pile, reshuffles of the discard pile, and refreshes (R-refresh).

These helpers work on a fresh copy of a state that the caller owns (see rules.py): they
reassign its tuple fields and append events to ``ev`` when it is a list.
"""
from __future__ import annotations

from .cards import FARM_REFRESH, MARKET_REFRESH
from .shuffle import shuffled
from .state import GameState


def _reshuffle(s: GameState, ev: list | None) -> bool:
    """R-refresh-3: the draw pile is empty and a card must be drawn: shuffle the discard pile
    into a new draw pile (R-refresh-3a). False when the discard pile is empty too."""
    if not s.discard:
        return False
    game = s._game
    s.deck = tuple(shuffled(game.rules_version, game.seed, game.shuffles, s.discard))
    s.discard = ()
    s._game = game._replace(shuffles=game.shuffles + 1)
    if ev is not None:
        ev.append({"type": "reshuffle", "size": len(s.deck), "visible_to": None})
    return True


def draw(s: GameState, ev: list | None) -> int | None:
    """Draw the top card of the draw pile (reshuffling first when it is empty, R-refresh-3).
    Returns None when both piles are empty (R-refresh-3 Ruling)."""
    if not s.deck and not _reshuffle(s, ev):
        return None
    card = s.deck[0]
    s.deck = s.deck[1:]
    return card


def draw_many(s: GameState, count: int, ev: list | None) -> list[int]:
    """Draw up to ``count`` cards one after another (fewer when both piles run out,
    R-refresh-3 Ruling); a reshuffle happens only when a card is due and the pile is empty."""
    out: list[int] = []
    while count > 0 and (s.deck or _reshuffle(s, ev)):
        got = s.deck[:count]
        s.deck = s.deck[count:]
        out += got
        count -= len(got)
    return out


_BOTH = MARKET_REFRESH + FARM_REFRESH


def refresh(s: GameState, ev: list | None) -> None:
    """Refresh the Market and the Farm (R-refresh-1, R-refresh-2): the Farm cards, with
    their Reservation pieces, move to the end of the Market; then 2 cards are drawn into
    the Market and 3 into the Farm."""
    moved = s.farm
    deck = s.deck
    if len(deck) >= _BOTH:                       # no reshuffle due: slice the draw pile once
        s.deck = deck[_BOTH:]
        market_drawn = deck[:MARKET_REFRESH]
        s.market = s.market + moved + market_drawn
        s.farm = deck[MARKET_REFRESH:_BOTH]
        if ev is not None:
            ev.append({"type": "refresh", "moved": list(moved), "market": list(market_drawn),
                       "farm": list(s.farm), "visible_to": None})
        return
    market_new = draw_many(s, MARKET_REFRESH, ev)
    s.market = s.market + moved + tuple(market_new)
    farm_new = draw_many(s, FARM_REFRESH, ev)
    s.farm = tuple(farm_new)
    if ev is not None:
        ev.append({"type": "refresh", "moved": list(moved), "market": market_new,
                   "farm": farm_new, "visible_to": None})
