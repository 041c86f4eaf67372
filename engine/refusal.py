"""Why an action is refused: ``explain_refusal`` names the condition with its stable code.

Legality itself is decided in one place (legal.py, ``is_listed``); this module is only asked
after an action was found not to be listed, to tell the player why. It reads the same options
of the decision (decision.py: the phase's action kinds, the goods, their cost, the cards the
piece may go on), so it states no rule of its own about them. Its checks run in a fixed
order, so a situation always gets the same code (docs/engine.md, errors.py).
"""
from __future__ import annotations

from .actions import Action
from .cards import COLOR, COLORS, ICONS, VALUE, describe
from .coins import is_minimal
from .decision import KINDS, decide, may_reserve
from .errors import IllegalAction
from .state import GameState, is_over


def explain_refusal(state: GameState, seat: int, action: Action) -> IllegalAction:
    """The ``IllegalAction`` for a well-formed ``action`` of a real ``seat`` that is not among
    ``legal_actions(state, seat)`` (up to interchangeable cards).

    Raises:
        RuntimeError: no rule explains the refusal, i.e. the engine's legality and its
            explanations disagree (a bug, never the player's fault).
    """
    if is_over(state):
        return IllegalAction("game_over", "the game is over")
    if seat != state.to_act:
        return IllegalAction("not_your_turn", "it is not your decision")
    kind = action.type
    if kind not in KINDS[state.phase]:
        return IllegalAction("wrong_phase", f"a {kind} action is not possible now ({state.phase})")
    decide(state)
    why = _EXPLAIN.get(kind, _nothing)(state, seat, action)
    if why is None:
        raise RuntimeError(f"engine bug: {action!r} by seat {seat} is not legal, but no rule "
                           "says why")
    return why


def _nothing(s: GameState, seat: int, a) -> None:
    return None


def _take(s: GameState, seat: int, a) -> IllegalAction | None:
    """R-take-1: only Market cards (``card_not_in_market``), and of those the goods
    (``card_reserved``: another player's piece is on it)."""
    if a.card not in s.market:
        return IllegalAction("card_not_in_market", f"the {describe(a.card)} is not in the Market")
    if a.card not in s._goods:
        return IllegalAction("card_reserved", f"the {describe(a.card)} is reserved by another player")
    return None


def _reserve(s: GameState, seat: int, a) -> IllegalAction | None:
    """R-reserve-1, R-reserve-2: a free piece (``no_reservation_piece``), on a Market or Farm
    card (``card_not_available``) that is reservable (``card_reserved``: a piece is on it)."""
    if s._farm is None:
        return IllegalAction("no_reservation_piece", "your Reservation piece is already on a card")
    if a.card not in s.market and a.card not in s.farm:
        return IllegalAction("card_not_available",
                             f"the {describe(a.card)} is not in the Market or the Farm")
    if not may_reserve(s, a.card):
        return IllegalAction("card_reserved", f"the {describe(a.card)} is already reserved")
    return None


def _buy(s: GameState, seat: int, a) -> IllegalAction | None:
    """R-buy-1..3: goods to buy, distinct hand cards, covering the cost, minimal."""
    if not s._goods:
        return IllegalAction("no_goods", "there are no goods you may buy in the Market")
    payment = a.payment
    if len(set(payment)) != len(payment):
        return IllegalAction("duplicate_card", "a card can be paid only once")
    for c in payment:
        if c not in s.hands[seat]:
            return IllegalAction("card_not_in_hand", f"the {describe(c)} is not in your hand")
    cost = s._cost
    paid = sum(VALUE[c] for c in payment)
    if paid < cost:
        return IllegalAction("payment_too_small", f"the goods cost {cost}; you offered {paid}")
    if not is_minimal(paid, min(VALUE[c] for c in payment), cost):
        return IllegalAction("payment_not_minimal",
                             f"the goods cost {cost}; {paid} is more than needed: a card could "
                             "be left out (R-buy-3)")
    return None


def _pass(s: GameState, seat: int, a) -> IllegalAction:
    """R-turn-3: passing only when nothing else is possible."""
    return IllegalAction("pass_not_allowed", "you can only pass when nothing else is possible")


def _insure(s: GameState, seat: int, a) -> IllegalAction | None:
    """R-pay-6, R-pay-6a: icon cards of sinking colours from the hand, own goods at risk,
    enough icons, and no spare discard."""
    discard, goods = a.discard, a.goods
    if len(set(discard)) != len(discard) or len(set(goods)) != len(goods):
        return IllegalAction("duplicate_card", "a card is named twice")
    hand = s.hands[seat]
    own = dict(s.goods[seat])
    icons = [0, 0, 0, 0]
    needed = [0, 0, 0, 0]
    for c in discard:
        if c not in hand:
            return IllegalAction("card_not_in_hand", f"the {describe(c)} is not in your hand")
        if COLOR[c] not in s.sinking or not ICONS[c]:
            return IllegalAction("not_insurable", f"the {describe(c)} has no insurance icon of a "
                                 "sinking colour")
        icons[COLOR[c]] += ICONS[c]
    for c in goods:
        if c not in own:
            return IllegalAction("not_insurable", f"the {describe(c)} is not one of your goods")
        if own[c] or COLOR[c] not in s.sinking:
            return IllegalAction("not_insurable", f"your {describe(c)} is not at risk")
        needed[COLOR[c]] += 1
    for col in range(4):
        if icons[col] < needed[col]:
            return IllegalAction("too_few_icons", f"{needed[col]} {COLORS[col]} goods need "
                                 f"{needed[col]} icons; your discards have {icons[col]}")
    for c in discard:
        if icons[COLOR[c]] - ICONS[c] >= needed[COLOR[c]]:
            return IllegalAction("discard_not_minimal", f"the {describe(c)} is not needed to "
                                 "insure the goods you chose")
    return None


_EXPLAIN = {"take": _take, "reserve": _reserve, "buy": _buy, "pass": _pass, "insure": _insure}
