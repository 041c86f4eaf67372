"""The game's flow: setup, legal actions, and applying an action (R-setup, R-turn, R-buy,
R-take, R-reserve; R-pay is in payment.py, drawing and refreshes in deck.py).

Reading order for a purchase: ``play`` → ``_step`` → ``_buy`` (goods, payment check, ships)
→ ``payment.pay`` (scoring, tokens, end check, Black Tide) → ``_after_purchase`` (refresh)
→ ``_next_turn``.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import product

from . import payment as pay_rules
from .actions import Action, Buy, ChooseToken, Insure, Pass, Reserve, Take, action_from_json
from .cards import COLOR, COLORS, EDO, ICONS, KIND, VALUE, describe
from .deck import refresh
from .errors import IllegalAction
from .state import GameState


# ---------------------------------------------------------------------------------------
# What may be done (shared by legal_actions and _step, so no rule is written twice)
# ---------------------------------------------------------------------------------------

def _takeable(s: GameState, seat: int) -> list[int]:
    """Market cards the seat may take or buy: unreserved, or its own (R-take-1, R-buy-1)."""
    res = s.reservations
    own = res[seat]
    others = {c for c in res if c is not None and c != own}
    if not others:
        return list(s.market)
    return [c for c in s.market if c not in others]


def _reservable(s: GameState, seat: int) -> list[int]:
    """Cards the seat may reserve: none without its piece, else every unreserved Market or
    Farm card (R-reserve-1, R-reserve-2)."""
    res = s.reservations
    if res[seat] is not None:
        return []
    taken = {c for c in res if c is not None}
    return [c for c in s.market + s.farm if c not in taken]


def _can_buy(s: GameState, seat: int, goods: list[int]) -> bool:
    return bool(goods) and sum(VALUE[c] for c in s.hands[seat]) >= sum(VALUE[c] for c in goods)


def _payment_problem(hand: tuple[int, ...], payment: tuple[int, ...], cost: int):
    """None if ``payment`` is a legal payment of ``cost`` from ``hand`` (R-buy-2, R-buy-3),
    else an IllegalAction to raise."""
    if len(set(payment)) != len(payment):
        return IllegalAction("duplicate_card", "a card can be paid only once")
    hand_set = set(hand)
    for c in payment:
        if c not in hand_set:
            return IllegalAction("card_not_in_hand", f"the {describe(c)} is not in your hand")
    paid = sum(VALUE[c] for c in payment)
    if paid < cost:
        return IllegalAction("payment_too_small", f"the goods cost {cost}; you offered {paid}")
    if paid - min(VALUE[c] for c in payment) >= cost:
        return IllegalAction("payment_not_minimal",
                             f"the goods cost {cost}; {paid} is more than needed: a card could "
                             "be left out (R-buy-3)")
    return None


@lru_cache(maxsize=None)
def _splits(caps: tuple[int, ...], n: int) -> tuple[tuple[int, ...], ...]:
    """Every way to pick ``n`` cards from piles of sizes ``caps`` (counts per pile)."""
    if not caps:
        return ((),) if n == 0 else ()
    out = []
    head, rest = caps[0], caps[1:]
    rest_total = sum(rest)
    for k in range(max(0, n - rest_total), min(head, n) + 1):
        for tail in _splits(rest, n - k):
            out.append((k,) + tail)
    return tuple(out)


def minimal_payments(hand: tuple[int, ...], cost: int) -> list[tuple[int, ...]]:
    """Every distinct minimal payment of ``cost`` from ``hand`` (R-buy-2, R-buy-3), one per
    multiset of card kinds (cards of the same colour and value are interchangeable).

    A payment is minimal when it covers the cost and leaving out its lowest card would not;
    so for each count of 5s and 3s there is at most one count of 2s that works.
    """
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
            for split in _splits(caps[v], n):
                chosen: tuple[int, ...] = ()
                for col in range(4):
                    k = split[col]
                    if k:
                        chosen += tuple(by_kind[base + col][:k])
                found.append(chosen)
            picks_cache[key] = found
        return found

    out = []
    for n5 in range(have[2] + 1):
        for n3 in range(have[1] + 1):
            s35 = 5 * n5 + 3 * n3
            n2 = -(-(cost - s35) // 2) if s35 < cost else 0
            if n2 > have[0]:
                continue
            total = s35 + 2 * n2
            lowest = 2 if n2 else 3 if n3 else 5
            if total < cost or total - lowest >= cost:
                continue
            for x in picks(0, n2):
                for y in picks(1, n3):
                    xy = x + y
                    for z in picks(2, n5):
                        out.append(xy + z)
    return out


def _insurance_options(s: GameState, seat: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every distinct insurance choice (discard, goods) of ``seat`` (R-pay-6 and its Ruling):
    per sinking colour, any number of its uninsured goods (distinct up to value) with a
    minimal discard of that colour's icon cards covering them; insuring nothing included."""
    per_colour = []
    hand = s.hands[seat]
    for col in s.sinking:
        goods_by_value: dict[int, list[int]] = {}
        for c, ins in s.goods[seat]:
            if COLOR[c] == col and not ins:
                goods_by_value.setdefault(VALUE[c], []).append(c)
        twos = [c for c in hand if COLOR[c] == col and ICONS[c] == 2]
        threes = [c for c in hand if COLOR[c] == col and ICONS[c] == 1]
        icons = 2 * len(twos) + len(threes)
        options = [((), ())]
        values = sorted(goods_by_value)
        caps = tuple(len(goods_by_value[v]) for v in values)
        for k in range(1, min(sum(caps), icons) + 1):
            discards = []
            for a in range(min(len(twos), (k + 1) // 2) + 1):
                b = max(0, k - 2 * a)
                if b > len(threes):
                    continue
                if a and 2 * (a - 1) + b >= k:
                    continue
                if b and 2 * a + b - 1 >= k:
                    continue
                discards.append(tuple(twos[:a] + threes[:b]))
            for split in _splits(caps, k):
                chosen = tuple(c for v, n in zip(values, split) for c in goods_by_value[v][:n])
                for d in discards:
                    options.append((d, chosen))
        per_colour.append(options)
    out = []
    for combo in product(*per_colour):
        out.append((tuple(c for d, _ in combo for c in d), tuple(c for _, g in combo for c in g)))
    return out


def _insurance_problem(s: GameState, seat: int, discard: tuple[int, ...], goods: tuple[int, ...]):
    """None if (discard, goods) is a legal insurance choice (R-pay-6), else an IllegalAction."""
    if len(set(discard)) != len(discard) or len(set(goods)) != len(goods):
        return IllegalAction("duplicate_card", "a card is named twice")
    hand = set(s.hands[seat])
    own = {c: ins for c, ins in s.goods[seat]}
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


def legal_actions(state: GameState, seat: int) -> list[Action]:
    """Every legal action of ``seat`` now; ``[]`` when it is not that seat's decision.

    Buy actions: one per distinct minimal payment (R-buy-3) up to interchangeable cards;
    insurance: one per distinct choice (R-pay-6). Pass only when nothing else is legal
    (R-turn-3).
    """
    if seat != state.to_act or type(seat) is not int:
        return []
    phase = state.phase
    if phase == "turn":
        goods = _takeable(state, seat)
        acts: list[Action] = [Take(c) for c in goods]
        acts += [Reserve(c) for c in _reservable(state, seat)]
        if _can_buy(state, seat, goods):
            cost = sum(VALUE[c] for c in goods)
            acts += [Buy(p) for p in minimal_payments(state.hands[seat], cost)]
        return acts or [Pass()]
    if phase == "token_draft":
        return [ChooseToken(col) for col in range(4)]
    if phase == "insurance":
        return [Insure(d, g) for d, g in _insurance_options(state, seat)]
    return []


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
    try:
        if not isinstance(state, GameState):
            raise IllegalAction("malformed", "not a game state")
        return _step(state, seat, action_from_json(action), ev)
    except IllegalAction:
        raise
    except Exception as exc:  # any other failure is a refusal too: nothing was changed
        raise IllegalAction("malformed", f"the action could not be applied ({type(exc).__name__})") from None


_PHASE_ACTIONS = {"token_draft": ("choose_token",), "insurance": ("insure",),
                  "turn": ("buy", "take", "reserve", "pass")}


def _step(state: GameState, seat, action: Action, ev: list | None) -> GameState:
    if type(seat) is not int or not 0 <= seat < state.num_players:
        raise IllegalAction("malformed", "no such seat")
    if state.phase == "over":
        raise IllegalAction("game_over", "the game is over")
    if seat != state.to_act:
        raise IllegalAction("not_your_turn", "it is not your decision")
    kind = action.type
    phase = state.phase
    if kind not in _PHASE_ACTIONS[phase]:
        raise IllegalAction("wrong_phase", f"a {kind} action is not possible now ({phase})")
    s = state.copy()
    if kind == "take":
        _take(s, seat, action.card, ev)
    elif kind == "reserve":
        _reserve(s, seat, action.card, ev)
    elif kind == "buy":
        _buy(s, seat, action.payment, ev)
    elif kind == "pass":
        _pass(s, seat, ev)
    elif kind == "choose_token":
        _choose_token(s, seat, action.color, ev)
    else:
        _insure(s, seat, action.discard, action.goods, ev)
    return s


def _choose_token(s: GameState, seat: int, color: int, ev) -> None:
    """R-setup-5: take one Achievement token; the draft goes clockwise from the start
    player, then the start player's first turn begins (R-setup-6)."""
    t = list(s.tokens[seat])
    t[color] += 1
    s.tokens = s.tokens[:seat] + (tuple(t),) + s.tokens[seat + 1:]
    if ev is not None:
        ev.append({"type": "token_chosen", "seat": seat, "color": COLORS[color], "visible_to": None})
    nxt = (seat + 1) % s.num_players
    if nxt == s.start_player:
        _begin_turn(s, s.start_player, ev)
    else:
        s.to_act = nxt


def _take(s: GameState, seat: int, card: int, ev) -> None:
    """R-take-1: take an unreserved or own reserved Market card into the hand."""
    if card not in s.market:
        raise IllegalAction("card_not_in_market", f"the {describe(card)} is not in the Market")
    owner = s.reserved_by(card)
    if owner is not None and owner != seat:
        raise IllegalAction("card_reserved", f"the {describe(card)} is reserved by another player")
    if owner == seat:
        _free_piece(s, seat)
    s.market = tuple(c for c in s.market if c != card)
    s.hands = _with(s.hands, seat, s.hands[seat] + (card,))
    s.passes = 0
    if ev is not None:
        ev.append({"type": "take", "seat": seat, "card": card, "visible_to": None})
    _next_turn(s, ev)


def _reserve(s: GameState, seat: int, card: int, ev) -> None:
    """R-reserve-1, R-reserve-2: put the free Reservation piece on an unreserved Market or
    Farm card."""
    if s.reservations[seat] is not None:
        raise IllegalAction("no_reservation_piece", "your Reservation piece is already on a card")
    if card in s.market:
        where = "market"
    elif card in s.farm:
        where = "farm"
    else:
        raise IllegalAction("card_not_available", f"the {describe(card)} is not in the Market or the Farm")
    if s.reserved_by(card) is not None:
        raise IllegalAction("card_reserved", f"the {describe(card)} is already reserved")
    s.reservations = _with(s.reservations, seat, card)
    s.passes = 0
    if ev is not None:
        ev.append({"type": "reserve", "seat": seat, "card": card, "where": where, "visible_to": None})
    _next_turn(s, ev)


def _buy(s: GameState, seat: int, payment: tuple[int, ...], ev) -> None:
    """R-buy: buy every Market good not reserved by another player with a minimal payment;
    move the ships; pay out if a ship reached Edo; then refresh."""
    goods = _takeable(s, seat)                                   # R-buy-1
    if not goods:
        raise IllegalAction("no_goods", "there are no goods you may buy in the Market")
    cost = sum(VALUE[c] for c in goods)                          # R-buy-2
    problem = _payment_problem(s.hands[seat], payment, cost)     # R-buy-3
    if problem is not None:
        raise problem
    paid = set(payment)
    s.hands = _with(s.hands, seat, tuple(c for c in s.hands[seat] if c not in paid))
    s.discard = s.discard + tuple(payment)                       # R-buy-4
    s.goods = _with(s.goods, seat, s.goods[seat] + tuple((c, False) for c in goods))
    bought = set(goods)
    s.market = tuple(c for c in s.market if c not in bought)
    if s.reservations[seat] in bought:
        _free_piece(s, seat)
    s.passes = 0
    if ev is not None:
        ev.append({"type": "buy", "seat": seat, "goods": goods, "payment": list(payment),
                   "cost": cost, "visible_to": None})
    counts = [0, 0, 0, 0]                                        # R-buy-5
    for c in goods:
        counts[COLOR[c]] += 1
    ships = list(s.ships)
    for col in range(4):
        if counts[col]:
            to = min(EDO, ships[col] + (1 if counts[col] == 1 else 2))
            if to != ships[col] and ev is not None:
                ev.append({"type": "ship_moved", "color": COLORS[col], "from": ships[col],
                           "to": to, "visible_to": None})
            ships[col] = to
    s.ships = tuple(ships)
    if EDO in s.ships:                                           # R-buy-6
        outcome = pay_rules.pay(s, ev)
        if outcome != "done":
            return
    _after_purchase(s, ev)


def _after_purchase(s: GameState, ev) -> None:
    """R-buy-7: refresh the Market and the Farm (after the payment), then the next turn."""
    refresh(s, ev)
    _next_turn(s, ev)


def _insure(s: GameState, seat: int, discard, goods, ev) -> None:
    """R-pay-6: one player's insurance decision; after the last one, R-pay-8 and R-pay-9,
    then the purchase's refresh and the next turn."""
    problem = _insurance_problem(s, seat, discard, goods)
    if problem is not None:
        raise problem
    if discard:
        gone = set(discard)
        s.hands = _with(s.hands, seat, tuple(c for c in s.hands[seat] if c not in gone))
        s.discard = s.discard + tuple(discard)
    if goods:
        saved = set(goods)
        s.goods = _with(s.goods, seat, tuple((c, ins or c in saved) for c, ins in s.goods[seat]))
    if ev is not None:
        ev.append({"type": "insure", "seat": seat, "discard": list(discard), "goods": list(goods),
                   "visible_to": None})
    s.insurance_queue = s.insurance_queue[1:]
    if s.insurance_queue:
        s.to_act = s.insurance_queue[0]
        return
    pay_rules.finish_tide(s, ev)
    _after_purchase(s, ev)


def _pass(s: GameState, seat: int, ev) -> None:
    """R-turn-3: pass, only when nothing else is legal; when every player has passed in
    succession, the game ends (R-end-3)."""
    goods = _takeable(s, seat)
    if goods or _reservable(s, seat) or _can_buy(s, seat, goods):
        raise IllegalAction("pass_not_allowed", "you can only pass when nothing else is possible")
    s.passes += 1
    if ev is not None:
        ev.append({"type": "pass", "seat": seat, "visible_to": None})
    if s.passes >= s.num_players:
        pay_rules.end_game(s, "passes", ev)
        return
    _next_turn(s, ev)


def _next_turn(s: GameState, ev) -> None:
    """R-turn-4: the next player clockwise takes a turn."""
    _begin_turn(s, (s.turn + 1) % s.num_players, ev)


def _begin_turn(s: GameState, seat: int, ev) -> None:
    """Start ``seat``'s turn; R-turn-1: refresh first when the Market holds no card that
    the player may take."""
    s.phase = "turn"
    s.turn = seat
    s.to_act = seat
    if ev is not None:
        ev.append({"type": "turn_started", "seat": seat, "visible_to": None})
    if not _takeable(s, seat):
        refresh(s, ev)


def _free_piece(s: GameState, seat: int) -> None:
    """The Reservation piece returns to its player (R-reserve-3, R-buy-4, R-take-1)."""
    s.reservations = _with(s.reservations, seat, None)


def _with(tup: tuple, i: int, value) -> tuple:
    return tup[:i] + (value,) + tup[i + 1:]
