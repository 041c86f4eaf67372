"""player_view: the one place where hidden information is removed (R-info).

Also ``visible_events``, the same rule for the events of ``play``.
"""
from __future__ import annotations

from .cards import COLORS
from .coins import payment_shapes, shape_of, suggested_payment
from .decision import decide
from .state import GameState, is_over


def player_view(state: GameState, seat: int | None) -> dict:
    """What ``seat`` may see, as a JSON-ready dict; ``None`` = a spectator.

    R-info-1: everything public is in it for everyone; R-info-2: the seat's own ``hand`` and
    ``vp`` only for that seat; R-info-3: no deck order, seed, VP piles, nor other players' VP
    totals before the end (then every ``vp``); R-info-4: what is derivable from public facts
    (``starting_hands``, the discard pile) is shown.

    Keys: see docs/engine.md ("Player view JSON"). Never holds another seat's ``hand`` or
    anyone else's ``vp`` before the end, the ``deck``, the ``seed`` or any ``vp_cards``.
    The seat to act in a turn also gets ``buy``, its purchase (``buy_options``); no other
    seat and no spectator does (its payments follow from that seat's hand, R-info-2).

    Raises:
        ValueError: ``seat`` is not None and not a seat of this game.
    """
    return seat_view(state, player_view_public(state), seat)


def player_view_public(state: GameState) -> dict:
    """The spectator's view of ``state`` (``player_view(state, None)``), from which
    ``seat_view`` makes each seat's: a server that tells every seat of a room the same state
    builds the public part once (the same dict as ``player_view(state, None)``; R-info)."""
    n = state.num_players
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
        if over:
            entry["vp"] = state.vp(p)
        players.append(entry)
    return {
        "seat": None,
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


def seat_view(state: GameState, public: dict, seat: int | None) -> dict:
    """``player_view(state, seat)`` made from ``public`` = ``player_view_public(state)`` of the
    same state: the seat, its own ``hand`` and ``vp`` (R-info-2) and, for the seat to act in a
    turn, ``buy``. The result shares the other players' entries and the public lists with
    ``public`` (and with the other seats' views): treat all of them as read-only.

    Raises:
        ValueError: ``seat`` is not None and not a seat of this game.
    """
    if seat is None:
        return public
    n = state.num_players
    if type(seat) is not int or not 0 <= seat < n:
        raise ValueError("no such seat")
    mine = {k: v for k, v in public["players"][seat].items() if k != "vp"}
    mine["hand"] = list(state.hands[seat])
    mine["vp"] = state.vp(seat)
    players = list(public["players"])
    players[seat] = mine
    view = dict(public)
    view["seat"] = seat
    view["players"] = players
    if seat == state.to_act and state.phase == "turn":
        view["buy"] = buy_options(state, seat)
    return view


def buy_options(state: GameState, seat: int) -> dict:
    """The purchase ``seat``, the active player of ``state`` (phase "turn"), may make now,
    as the engine decides it (decision.py, coins.py), so that a client only chooses:

    - ``goods``: the card ids it would buy (R-buy-1), in Market order; ``[]`` when none;
    - ``cost``: their total value in coins (R-buy-2); 0 without goods;
    - ``payments``: every legal payment's shape ``[twos, threes, fives]`` (how many hand
      cards of value 2, 3 and 5 it uses; R-buy-2, R-buy-3: legality depends only on the
      shape), fives then threes ascending; ``[]`` when the hand cannot cover the cost;
    - ``suggested``: hand card ids of one legal payment (``coins.suggested_payment``), or
      None when there is none.
    """
    goods = decide(state)._goods
    if not goods:
        return {"goods": [], "cost": 0, "payments": [], "suggested": None}
    hand = state.hands[seat]
    cost = state._cost
    shapes = payment_shapes(shape_of(hand), cost)
    return {"goods": list(goods), "cost": cost, "payments": [list(s) for s in shapes],
            "suggested": suggested_payment(hand, state.goods[seat], cost, shapes)}


def visible_events(events: list[dict], seat: int | None) -> list[dict]:
    """The events ``seat`` may see (``visible_to`` None or that seat); None = spectator."""
    return [e for e in events if e["visible_to"] is None or e["visible_to"] == seat]
