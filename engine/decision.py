"""The options of the decision a state waits for, worked out once per state.

What the seat to act may do now, as data kept on the state itself (private slots of
``GameState``, never compared, not in the JSON; a state never changes once the action that
made it returns, so they never go stale):

- ``_goods``: the Market cards the active player may take (R-take-1) or buys (R-buy-1):
  every Market card not reserved by another player, the player's own reserved card included
  (R-reserve-3), in Market order (a tuple, or a list that nothing changes when others'
  pieces are on Market cards); ``()`` outside a turn; None until the options are worked
  out;
- ``_cost`` (only with goods): what the goods cost, the sum of their values (R-buy-2);
- ``_farm``: None when the player may not reserve, i.e. outside a turn or when the
  player's Reservation piece is on a card (R-reserve-1); else the unreserved Farm cards in
  Farm order. With a free piece the player holds no reserved card, so the goods are exactly
  the Market's unreserved cards, and the cards the player may reserve are the goods and
  ``_farm`` (R-reserve-2; ``may_reserve``);
- ``_listed``: the decision's actions that are the same objects for every state (a list
  nothing changes): in a turn a take per good, then a reserve per card the piece may go on
  (goods first), or pass alone when there is neither (R-turn-3: a buy needs goods, so
  nothing else is legal then); the token draft's ``ChooseToken`` per colour (R-setup-5);
  none at the Black Tide and once over;
- ``_choices`` (only at the Black Tide): the insurance choices (discard, goods) of the seat
  to act, insuring nothing first (``insurance.insurance_options``, R-pay-6, R-pay-6a).

``KINDS`` maps each phase to the action kinds it takes. ``decide(state)`` works the options
out on the first question about them; a turn's are worked out as it begins (``turn``, called
by rules.py for every new turn), which refreshes first when the player may take nothing
(R-turn-1). Everything that needs these rules reads them here:

- ``legal_actions`` lists them as actions, adding the buys (the minimal payments,
  coins.py) and the insurance choices as objects of this state (legal.py);
- ``apply_action`` and ``play`` accept an action when it is among them (rules.py, and
  ``legal.is_listed``);
- ``explain_refusal`` names the reason of a refusal from them (refusal.py).

So each of these rules is written once, here. (They live in the state's own slots rather than
in an object of their own: a step makes a state anyway, and an object more per state, tried
first, cost about 1,100 instructions, 2.5 % of a step, bench/engine_instr.py.)
"""
from __future__ import annotations

from .actions import CHOOSE_TOKEN, PASS, RESERVE, TAKE
from .cards import VALUE
from .deck import refresh
from .insurance import insurance_options
from .state import GameState

#: phase -> the action kinds it takes (R-setup-5: a token; R-turn-2, R-turn-3: buy, take,
#: reserve, or pass; R-pay-6: insurance; nothing once the game is over)
KINDS: dict[str, tuple[str, ...]] = {"token_draft": ("choose_token",),
                                     "turn": ("buy", "take", "reserve", "pass"),
                                     "insurance": ("insure",), "over": ()}

# The shared lists of ``_listed`` (nothing changes them).
_PASS_ALONE: list = [PASS]
_DRAFT: list = list(CHOOSE_TOKEN)
_NONE: list = []


def decide(state: GameState) -> GameState:
    """Work out the options of the decision ``state`` waits for (of ``state.to_act``) unless
    they are known; returns ``state``."""
    if state._goods is None:
        phase = state.phase
        if phase == "turn":
            turn(state, state.to_act, None, False)
        else:                                    # (no goods: ``_cost`` is never read)
            state._farm = None
            if phase == "insurance":
                state._listed = _NONE
                state._choices = insurance_options(state, state.to_act)
            else:
                state._listed = _DRAFT if phase == "token_draft" else _NONE
            state._goods = ()
    return state


def turn(s: GameState, seat: int, ev: list | None, begins: bool) -> None:
    """Work out the options of ``seat``'s turn in ``s`` (the active player's): the goods,
    their cost, the Farm cards it may reserve and the take, reserve or pass actions (see the
    module's docstring).

    ``begins``: the turn begins now, in the action that ended the previous one or the token
    draft (rules.py; ``s`` is that action's new state, and ``ev`` its events or None): ``s``
    becomes ``seat``'s turn (``turn_started``), and R-turn-1: when the Market holds no card
    that the player may take, it is refreshed first (its options are then worked out on the
    first question, ``decide``). R-turn-1a: so a state in phase "turn" is already refreshed,
    and ``decide`` asks without ``begins``. (One function for both: one call fewer per
    turn.)"""
    if begins:
        s.phase = "turn"
        s.turn = seat
        s.to_act = seat
        if ev is not None:
            ev.append({"type": "turn_started", "seat": seat, "visible_to": None})
    market = s.market
    farm = s.farm
    res = s.reservations
    own = res[seat]
    goods = None                                 # the Market, then the Farm, without the
    free = None                                  # cards others reserved (as lists only
    for card in res:                             # when one is): one loop over the pieces
        # (``is not own``: the seat's own entry of ``res``; the pieces' cards differ.)
        if card is not None and card is not own:
            if card in market:
                if goods is None:
                    goods = list(market)
                goods.remove(card)
            elif own is None and card in farm:   # (the Farm matters only to a free piece)
                if free is None:
                    free = list(farm)
                free.remove(card)
    if goods is None:
        goods = market
    # Plain loops rather than map(TAKE.__getitem__, ...): calling a tuple's __getitem__
    # through map costs about three times as much as indexing in a loop.
    listed = []
    cost = 0
    take = TAKE
    value = VALUE
    for card in goods:
        listed.append(take[card])
        cost += value[card]
    s._cost = cost
    if own is None:                              # R-reserve-1: a free piece
        if free is not None:
            farm = free
        s._farm = farm
        reserve = RESERVE
        for card in goods:
            listed.append(reserve[card])
        for card in farm:
            listed.append(reserve[card])
    else:
        s._farm = None
    s._listed = listed or _PASS_ALONE
    if goods or not begins:
        s._goods = goods
    else:                                        # R-turn-1 (the options stay unknown)
        refresh(s, ev)


def may_reserve(state: GameState, card: int) -> bool:
    """Whether the seat to act of ``state`` (options worked out) may put its Reservation
    piece on ``card`` (R-reserve-1, R-reserve-2): it is free, and the card is one of the
    goods or of ``_farm``."""
    farm = state._farm
    return farm is not None and (card in state._goods or card in farm)
