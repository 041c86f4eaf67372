"""player_view: the one place where hidden information is removed (R-info).

Also ``visible_events``, the same rule for the events of ``play``.
"""
from __future__ import annotations

from .cards import COLORS
from .state import GameState, is_over


def player_view(state: GameState, seat: int | None) -> dict:
    """What ``seat`` may see, as a JSON-ready dict; ``None`` = a spectator.

    R-info-1: everything public is in it for everyone; R-info-2: the seat's own ``hand`` and
    ``vp`` only for that seat; R-info-3: no deck order, seed, VP piles, nor other players' VP
    totals before the end (then every ``vp``); R-info-4: what is derivable from public facts
    (``starting_hands``, the discard pile) is shown.

    Keys: see docs/engine.md ("Player view JSON"). Never holds another seat's ``hand`` or
    anyone else's ``vp`` before the end, the ``deck``, the ``seed`` or any ``vp_cards``.

    Raises:
        ValueError: ``seat`` is not None and not a seat of this game.
    """
    n = state.num_players
    if seat is not None and (type(seat) is not int or not 0 <= seat < n):
        raise ValueError("no such seat")
    over = is_over(state)
    reserved = {card: p for p, card in enumerate(state.reservations) if card is not None}
    players = []
    for p in range(n):
        entry = {
            "hand_size": len(state.hands[p]),
            "goods": [{"card": c, "insured": ins} for c, ins in state.goods[p]],
            "tokens": {COLORS[i]: k for i, k in enumerate(state.tokens[p])},
            "reservation_free": state.reservations[p] is None,
        }
        if p == seat:
            entry["hand"] = list(state.hands[p])
        if p == seat or over:
            entry["vp"] = state.vp(p)
        players.append(entry)
    return {
        "seat": seat,
        "num_players": n,
        "phase": state.phase,
        "turn": state.turn,
        "to_act": state.to_act,
        "start_player": state.start_player,
        "starting_hands": [list(h) for h in state.starting_hands],
        "deck_size": len(state.deck),
        "discard": list(state.discard),
        "market": [{"card": c, "reserved_by": reserved.get(c)} for c in state.market],
        "farm": [{"card": c, "reserved_by": reserved.get(c)} for c in state.farm],
        "ships": {COLORS[i]: loc for i, loc in enumerate(state.ships)},
        "sinking": [COLORS[i] for i in state.sinking],
        "insurance_queue": list(state.insurance_queue),
        "passes": state.passes,
        "winners": None if state.winners is None else list(state.winners),
        "end_reason": state.end_reason,
        "players": players,
    }


def visible_events(events: list[dict], seat: int | None) -> list[dict]:
    """The events ``seat`` may see (``visible_to`` None or that seat); None = spectator."""
    return [e for e in events if e["visible_to"] is None or e["visible_to"] == seat]
