"""What may be done now: ``legal_actions`` and ``is_listed``, the one legality path.

Both read the options of the state's decision (decision.py, worked out once per state), so no
rule is written twice: ``legal_actions`` lists them as actions; ``is_listed`` decides whether
a submitted action equals one of them up to interchangeable cards (cards of the same colour
and value), without listing them all: it compares canonical forms (a card id for take and
reserve, a payment shape for buy, insurance shapes per colour for insure). Why an action is
refused is explained separately (refusal.py), from the same options.
"""
from __future__ import annotations

from .actions import PASS, Action, Buy, Insure
from .coins import payment_pickers, payment_shapes, shape_of
from .decision import KINDS, decide, may_reserve
from .insurance import insurance_listed
from .state import GameState

_new = object.__new__


def legal_actions(state: GameState, seat: int) -> list[Action]:
    """Every legal action of ``seat`` now; ``[]`` when it is not that seat's decision.

    Turn: a take per good, a reserve per card the piece may go on, a buy per distinct
    minimal payment (R-buy-3) up to interchangeable cards, and pass only when nothing else
    is legal (R-turn-3); insurance: one per distinct choice (R-pay-6, R-pay-6a); token
    draft: one per colour (R-setup-5). All from the options of the decision (decision.py).

    The take, reserve, choose_token and pass actions are shared objects (``is_listed`` checks
    them cheaply); a buy or insure action is built for this state and remembers it
    (``Action._of``), so that ``apply_action`` accepts it without checking it again.
    """
    if type(seat) is not int or seat != state.to_act:
        return []
    goods = state._goods
    if goods is None:
        goods = decide(state)._goods
    acts: list[Action] = state._listed.copy()        # (a new list: the caller's to change)
    if goods:                                        # the minimal payments, picked here
        found = payment_pickers(state.hands[seat], state._cost)
        if found is not None:                        # (None: the hand is short)
            cards, pickers = found
            for pick in pickers:
                b = _new(Buy)                        # ``buy_of``, inline
                b._payment = pick(cards)
                b._of = state
                acts.append(b)
    elif state.phase == "insurance":
        for discard, goods in state._choices:
            a = _new(Insure)                         # ``insure_of``, inline
            a._discard = discard
            a._goods = goods
            a._of = state
            acts.append(a)
    return acts


def is_listed(state: GameState, seat: int, action: Action) -> bool:
    """Whether ``action`` (well-formed) equals an action of ``legal_actions(state, seat)``
    up to interchangeable cards. The only test of legality ``apply_action`` uses (for a take
    and a reserve it reads the options itself, rules.py)."""
    kind = action.type
    if seat != state.to_act or kind not in KINDS[state.phase]:
        return False
    decide(state)
    if kind == "take":
        return action.card in state._goods
    if kind == "reserve":
        return may_reserve(state, action.card)
    if kind == "buy":
        return _buy_listed(state, seat, action.payment)
    if kind == "pass":                               # listed alone, when nothing else is
        return state._listed[0] is PASS
    if kind == "insure":
        return insurance_listed(state, seat, action.discard, action.goods)
    return True  # choose_token: every colour is listed in the draft


def _buy_listed(s: GameState, seat: int, payment: tuple[int, ...]) -> bool:
    """Canonical form of a payment: its shape over distinct cards of the hand (then a
    kind-preserving exchange of hand cards maps it onto a listed payment)."""
    if not s._goods:
        return False
    hand = s.hands[seat]
    if len(set(payment)) != len(payment) or any(c not in hand for c in payment):
        return False
    return shape_of(payment) in payment_shapes(shape_of(hand), s._cost)
