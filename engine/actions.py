"""Actions: one small class per kind, and their JSON form (docs/engine.md "Actions (JSON)").

Actions are immutable values compared by content. ``action_from_json`` is the only way in
from untrusted input; it accepts exactly the documented shapes.
"""
from __future__ import annotations

from operator import attrgetter

from .cards import COLOR_INDEX, COLORS, NUM_CARDS
from .errors import IllegalAction


class Action:
    """Base class of the six action kinds. ``type`` is the JSON ``"type"`` string.

    Actions are immutable (setting a field raises ``AttributeError``; Buy and Insure keep
    their fields in private slots behind read-only properties) and valid by construction: a
    constructor given a field that its JSON form could not hold raises
    ``IllegalAction("malformed")``.
    """

    __slots__ = ()
    type = ""
    #: The state whose ``legal_actions`` built this very object (Buy and Insure only, see
    #: ``legal.py``), else None. Not part of the action: never compared, not in the JSON.
    _of = None

    def _key(self) -> tuple:
        raise NotImplementedError

    def to_json(self) -> dict:
        """The action's JSON dict, e.g. ``{"type": "take", "card": 41}``."""
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and self._key() == other._key()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((self.type, self._key()))

    def __repr__(self) -> str:
        return f"{type(self).__name__}{self._key()}"


_set = object.__setattr__
_new = object.__new__


class _Fixed(Action):
    """An action kind whose fields are public slots: setting or deleting any attribute
    raises ``AttributeError`` (Buy and Insure get the same from read-only properties)."""

    __slots__ = ()

    def __setattr__(self, name, value) -> None:
        raise AttributeError("actions are immutable")

    __delattr__ = __setattr__


class ChooseToken(_Fixed):
    """Take one Achievement token of a colour in the token draft (R-setup-5).
    ``color`` is the colour index 0..3."""

    __slots__ = ("color",)
    type = "choose_token"

    def __init__(self, color: int) -> None:
        if type(color) is not int or not 0 <= color < len(COLORS):
            raise IllegalAction("malformed", "color must be a colour index 0..3")
        _set(self, "color", color)

    def _key(self) -> tuple:
        return (self.color,)

    def to_json(self) -> dict:
        return {"type": "choose_token", "color": COLORS[self.color]}


class Buy(Action):
    """Buy every Market good not reserved by another player, paying with ``payment``,
    a tuple of hand card ids (R-buy)."""

    # The fields live in private slots behind read-only properties, set as any class sets
    # its slots (the class is not a ``_Fixed`` one): ``legal_actions`` builds a Buy per
    # payment, and a plain slot store costs a tenth of a call of the slot's setter
    # (``buy.payment = ...`` still raises AttributeError: the property has no setter).
    __slots__ = ("_payment", "_of")
    type = "buy"
    payment = property(attrgetter("_payment"), doc="the payment, a tuple of card ids")

    def __init__(self, payment) -> None:
        self._payment = _card_list(list(payment))
        self._of = None

    def __reduce__(self):
        return (Buy, (self.payment,))

    def _key(self) -> tuple:
        return (tuple(sorted(self.payment)),)

    def to_json(self) -> dict:
        return {"type": "buy", "payment": list(self.payment)}


class Take(_Fixed):
    """Take one Market card into the hand as a coin (R-take)."""

    __slots__ = ("card",)
    type = "take"

    def __init__(self, card: int) -> None:
        _set(self, "card", _card(card))

    def _key(self) -> tuple:
        return (self.card,)

    def to_json(self) -> dict:
        return {"type": "take", "card": self.card}


class Reserve(_Fixed):
    """Put the Reservation piece on a Market or Farm card (R-reserve)."""

    __slots__ = ("card",)
    type = "reserve"

    def __init__(self, card: int) -> None:
        _set(self, "card", _card(card))

    def _key(self) -> tuple:
        return (self.card,)

    def to_json(self) -> dict:
        return {"type": "reserve", "card": self.card}


class Insure(Action):
    """Discard hand cards (``discard``) to insure own goods (``goods``) of sinking colours
    (R-pay-6). Both may be empty: insuring nothing is always allowed."""

    # Private slots behind read-only properties, set as any class does (as for Buy).
    __slots__ = ("_discard", "_goods", "_of")
    type = "insure"
    discard = property(attrgetter("_discard"), doc="hand cards discarded, a tuple of ids")
    goods = property(attrgetter("_goods"), doc="own goods insured, a tuple of card ids")

    def __init__(self, discard=(), goods=()) -> None:
        self._discard = _card_list(list(discard))
        self._goods = _card_list(list(goods))
        self._of = None

    def __reduce__(self):
        return (Insure, (self.discard, self.goods))

    def _key(self) -> tuple:
        return (tuple(sorted(self.discard)), tuple(sorted(self.goods)))

    def to_json(self) -> dict:
        return {"type": "insure", "discard": list(self.discard), "goods": list(self.goods)}


class Pass(_Fixed):
    """Pass: only legal when nothing else is (R-turn-3)."""

    __slots__ = ()
    type = "pass"

    def _key(self) -> tuple:
        return ()

    def to_json(self) -> dict:
        return {"type": "pass"}


_MAX_LIST = NUM_CARDS


def _card(value) -> int:
    if type(value) is not int or not 0 <= value < NUM_CARDS:
        raise IllegalAction("malformed", f"a card id must be an integer 0..{NUM_CARDS - 1}")
    return value


def _card_list(value) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) > _MAX_LIST:
        raise IllegalAction("malformed", "expected a list of card ids")
    return tuple(_card(v) for v in value)


# -- the engine's own actions: shared where the value allows, built without re-checking ----
TAKE: tuple[Take, ...] = tuple(Take(c) for c in range(NUM_CARDS))
RESERVE: tuple[Reserve, ...] = tuple(Reserve(c) for c in range(NUM_CARDS))
CHOOSE_TOKEN: tuple[ChooseToken, ...] = tuple(ChooseToken(c) for c in range(len(COLORS)))
PASS = Pass()


def buy_of(payment: tuple[int, ...], of=None) -> Buy:
    """A Buy of valid card ids (the engine's listing), without re-checking them; ``of``: the
    state whose ``legal_actions`` lists it (``Action._of``)."""
    b = _new(Buy)
    b._payment = payment
    b._of = of
    return b


def insure_of(discard: tuple[int, ...], goods: tuple[int, ...], of=None) -> Insure:
    """An Insure of valid card ids (the engine's listing), without re-checking them; ``of``
    as for ``buy_of``."""
    a = _new(Insure)
    a._discard = discard
    a._goods = goods
    a._of = of
    return a


_FIELDS = {
    "choose_token": {"color"},
    "buy": {"payment"},
    "take": {"card"},
    "reserve": {"card"},
    "insure": {"discard", "goods"},
    "pass": set(),
}


def action_from_json(obj) -> Action:
    """Parse an action JSON dict into an Action.

    Raises:
        IllegalAction: code ``malformed`` for anything that is not exactly one of the
            documented shapes (unknown type, missing or extra keys, wrong value types,
            card ids outside 0..107). Duplicate ids in a list are left for the rules to
            refuse (``duplicate_card``). An ``Action`` object (valid by construction) is
            returned as it is.
    """
    if isinstance(obj, Action):
        if type(obj) not in _KINDS:
            raise IllegalAction("malformed", f"unknown action class {type(obj).__name__}")
        return obj
    if not isinstance(obj, dict):
        raise IllegalAction("malformed", "an action must be a JSON object")
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise IllegalAction("malformed", f"unknown action type {str(kind)[:40]!r}")
    if set(obj) - {"type"} != _FIELDS[kind]:
        raise IllegalAction("malformed", f"a {kind} action has exactly the keys "
                            f"{sorted(_FIELDS[kind] | {'type'})}")
    if kind == "choose_token":
        color = obj["color"]
        if not isinstance(color, str) or color not in COLOR_INDEX:
            raise IllegalAction("malformed", f"color must be one of {', '.join(COLORS)}")
        return CHOOSE_TOKEN[COLOR_INDEX[color]]
    if kind == "buy":
        return buy_of(_card_list(obj["payment"]))
    if kind == "take":
        return TAKE[_card(obj["card"])]
    if kind == "reserve":
        return RESERVE[_card(obj["card"])]
    if kind == "insure":
        return insure_of(_card_list(obj["discard"]), _card_list(obj["goods"]))
    return PASS


_KINDS = frozenset((ChooseToken, Buy, Take, Reserve, Insure, Pass))
