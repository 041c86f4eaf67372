"""Position evaluation for the computer players, in VP-equivalent units.

The evaluation works on a ``Board``: a light, bot-side summary of a full state (taken from
``GameState.to_json()`` of a determinized state, see ``bots.determinize``). It values, for
each player:

- VPs already banked (R-pay-2);
- Achievement tokens (they raise future prices, R-pay-1, and break ties, R-end-2);
- merchandise: each colour's set is worth what it would sell for now (R-pay-1) times the
  chance that its ship reaches Edo before it sinks (R-pay-5) or the game ends (R-pay-4);
  insured goods are safer (R-pay-7); uninsured goods of a sinking colour are worth nothing;
- coins in hand (buying power), with diminishing returns for a very large hand;
- the Reservation piece (free: an option; on a card: a claim on that card).

``Board.buy`` / ``Board.take`` / ``Board.reserve`` update a board the way an action would,
without the engine (ships move, payment, tokens, Black Tide with a greedy insurance guess),
so the playout policy of the hard bot can score actions cheaply. They are an approximation
used for scoring only; the engine remains the authority for what happens.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine import CARD_COLORS as COLOR
from engine import cheapest_payment

from .cards import COLOR_INDEX, COLORS, EDO, VALUE, WAVES, color_index, icons_of, sale_vp, value_of


@dataclass(frozen=True)
class Weights:
    """Tunable weights of the evaluation (VP-equivalent units)."""

    coin: float = 0.22          # per coin of hand value, up to coin_cap
    coin_cap: int = 22
    token: float = 0.55         # per Achievement token held
    sale_token: float = 0.45    # bonus per set sold (the token it brings, R-pay-3)
    reservation_free: float = 0.15
    reserved_claim: float = 0.06  # per coin value of the card under one's Reservation piece
    # chance that uninsured goods reach Edo, by ship location 0..5
    reach: tuple[float, ...] = (0.50, 0.58, 0.72, 0.55, 0.68, 1.0)
    reach_insured: tuple[float, ...] = (0.62, 0.70, 0.80, 0.85, 0.90, 1.0)
    opportunity: float = 0.6    # share of the next player's best purchase counted against us


DEFAULT_WEIGHTS = Weights()


def end_factor(distance: int, horizon: int) -> float:
    """Chance-like factor that a ship ``distance`` steps from Edo still pays before the end.

    ``horizon`` is how many tokens the leader still needs to end the game (R-pay-4), >= 1.
    """
    if horizon >= 4:
        return 1.0
    f = 0.35 + 0.25 * horizon - 0.08 * distance
    return max(0.1, min(1.0, f))


@dataclass
class Board:
    """A light summary of a full state for scoring (never sent anywhere).

    ``goods[p][c]`` is a list of ``(value, insured)`` per good of colour index ``c``;
    ``tokens[p][c]`` counts tokens; ``ships[c]`` is a location 0..5; ``hands[p]`` are card ids.
    """

    n: int
    phase: str
    to_act: int | None
    turn: int
    ships: list[int]
    sinking: set[int]
    goods: list[list[list[tuple[int, bool]]]]
    tokens: list[list[int]]
    vp: list[float]
    hands: list[list[int]]
    market: list[tuple[int, int | None]]
    farm: list[tuple[int, int | None]]
    winners: list[int] | None = None
    over: bool = False

    @classmethod
    def from_state(cls, s: dict) -> "Board":
        """Build from a full state JSON (``GameState.to_json()``)."""
        n = s["num_players"]
        goods = []
        tokens = []
        vp = []
        hands = []
        for pl in s["players"]:
            g: list[list[tuple[int, bool]]] = [[], [], [], []]
            for item in pl["goods"]:
                g[color_index(item["card"])].append((value_of(item["card"]), bool(item["insured"])))
            goods.append(g)
            tokens.append([pl["tokens"].get(c, 0) for c in COLORS])
            vp.append(len(pl["vp_cards"]) + pl.get("vp_substitutes", 0))
            hands.append(list(pl["hand"]))
        return cls(
            n=n,
            phase=s["phase"],
            to_act=s["to_act"],
            turn=s["turn"],
            ships=[s["ships"][c] for c in COLORS],
            sinking={COLOR_INDEX[c] for c in s.get("sinking") or []},
            goods=goods,
            tokens=tokens,
            vp=vp,
            hands=hands,
            market=[(m["card"], m["reserved_by"]) for m in s["market"]],
            farm=[(m["card"], m["reserved_by"]) for m in s["farm"]],
            winners=s.get("winners"),
            over=s["phase"] == "over",
        )

    @classmethod
    def from_game(cls, st) -> "Board":
        """``from_state(st.to_json())`` of an engine ``GameState`` without the JSON (the same
        board; hot in playouts)."""
        reserved = {card: seat for seat, card in enumerate(st.reservations) if card is not None}
        get = reserved.get
        goods = []
        for pg in st.goods:
            g: list[list[tuple[int, bool]]] = [[], [], [], []]
            for card, insured in pg:
                g[COLOR[card]].append((VALUE[card], bool(insured)))
            goods.append(g)
        winners = st.winners
        return cls(
            n=st.num_players,
            phase=st.phase,
            to_act=st.to_act,
            turn=st.turn,
            ships=list(st.ships),
            sinking=set(st.sinking),
            goods=goods,
            tokens=[list(t) for t in st.tokens],
            vp=[len(v) + sub for v, sub in zip(st.vp_cards, st.vp_subs)],
            hands=[list(h) for h in st.hands],
            market=[(c, get(c)) for c in st.market],
            farm=[(c, get(c)) for c in st.farm],
            winners=None if winners is None else list(winners),
            over=st.phase == "over",
        )

    def copy(self) -> "Board":
        return Board(
            n=self.n, phase=self.phase, to_act=self.to_act, turn=self.turn,
            ships=list(self.ships), sinking=set(self.sinking),
            goods=[[list(gc) for gc in gp] for gp in self.goods],
            tokens=[list(t) for t in self.tokens], vp=list(self.vp),
            hands=[list(h) for h in self.hands], market=list(self.market), farm=list(self.farm),
            winners=self.winners, over=self.over,
        )

    # --- light action models (approximate, for scoring only) -------------------------------

    def goods_for(self, seat: int) -> list[int]:
        """Market cards ``seat`` would buy now (R-buy-1)."""
        return [c for c, r in self.market if r is None or r == seat]

    def take(self, seat: int, card: int) -> "Board":
        """The board after ``seat`` takes ``card`` as a coin (R-take)."""
        b = _shallow(self)  # copy-on-write: only the Market and this hand change
        b.market = [(c, r) for c, r in self.market if c != card]
        b.hands = list(self.hands)
        b.hands[seat] = self.hands[seat] + [card]
        return b

    def reserve(self, seat: int, card: int) -> "Board":
        """The board after ``seat`` puts its Reservation piece on ``card`` (R-reserve)."""
        b = _shallow(self)  # copy-on-write: only the reservations change
        b.market = [(c, seat if c == card else r) for c, r in self.market]
        b.farm = [(c, seat if c == card else r) for c, r in self.farm]
        return b

    def buy(self, seat: int, payment: list[int]) -> "Board":
        """The board after ``seat`` buys the Market paying ``payment`` (R-buy, R-pay, approx.)."""
        b = _shallow(self)  # copy-on-write: what the purchase changes is copied below
        bought = self.goods_for(seat)
        b.market = [(c, r) for c, r in self.market if not (r is None or r == seat)]
        pay = set(payment)
        b.hands = list(self.hands)
        b.hands[seat] = [c for c in self.hands[seat] if c not in pay]
        count = [0, 0, 0, 0]
        b.goods = list(self.goods)
        goods = b.goods[seat] = [list(gc) for gc in self.goods[seat]]
        for c in bought:
            ci = COLOR[c]
            goods[ci].append((VALUE[c], False))
            count[ci] += 1
        ships = b.ships = list(self.ships)
        for ci in range(4):
            if count[ci]:
                ships[ci] = min(EDO, ships[ci] + (1 if count[ci] == 1 else 2))
        at_edo = [ci for ci in range(4) if ships[ci] == EDO]
        if at_edo:
            b._payment(seat, at_edo)
        return b

    def _payment(self, active: int, at_edo: list[int]) -> None:
        # ``buy`` copied the goods of ``active`` only: the other lists are copied here first
        self.goods = [gp if p == active else list(gp) for p, gp in enumerate(self.goods)]
        self.tokens = [list(t) for t in self.tokens]
        self.vp = list(self.vp)
        gained = [set() for _ in range(self.n)]
        for ci in at_edo:
            for p in range(self.n):
                gs = self.goods[p][ci]
                if gs:
                    self.vp[p] += sale_vp(max(v for v, _ in gs), len(gs), self.tokens[p][ci])
                    self.goods[p][ci] = []
                    gained[p].add(ci)
        for p in range(self.n):
            for ci in gained[p]:
                self.tokens[p][ci] += 1
        if any(sum(t) >= 8 for t in self.tokens):
            self.over = True
            self.phase = "over"
            return
        sinking = [ci for ci in range(4) if self.ships[ci] in WAVES]
        for ci in sinking:
            for p in range(self.n):
                gs = self.goods[p][ci]
                unins = sorted((v for v, ins in gs if not ins), reverse=True)
                if not unins:
                    continue
                # greedy insurance guess: spend hand cards of that colour with icons
                icons_cards = sorted((c for c in self.hands[p] if color_index(c) == ci and icons_of(c)),
                                     key=lambda c: -icons_of(c))
                icons = 0
                spent = []
                for c in icons_cards:
                    if icons >= len(unins):
                        break
                    icons += icons_of(c)
                    spent.append(c)
                saved = min(icons, len(unins))
                if saved and sum(unins[:saved]) >= sum(value_of(c) for c in spent):
                    self.hands[p] = [c for c in self.hands[p] if c not in spent]
                    kept = [(v, True) for v in unins[:saved]] + [(v, True) for v, ins in gs if ins]
                else:
                    kept = [(v, True) for v, ins in gs if ins]
                self.goods[p][ci] = kept
        for ci in at_edo:
            self.ships[ci] = 0
        for ci in sinking:
            self.ships[ci] = 2
        self.sinking = set()


def _shallow(board: Board) -> Board:
    """``copy.copy(board)``, without its generic machinery (hot in playouts)."""
    b = _new(Board)
    b.__dict__.update(board.__dict__)
    return b


_new = object.__new__


def horizon(board: Board) -> int:
    """Tokens the leader still needs to end the game (R-pay-4), at least 1."""
    return max(1, 8 - max(sum(t) for t in board.tokens))


def player_value(board: Board, p: int, w: Weights = DEFAULT_WEIGHTS,
                 h: int | None = None) -> float:
    """Heuristic worth of seat ``p`` on ``board``, in VP-equivalents (see module doc).

    ``h`` is ``horizon(board)`` when the caller already has it. (Hot in playouts: ``sale_vp``
    and ``end_factor`` are written out here, with the same arithmetic.)
    """
    v = float(board.vp[p])
    toks = board.tokens[p]
    v += w.token * sum(toks)
    if board.over:
        return v
    if h is None:
        h = horizon(board)
    goods = board.goods[p]
    ships = board.ships
    sinking = board.sinking
    sale_token = w.sale_token
    for ci in range(4):
        gs = goods[ci]
        if not gs:
            continue
        if ci in sinking:
            ins = [val for val, i in gs if i]
            if ins:
                sale = -(-((max(ins) + toks[ci]) * len(ins)) // 5) + sale_token
                v += w.reach_insured[2] * end_factor(3, h) * sale
            continue
        loc = ships[ci]
        n = len(gs)
        top = n_ins = 0
        for val, i in gs:
            if val > top:
                top = val
            if i:
                n_ins += 1
        sale = -(-((top + toks[ci]) * n) // 5) + sale_token               # sale_vp
        reach = (n_ins * w.reach_insured[loc] + (n - n_ins) * w.reach[loc]) / n
        if h >= 4:                                                        # end_factor
            ef = 1.0
        else:
            ef = max(0.1, min(1.0, 0.35 + 0.25 * h - 0.08 * (EDO - loc)))
        v += reach * ef * sale
    hv = sum(map(VALUE.__getitem__, board.hands[p]))
    v += w.coin * min(hv, w.coin_cap) + 0.5 * w.coin * max(0, hv - w.coin_cap)
    claim = 0
    reserved = False
    for c, r in board.market:
        if r == p:
            reserved = True
            claim += VALUE[c]
    for c, r in board.farm:
        if r == p:
            reserved = True
            claim += VALUE[c]
    if reserved:
        v += w.reserved_claim * claim
    else:
        v += w.reservation_free
    return v


def projected_vp(board: Board, p: int, w: Weights = DEFAULT_WEIGHTS) -> float:
    """Seat ``p``'s expected final VPs on ``board`` (VP, a float), the review's VP figure
    (bots/review.py): its banked VPs (R-pay-2) plus, for each colour of its merchandise, the
    VPs the set would sell for now (R-pay-1: highest value + tokens of the colour, × count,
    rounded up to 5, ÷ 5) times the chance the ship reaches Edo (``player_value``'s reach and end
    factors; uninsured goods of a sinking colour count nothing, R-pay-8). No coins, tokens or
    Reservation: only VPs. A finished game: the banked VPs."""
    v = float(board.vp[p])
    if board.over:
        return v
    h = horizon(board)
    toks = board.tokens[p]
    for ci in range(4):
        gs = board.goods[p][ci]
        if ci in board.sinking:
            gs = [g for g in gs if g[1]]
        if not gs:
            continue
        loc = 2 if ci in board.sinking else board.ships[ci]   # a sunk ship restarts at Anori (R-pay-9)
        n = len(gs)
        n_ins = sum(1 for _, i in gs if i)
        sale = -(-((max(val for val, _ in gs) + toks[ci]) * n) // 5)
        reach = (n_ins * w.reach_insured[loc] + (n - n_ins) * w.reach[loc]) / n
        v += reach * end_factor(EDO - loc, h) * sale
    return v


def best_purchase_gain(board: Board, q: int, w: Weights = DEFAULT_WEIGHTS,
                       before: float | None = None) -> float:
    """How much seat ``q`` would gain by buying the Market now (0 if it cannot or should not).

    Uses the cheapest legal payment from ``q``'s hand (``engine.cheapest_payment``), compared with
    taking the best coin instead. ``before`` is ``player_value(board, q)`` if known.
    """
    goods = board.goods_for(q)
    if not goods:
        return 0.0
    value = VALUE.__getitem__
    cost = sum(map(value, goods))
    hand = sorted(board.hands[q], key=value)
    if sum(map(value, hand)) < cost:
        return 0.0
    payment = cheapest_payment(hand, cost)
    if before is None:
        before = player_value(board, q, w)
    after = player_value(board.buy(q, payment), q, w)
    take_gain = w.coin * max(map(value, goods))
    return max(0.0, after - before - take_gain)


def relative_score(board: Board, me: int, w: Weights = DEFAULT_WEIGHTS,
                   vals: list[float] | None = None, gains: dict | None = None) -> float:
    """My value minus the opponents' (max-weighted), minus the next player's opportunity.

    For a finished game: +100 for a sole win, +100/k for a k-way shared win, -100 for a
    loss, plus the VP gap. ``vals`` are the players' ``player_value``s if already known.
    ``gains``: a cache of the next player's ``best_purchase_gain`` keyed by the goods it
    would buy, for boards that differ only in the Market's cards and Reservation pieces and
    in ``me``'s hand (the take and reserve moves of one position, ``hard.playout_action``).
    """
    if board.over:
        winners = board.winners
        if winners is None:
            winners = _winners(board)
        gap = board.vp[me] - max(board.vp[o] for o in range(board.n) if o != me)
        if me in winners:
            return 100.0 / len(winners) + gap
        return -100.0 + gap
    if vals is None:
        h = horizon(board)
        vals = [player_value(board, p, w, h) for p in range(board.n)]
    opp = [vals[o] for o in range(board.n) if o != me]
    agg = opp[0] if len(opp) == 1 else 0.6 * max(opp) + 0.4 * sum(opp) / len(opp)
    score = vals[me] - agg
    nxt = board.to_act
    if board.phase == "turn" and nxt is not None and nxt != me:
        share = 1.0 if board.n == 2 else 0.6
        if gains is None:
            gain = best_purchase_gain(board, nxt, w, vals[nxt])
        else:
            key = tuple(board.goods_for(nxt))
            gain = gains.get(key)
            if gain is None:
                gain = gains[key] = best_purchase_gain(board, nxt, w, vals[nxt])
        score -= w.opportunity * share * gain
    return score


def _winners(board: Board) -> list[int]:
    best = max((board.vp[p], sum(board.tokens[p])) for p in range(board.n))
    return [p for p in range(board.n) if (board.vp[p], sum(board.tokens[p])) == best]


def win_probability(board: Board, me: int, w: Weights = DEFAULT_WEIGHTS) -> float:
    """Map the relative score to a 0..1 value for search (1 = sole win, 1/k shared)."""
    if board.over:
        winners = board.winners if board.winners is not None else _winners(board)
        return 1.0 / len(winners) if me in winners else 0.0
    s = relative_score(board, me, w)
    scale = 3.0 + 0.5 * horizon(board)
    x = max(-30.0, min(30.0, s / scale))
    return 1.0 / (1.0 + math.exp(-x))

