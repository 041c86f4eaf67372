"""Applying an action: the game's flow (R-setup-5, R-turn, R-buy, R-take, R-reserve, R-pay-6;
setup is in setup.py, R-pay in payment.py, drawing and refreshes in deck.py, a turn's start
with its options in decision.py).

An action is applied only when it is listed (legal.py ``is_listed``: one legality path);
otherwise ``explain_refusal`` (refusal.py) names the reason. The effects below therefore
check nothing.

Reading order for a purchase: ``play`` → ``_guarded`` → ``_buy`` (goods, ships) →
``payment.pay`` (scoring, tokens, end check, Black Tide) → ``_after_purchase`` (refresh, then
the next turn; from ``_insure`` after the last insurance decision when there was a Black Tide).
"""
from __future__ import annotations

from . import payment as pay_rules
from .actions import (_KINDS, Action, Buy, ChooseToken, Insure, Pass, Reserve, Take,
                      action_from_json)
from .cards import COLOR, COLORS, EDO, NUM_CARDS
from .deck import refresh
from .errors import IllegalAction
from .decision import decide, may_reserve, turn
from .legal import is_listed
from .refusal import explain_refusal
from .state import GameState


# ---------------------------------------------------------------------------------------
# Applying an action
# ---------------------------------------------------------------------------------------

def apply_action(state: GameState, seat: int, action) -> GameState:
    """The state after ``seat`` does ``action`` (an Action or its JSON dict).

    Never changes ``state``. Raises:
        IllegalAction: for anything illegal or malformed, and only that.
    """
    return _guarded(state, seat, action, None)


def play(state: GameState, seat: int, action) -> tuple[GameState, list[dict]]:
    """As ``apply_action``, and the events that happened, in order (docs/engine.md):
    JSON-ready dicts with ``type`` and ``visible_to`` (None = everyone, else one seat)."""
    ev: list[dict] = []
    new = _guarded(state, seat, action, ev)
    return new, ev


def _guarded(state, seat, action, ev):
    """Check the input's shape (``malformed``), then legality (one path: ``is_listed``),
    then apply. Anything else that goes wrong is a bug and propagates as it is."""
    if not isinstance(state, GameState):
        raise IllegalAction("malformed", "not a game state")
    cls = type(action)
    if cls not in _KINDS:
        action = action_from_json(action)
        cls = type(action)
    if type(seat) is not int or (seat != state.to_act and not 0 <= seat < state.num_players):
        raise IllegalAction("malformed", "no such seat")        # (the seat to act is one)
    if state._goods is None:                     # the options of the decision (known
        decide(state)                            # when the turn's start worked them out)
    if cls is Take:                              # (the class: cheaper than ``action.type``)
        # ``is_listed`` for a take, inline (the commonest action): one of the goods of the
        # seat to act (none outside a turn).
        if seat != state.to_act or action.card not in state._goods:
            raise explain_refusal(state, seat, action)
        s = state.copy()
        _take(s, seat, action, ev)
        return s
    if cls is Reserve:
        # ``is_listed`` for a reserve, inline: a card the piece of the seat to act may go on.
        if seat != state.to_act or not may_reserve(state, action.card):
            raise explain_refusal(state, seat, action)
        s = state.copy()
        _reserve(s, seat, action, ev)
        return s
    # A buy or insure object listed for this very state is listed (``Action._of``).
    if (action._of is not state or seat != state.to_act) and not is_listed(state, seat, action):
        raise explain_refusal(state, seat, action)
    s = state.copy()
    if cls is Buy:
        _buy(s, seat, action, ev, state._goods, state._cost)
    else:
        _EFFECTS[cls](s, seat, action, ev)
    return s


def _choose_token(s: GameState, seat: int, action, ev) -> None:
    """R-setup-5: take one Achievement token; the draft goes clockwise from the start
    player, then the start player's first turn begins (R-setup-6)."""
    color = action.color
    t = list(s.tokens[seat])
    t[color] += 1
    s.tokens = s.tokens[:seat] + (tuple(t),) + s.tokens[seat + 1:]
    if ev is not None:
        ev.append({"type": "token_chosen", "seat": seat, "color": COLORS[color], "visible_to": None})
    nxt = (seat + 1) % s.num_players
    if nxt == s.start_player:
        turn(s, s.start_player, ev, True)                   # R-setup-6
    else:
        s.to_act = nxt


def _take(s: GameState, seat: int, action, ev) -> None:
    """R-take-1: take an unreserved or own reserved Market card into the hand; R-take-2: no
    hand limit."""
    card = action.card
    # A tuple changed at one place through a list: cheaper than slicing and concatenating.
    if s.reservations[seat] == card:
        res = list(s.reservations)
        res[seat] = None                                  # the piece returns (R-take-1)
        s.reservations = tuple(res)
    market = list(s.market)
    market.remove(card)
    s.market = tuple(market)
    hands = list(s.hands)
    hands[seat] += _ONE[card]
    s.hands = tuple(hands)
    s.passes = 0
    if ev is not None:
        ev.append({"type": "take", "seat": seat, "card": card, "visible_to": None})
    turn(s, (s.turn + 1) % s.num_players, ev, True)                     # ``_next_turn``


def _reserve(s: GameState, seat: int, action, ev) -> None:
    """R-reserve-1, R-reserve-2: put the free Reservation piece on an unreserved Market or
    Farm card."""
    card = action.card
    res = list(s.reservations)
    res[seat] = card
    s.reservations = tuple(res)
    s.passes = 0
    if ev is not None:
        where = "market" if card in s.market else "farm"
        ev.append({"type": "reserve", "seat": seat, "card": card, "where": where, "visible_to": None})
    turn(s, (s.turn + 1) % s.num_players, ev, True)                     # ``_next_turn``


def _to_discard(s: GameState, seat: int, cards: tuple[int, ...]) -> None:
    """``cards`` (distinct cards of ``seat``'s hand: a listed payment or insurance discard) go
    from the hand onto the discard pile (R-buy-4, R-pay-6)."""
    hands = list(s.hands)
    kept = list(hands[seat])
    for c in cards:
        kept.remove(c)
    hands[seat] = tuple(kept)
    s.hands = tuple(hands)
    s.discard = s.discard + cards


def _buy(s: GameState, seat: int, action, ev, goods: tuple[int, ...] | list[int],
         cost: int) -> None:
    """R-buy: buy every Market good not reserved by another player with a minimal payment
    (R-buy-1..3, checked by ``is_listed``); move the ships; pay out if a ship reached Edo;
    then refresh. ``goods`` and ``cost``: the goods before the purchase (R-buy-1) and their
    cost (R-buy-2), from the options of the decision (decision.py)."""
    payment = action._payment        # (the slot behind the property)   R-buy-1: goods
    _to_discard(s, seat, payment)                                # R-buy-4
    uninsured = _UNINSURED
    owned = list(s.goods)
    mine = list(owned[seat])
    counts = [0, 0, 0, 0]                        # goods per colour, for R-buy-5
    color = COLOR
    for c in goods:
        mine.append(uninsured[c])
        counts[color[c]] += 1
    owned[seat] = tuple(mine)
    s.goods = tuple(owned)
    market = s.market
    if len(goods) == len(market):
        s.market = ()
    else:
        left = []
        for c in market:
            if c not in goods:
                left.append(c)
        s.market = tuple(left)
    own = s.reservations[seat]
    if own is not None and own in goods:
        res = list(s.reservations)
        res[seat] = None                                  # the piece returns (R-buy-4)
        s.reservations = tuple(res)
    s.passes = 0
    if ev is not None:
        ev.append({"type": "buy", "seat": seat, "goods": list(goods), "payment": list(payment),
                   "cost": cost, "visible_to": None})                     # R-buy-2
    ships = list(s.ships)                                        # R-buy-5
    for col in _COLOURS:
        n = counts[col]
        if n:
            was = ships[col]
            to = was + (1 if n == 1 else 2)
            if to > EDO:
                to = EDO
            if to != was and ev is not None:
                ev.append({"type": "ship_moved", "color": COLORS[col], "from": was,
                           "to": to, "visible_to": None})
            ships[col] = to
    s.ships = tuple(ships)
    if EDO in ships:                                             # R-buy-6
        outcome = pay_rules.pay(s, ev)
        if outcome != "done":
            return
    _after_purchase(s, ev)


def _after_purchase(s: GameState, ev) -> None:
    """R-buy-7: refresh the Market and the Farm (after the payment), then the next turn."""
    refresh(s, ev)
    _next_turn(s, ev)


def _insure(s: GameState, seat: int, action, ev) -> None:
    """R-pay-6: one player's insurance decision (R-pay-6a: checked by ``is_listed``); R-pay-7:
    an insured good stays insured. After the last decision, R-pay-8 and R-pay-9, then the
    purchase's refresh and the next turn."""
    discard, goods = action._discard, action._goods   # (the slots behind the properties)
    if discard:
        _to_discard(s, seat, discard)
    if goods:
        owned = list(s.goods)
        mine = []
        for g in owned[seat]:
            mine.append(g if g[1] or g[0] not in goods else (g[0], True))
        owned[seat] = tuple(mine)
        s.goods = tuple(owned)
    if ev is not None:
        ev.append({"type": "insure", "seat": seat, "discard": list(discard), "goods": list(goods),
                   "visible_to": None})
    s.insurance_queue = s.insurance_queue[1:]
    if s.insurance_queue:
        s.to_act = s.insurance_queue[0]
        return
    pay_rules.finish_tide(s, ev)
    _after_purchase(s, ev)


def _pass(s: GameState, seat: int, action, ev) -> None:
    """R-turn-3: pass (only listed when nothing else is legal); when every player has passed
    in succession, the game ends (R-end-1, R-end-3)."""
    s.passes += 1
    if ev is not None:
        ev.append({"type": "pass", "seat": seat, "visible_to": None})
    if s.passes >= s.num_players:
        pay_rules.end_game(s, "passes", ev)
        return
    _next_turn(s, ev)


def _next_turn(s: GameState, ev) -> None:
    """R-turn-4: the next player clockwise takes a turn (it begins with its options and,
    R-turn-1, a refresh when there is nothing to take: ``decision.turn``)."""
    turn(s, (s.turn + 1) % s.num_players, ev, True)


_COLOURS = range(4)

#: (card,): the card alone, a tuple (one tuple fewer to build per take)
_ONE: tuple[tuple[int], ...] = tuple((c,) for c in range(NUM_CARDS))

#: (card, False): the card as an uninsured good.
_UNINSURED: tuple[tuple[int, bool], ...] = tuple((c, False) for c in range(NUM_CARDS))


_EFFECTS = {Take: _take, Reserve: _reserve, Pass: _pass, ChooseToken: _choose_token,
            Insure: _insure}
