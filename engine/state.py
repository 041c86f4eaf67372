"""GameState: the full, immutable server-side state, and its JSON form (docs/engine.md).

Every field is an int, a string, None or a (nested) tuple, so a state is never changed in
place and a shallow copy is a safe starting point for the next state.
"""
from __future__ import annotations

from collections import namedtuple
from operator import attrgetter

from .cards import ALL_CARDS, COLOR_INDEX, COLORS, NUM_CARDS

PHASES = ("token_draft", "turn", "insurance", "over")
SCHEMA = 1
#: The rules version new games get (docs/versioning.md). A state keeps the version it was
#: created with; 1 = games created before versions existed (legacy shuffle).
RULES_VERSION = 2
#: Every rules version this engine can play.
RULES_VERSIONS: tuple[int, ...] = (1, 2)

#: What all the states of a game share and hardly ever change, in one record (one slot of
#: a state instead of seven, so a state copy costs less): set at setup (R-setup-1..4); the
#: count of shuffles grows with each reshuffle (``deck._reshuffle``); a finished game's
#: ``winners`` and ``end_reason`` are set once, by ``payment.end_game``.
Game = namedtuple("Game", "seed rules_version start_player starting_hands winners end_reason "
                          "shuffles")

_SLOTS = (
    "num_players", "deck", "discard", "market", "farm", "reservations",
    "ships", "hands", "goods", "tokens", "vp_cards", "vp_subs", "turn",
    "phase", "to_act", "sinking", "insurance_queue", "passes", "_game",
)


class GameState:
    """One moment of one game. Read-only by convention: rules build a new state per action.

    Fields (all immutable):
        num_players: 2..4.   seed: the game's random seed.   shuffles: shuffles so far.
        deck: draw pile, index 0 drawn next.   discard: discard pile, last = most recent.
        market, farm: card ids in layout order.
        reservations: per seat, the card id its Reservation piece is on, or None (R-comp-5:
            one piece per player).
        ships: location 0..5 per colour index (R-comp-3).
        hands: per seat, card ids.   goods: per seat, ((card, insured), ...).
        tokens: per seat, a 4-tuple of Achievement tokens by colour index.
        vp_cards: per seat, face-down VP cards (R-comp-5: one VP pile per player).   vp_subs: per seat, substitute VPs (R-pay-2).
        start_player, turn (the active player), phase (one of PHASES), to_act (seat or None).
        sinking: colour indices sinking during "insurance".   insurance_queue: seats to ask.
        passes: consecutive passes (R-turn-3).   winners: tuple of seats once over, else None.
        starting_hands: the public hands dealt at R-setup-3.   end_reason: None/"tokens"/"passes".
        rules_version: the rules version the game was created with (docs/versioning.md).
    ``seed``, ``rules_version``, ``start_player``, ``starting_hands``, ``winners``,
    ``end_reason`` and ``shuffles`` are read-only properties of the slot ``_game`` (a
    ``Game``).
    """

    # Not part of the state (never compared, not in the JSON): the options of the decision
    # it waits for, worked out once for this very state (decision.py: ``_goods``, None until
    # they are, ``_cost``, ``_farm``, ``_listed``, ``_choices``), set as a turn begins or on
    # the first question about them. Every new state starts with ``_goods`` None, and a
    # state is never changed once the action that made it returns, so they never go stale.
    __slots__ = _SLOTS + ("_goods", "_cost", "_farm", "_listed", "_choices")

    seed = property(attrgetter("_game.seed"))
    rules_version = property(attrgetter("_game.rules_version"))
    start_player = property(attrgetter("_game.start_player"))
    starting_hands = property(attrgetter("_game.starting_hands"))
    winners = property(attrgetter("_game.winners"))
    end_reason = property(attrgetter("_game.end_reason"))
    shuffles = property(attrgetter("_game.shuffles"))

    # -- cheap copies ------------------------------------------------------------------
    def copy(self) -> "GameState":
        """A shallow copy (safe, since every field is immutable). (``GameState()``: the class
        has no ``__init__``, and calling it costs less than ``object.__new__(GameState)``.)"""
        new = GameState()
        new.num_players = self.num_players
        new.deck = self.deck
        new.discard = self.discard
        new.market = self.market
        new.farm = self.farm
        new.reservations = self.reservations
        new.ships = self.ships
        new.hands = self.hands
        new.goods = self.goods
        new.tokens = self.tokens
        new.vp_cards = self.vp_cards
        new.vp_subs = self.vp_subs
        new.turn = self.turn
        new.phase = self.phase
        new.to_act = self.to_act
        new.sinking = self.sinking
        new.insurance_queue = self.insurance_queue
        new.passes = self.passes
        new._game = self._game
        new._goods = None
        return new

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in _SLOTS)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"<GameState {self.num_players}p phase={self.phase} to_act={self.to_act} "
                f"deck={len(self.deck)} market={list(self.market)} farm={list(self.farm)}>")

    def vp(self, seat: int) -> int:
        """That seat's VP count: VP cards plus substitutes (R-pay-2)."""
        return len(self.vp_cards[seat]) + self.vp_subs[seat]

    # -- JSON --------------------------------------------------------------------------
    def to_json(self) -> dict:
        """The full state as JSON-ready dict (docs/engine.md "Full state JSON"). Secret: the
        deck order, the seed and the VP piles are in it; never send it to a client."""
        reserved = {card: seat for seat, card in enumerate(self.reservations) if card is not None}
        return {
            "schema": SCHEMA,
            "num_players": self.num_players,
            "seed": self.seed,
            "shuffles": self.shuffles,
            "deck": list(self.deck),
            "discard": list(self.discard),
            "market": [{"card": c, "reserved_by": reserved.get(c)} for c in self.market],
            "farm": [{"card": c, "reserved_by": reserved.get(c)} for c in self.farm],
            "ships": {COLORS[i]: loc for i, loc in enumerate(self.ships)},
            "players": [
                {
                    "hand": list(self.hands[p]),
                    "goods": [{"card": c, "insured": ins} for c, ins in self.goods[p]],
                    "tokens": {COLORS[i]: n for i, n in enumerate(self.tokens[p])},
                    "vp_cards": list(self.vp_cards[p]),
                    "vp_substitutes": self.vp_subs[p],
                }
                for p in range(self.num_players)
            ],
            "start_player": self.start_player,
            "turn": self.turn,
            "phase": self.phase,
            "to_act": self.to_act,
            "sinking": [COLORS[i] for i in self.sinking],
            "insurance_queue": list(self.insurance_queue),
            "passes": self.passes,
            "winners": None if self.winners is None else list(self.winners),
            "starting_hands": [list(h) for h in self.starting_hands],
            "end_reason": self.end_reason,
            "rules_version": self.rules_version,
        }

    @classmethod
    def from_json(cls, obj: dict) -> "GameState":
        """Build a state from its JSON form. Keys beyond the contract's get defaults
        (``starting_hands`` empty, ``end_reason`` None, ``rules_version`` 1: a state saved
        before rules versions existed was made under version 1), and so do ``shuffles``, ``seed``,
        ``sinking``, ``insurance_queue``, ``passes``, ``winners``, ``to_act``.

        Raises:
            ValueError: the state is not well-formed (a card missing or twice, an unknown
                phase, a seat out of range, a bad type, a second reservation of one player…).
        """
        try:
            return _from_json(obj)
        except ValueError:
            raise
        except (TypeError, KeyError, AttributeError, IndexError) as exc:
            raise ValueError(f"malformed state: {exc!r}") from None


def is_over(state: GameState) -> bool:
    """Whether the game has ended (R-end-1): phase "over", nobody to act."""
    return state.phase == "over"


def _int(value, lo: int | None = None, hi: int | None = None, what: str = "value") -> int:
    if type(value) is not int:
        raise ValueError(f"{what} must be an integer")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise ValueError(f"{what} out of range: {value}")
    return value


def _cards(values, what: str) -> tuple[int, ...]:
    if not isinstance(values, (list, tuple)):
        raise ValueError(f"{what} must be a list of card ids")
    return tuple(_int(v, 0, NUM_CARDS - 1, what) for v in values)


def _colour_map(obj, what: str, lo: int, hi: int) -> tuple[int, ...]:
    if not isinstance(obj, dict) or set(obj) != set(COLORS):
        raise ValueError(f"{what} must map each of {COLORS} to a number")
    return tuple(_int(obj[c], lo, hi, what) for c in COLORS)


def _from_json(obj: dict) -> GameState:
    if not isinstance(obj, dict):
        raise ValueError("state must be an object")
    if obj.get("schema", SCHEMA) != SCHEMA:
        raise ValueError(f"unknown schema {obj.get('schema')!r}")
    n = _int(obj["num_players"], 2, 4, "num_players")
    s = GameState.__new__(GameState)
    sa = object.__setattr__
    sa(s, "_goods", None)
    sa(s, "num_players", n)
    version = obj.get("rules_version", 1)
    if type(version) is not int or version not in RULES_VERSIONS:
        raise ValueError(f"unknown rules_version {version!r} (this engine plays {RULES_VERSIONS})")
    seed = _int(obj.get("seed", 0), what="seed")
    shuffles = _int(obj.get("shuffles", 0), 0, what="shuffles")
    sa(s, "deck", _cards(obj["deck"], "deck"))
    sa(s, "discard", _cards(obj["discard"], "discard"))

    reservations: list[int | None] = [None] * n

    def row(entries, what):
        out = []
        if not isinstance(entries, list):
            raise ValueError(f"{what} must be a list")
        for e in entries:
            if isinstance(e, int) and not isinstance(e, bool):
                e = {"card": e, "reserved_by": None}
            card = _int(e["card"], 0, NUM_CARDS - 1, what)
            by = e.get("reserved_by")
            if by is not None:
                _int(by, 0, n - 1, "reserved_by")
                if reservations[by] is not None:
                    raise ValueError(f"seat {by} has two Reservation pieces on cards")
                reservations[by] = card
            out.append(card)
        return tuple(out)

    sa(s, "market", row(obj["market"], "market"))
    sa(s, "farm", row(obj["farm"], "farm"))
    sa(s, "reservations", tuple(reservations))
    sa(s, "ships", _colour_map(obj["ships"], "ships", 0, 5))

    players = obj["players"]
    if not isinstance(players, list) or len(players) != n:
        raise ValueError("players must list one entry per seat")
    hands, goods, tokens, vps, subs = [], [], [], [], []
    for p in players:
        hands.append(_cards(p["hand"], "hand"))
        g = []
        for e in p.get("goods", []):
            if not isinstance(e.get("insured", False), bool):
                raise ValueError("insured must be a boolean")
            g.append((_int(e["card"], 0, NUM_CARDS - 1, "goods"), e.get("insured", False)))
        goods.append(tuple(g))
        tokens.append(_colour_map(p.get("tokens", {c: 0 for c in COLORS}), "tokens", 0, None))
        vps.append(_cards(p.get("vp_cards", []), "vp_cards"))
        subs.append(_int(p.get("vp_substitutes", 0), 0, what="vp_substitutes"))
    sa(s, "hands", tuple(hands))
    sa(s, "goods", tuple(goods))
    sa(s, "tokens", tuple(tokens))
    sa(s, "vp_cards", tuple(vps))
    sa(s, "vp_subs", tuple(subs))

    seen = list(s.deck) + list(s.discard) + list(s.market) + list(s.farm)
    for p in range(n):
        seen += hands[p]
        seen += [c for c, _ in goods[p]]
        seen += vps[p]
    if sorted(seen) != list(ALL_CARDS):
        missing = sorted(set(ALL_CARDS) - set(seen))
        twice = sorted({c for c in seen if seen.count(c) > 1})
        raise ValueError(f"every card must be in exactly one place (missing {missing[:10]}, "
                         f"twice {twice[:10]})")

    phase = obj["phase"]
    if phase not in PHASES:
        raise ValueError(f"unknown phase {phase!r}")
    sa(s, "phase", phase)
    start_player = _int(obj.get("start_player", 0), 0, n - 1, "start_player")
    sa(s, "turn", _int(obj.get("turn", start_player), 0, n - 1, "turn"))
    sinking = obj.get("sinking", [])
    if not isinstance(sinking, list) or any(c not in COLOR_INDEX for c in sinking):
        raise ValueError("sinking must list colours")
    sa(s, "sinking", tuple(sorted({COLOR_INDEX[c] for c in sinking})))
    queue = obj.get("insurance_queue", [])
    if not isinstance(queue, list):
        raise ValueError("insurance_queue must be a list")
    sa(s, "insurance_queue", tuple(_int(q, 0, n - 1, "insurance_queue") for q in queue))
    sa(s, "passes", _int(obj.get("passes", 0), 0, what="passes"))
    winners = obj.get("winners")
    if winners is not None:
        if not isinstance(winners, list):
            raise ValueError("winners must be a list or null")
        winners = tuple(_int(w, 0, n - 1, "winners") for w in winners)
    starting = obj.get("starting_hands") or []
    starting = tuple(_cards(h, "starting_hands") for h in starting)
    reason = obj.get("end_reason")
    if reason not in (None, "tokens", "passes"):
        raise ValueError(f"unknown end_reason {reason!r}")
    sa(s, "_game", Game(seed, version, start_player, starting, winners, reason, shuffles))

    default_to_act = {"token_draft": start_player, "turn": s.turn, "over": None,
                      "insurance": s.insurance_queue[0] if s.insurance_queue else None}[phase]
    to_act = obj.get("to_act", default_to_act)
    if phase == "over":
        if to_act is not None:
            raise ValueError("to_act must be null once the game is over")
        if s.winners is None:
            raise ValueError("a finished game names its winners")
    else:
        to_act = _int(to_act, 0, n - 1, "to_act")
        if phase == "turn" and to_act != s.turn:
            raise ValueError("in the turn phase, to_act is the active player")
        if phase == "insurance" and (not s.insurance_queue or s.insurance_queue[0] != to_act
                                     or not s.sinking):
            raise ValueError("in the insurance phase, to_act heads the insurance queue")
    sa(s, "to_act", to_act)
    return s
