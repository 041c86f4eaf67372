"""What may be done now: ``legal_actions`` and ``is_listed``, the one legality path.

``legal_actions`` lists every legal action of a seat; ``is_listed`` decides whether a submitted
action equals one of them up to interchangeable cards (cards of the same colour and value),
without listing them all: it generates the candidates of the submitted action's kind for
this decision and compares canonical forms (a card id for take and reserve, a payment shape
for buy, insurance shapes per colour for insure). Both build on the same generators
(``takeable``, ``reservable``, ``coins.payment_shapes``, ``insurance.colour_options``), so no
rule is written twice. Why an action is refused is explained separately (refusal.py).
"""
from __future__ import annotations

from .actions import CHOOSE_TOKEN, PASS, RESERVE, TAKE, Action, Buy, Insure
from .coins import payment_pickers, payment_shapes, shape_of
from .cards import VALUE
from .insurance import insurance_listed, insurance_options
from .state import GameState

_new = object.__new__


def takeable(s: GameState, seat: int) -> list[int]:
    """Market cards the seat may take or buy: unreserved, or its own (R-take-1, R-buy-1,
    R-reserve-3)."""
    return list(goods_of(s.market, s.reservations, seat))


def goods_of(market: tuple[int, ...], reservations: tuple, seat: int) -> tuple[int, ...]:
    """``takeable`` as a tuple, from the Market and the Reservation pieces."""
    out = market
    for other, card in enumerate(reservations):
        if card is not None and other != seat and card in out:
            i = out.index(card)
            out = out[:i] + out[i + 1:]
    return out


def turn_goods(s: GameState, seat: int) -> tuple[int, ...] | list[int]:
    """``takeable`` for the active player ``seat`` of a state in phase "turn", as a tuple
    (or a list, as the turn's start leaves it: never changed), worked out once per state
    (``GameState._goods``, set as the turn begins, rules.py)."""
    goods = s._goods
    if goods is None:
        goods = s._goods = goods_of(s.market, s.reservations, seat)
    return goods


def reservable(s: GameState, seat: int) -> list[int]:
    """Cards the seat may reserve: none without its piece, else every unreserved Market or
    Farm card (R-reserve-1, R-reserve-2)."""
    res = s.reservations
    if res[seat] is not None:
        return []
    out = list(s.market + s.farm)
    for card in res:
        if card is not None and card in out:
            out.remove(card)
    return out


def goods_cost(goods) -> int:
    """The cost of the goods: the sum of their values (R-buy-2)."""
    return sum(map(VALUE.__getitem__, goods))


def _has_turn_action(s: GameState, seat: int) -> bool:
    """Whether take, reserve or buy is possible; a buy needs goods, which can be taken, so
    takeable or reservable cards decide it (R-turn-2, R-turn-3)."""
    return bool(turn_goods(s, seat)) or bool(reservable(s, seat))


def legal_actions(state: GameState, seat: int) -> list[Action]:
    """Every legal action of ``seat`` now; ``[]`` when it is not that seat's decision.

    Buy actions: one per distinct minimal payment (R-buy-3) up to interchangeable cards;
    insurance: one per distinct choice (R-pay-6, R-pay-6a). Pass only when nothing else is
    legal (R-turn-3). Token draft: one per colour (R-setup-5).

    The take, reserve, choose_token and pass actions are shared objects (``is_listed`` checks
    them cheaply); a buy or insure action is built for this state and remembers it
    (``Action._of``), so that ``apply_action`` accepts it without checking it again
    (``was_listed``).
    """
    if type(seat) is not int or seat != state.to_act:
        return []
    phase = state.phase
    if phase == "turn":
        goods = state._goods
        if goods is None:
            goods = turn_goods(state, seat)
        # Plain loops rather than map(TAKE.__getitem__, ...): calling a tuple's __getitem__
        # through map costs about three times as much as indexing in a loop.
        acts: list[Action] = []
        cost = 0
        take = TAKE
        value = VALUE
        for card in goods:
            acts.append(take[card])
            cost += value[card]
        res = state.reservations
        if res[seat] is None:                        # ``reservable``, inline: with its own
            reserve = RESERVE                        # piece free, the seat's goods are the
            for card in goods:                       # Market's unreserved cards; then the
                acts.append(reserve[card])           # Farm's unreserved ones
            farm = state.farm
            for card in res:
                if card is not None and card in farm:
                    farm = list(farm)
                    farm.remove(card)
            for card in farm:
                acts.append(reserve[card])
        if goods:                                    # ``minimal_payments``, picked here
            found = payment_pickers(state.hands[seat], cost)
            if found is not None:                    # (None: the hand is short)
                cards, pickers = found
                for pick in pickers:
                    b = _new(Buy)                    # ``buy_of``, inline
                    b._payment = pick(cards)
                    b._of = state
                    acts.append(b)
        if not acts:
            acts.append(PASS)
        return acts
    if phase == "token_draft":
        return list(CHOOSE_TOKEN)
    if phase == "insurance":
        acts = []
        for discard, goods in insurance_options(state, seat):
            a = _new(Insure)                         # ``insure_of``, inline
            a._discard = discard
            a._goods = goods
            a._of = state
            acts.append(a)
        return acts
    return []


def was_listed(state: GameState, seat: int, action: Action) -> bool:
    """Whether ``action`` is a buy or insure object that ``legal_actions(state, seat)``
    returned (so it is listed: ``is_listed`` need not be asked)."""
    return action._of is state and seat == state.to_act


_PHASE_KINDS = {"token_draft": ("choose_token",), "insurance": ("insure",),
                "turn": ("buy", "take", "reserve", "pass"), "over": ()}


def is_listed(state: GameState, seat: int, action: Action) -> bool:
    """Whether ``action`` (well-formed) equals an action of ``legal_actions(state, seat)``
    up to interchangeable cards. The only test of legality ``apply_action`` uses."""
    if seat != state.to_act or action.type not in _PHASE_KINDS[state.phase]:
        return False
    kind = action.type
    if kind == "take":
        return action.card in turn_goods(state, seat)
    if kind == "reserve":
        return action.card in reservable(state, seat)
    if kind == "buy":
        return _buy_listed(state, seat, action.payment)
    if kind == "pass":
        return not _has_turn_action(state, seat)
    if kind == "insure":
        return insurance_listed(state, seat, action.discard, action.goods)
    return True  # choose_token: every colour is listed in the draft


def _buy_listed(s: GameState, seat: int, payment: tuple[int, ...]) -> bool:
    """Canonical form of a payment: its shape over distinct cards of the hand (then a
    kind-preserving exchange of hand cards maps it onto a listed payment)."""
    goods = turn_goods(s, seat)
    if not goods:
        return False
    hand = s.hands[seat]
    if len(set(payment)) != len(payment) or any(c not in hand for c in payment):
        return False
    return shape_of(payment) in payment_shapes(shape_of(hand), goods_cost(goods))
