"""Actions: one small class per kind, and their JSON form (docs/engine.md "Actions (JSON)").

Actions are immutable values compared by content. ``action_from_json`` is the only way in
from untrusted input; it accepts exactly the documented shapes.
"""
from __future__ import annotations

from .cards import COLOR_INDEX, COLORS, NUM_CARDS
from .errors import IllegalAction


class Action:
    """Base class of the six action kinds. ``type`` is the JSON ``"type"`` string.

    Actions are immutable (setting an attribute raises ``AttributeError``) and valid by
    construction: a constructor given a field that its JSON form could not hold raises
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

    def __setattr__(self, name, value) -> None:
        raise AttributeError("actions are immutable")

    __delattr__ = __setattr__

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and self._key() == other._key()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((self.type, self._key()))

    def __repr__(self) -> str:
        return f"{type(self).__name__}{self._key()}"


_set = object.__setattr__
_new = object.__new__


class ChooseToken(Action):
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

    __slots__ = ("payment", "_of")
    type = "buy"

    def __init__(self, payment) -> None:
        _set(self, "payment", _card_list(list(payment)))
        _set(self, "_of", None)

    def __reduce__(self):
        return (Buy, (self.payment,))

    def _key(self) -> tuple:
        return (tuple(sorted(self.payment)),)

    def to_json(self) -> dict:
        return {"type": "buy", "payment": list(self.payment)}


class Take(Action):
    """Take one Market card into the hand as a coin (R-take)."""

    __slots__ = ("card",)
    type = "take"

    def __init__(self, card: int) -> None:
        _set(self, "card", _card(card))

    def _key(self) -> tuple:
        return (self.card,)

    def to_json(self) -> dict:
        return {"type": "take", "card": self.card}


class Reserve(Action):
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

    __slots__ = ("discard", "goods", "_of")
    type = "insure"

    def __init__(self, discard=(), goods=()) -> None:
        _set(self, "discard", _card_list(list(discard)))
        _set(self, "goods", _card_list(list(goods)))
        _set(self, "_of", None)

    def __reduce__(self):
        return (Insure, (self.discard, self.goods))

    def _key(self) -> tuple:
        return (tuple(sorted(self.discard)), tuple(sorted(self.goods)))

    def to_json(self) -> dict:
        return {"type": "insure", "discard": list(self.discard), "goods": list(self.goods)}


class Pass(Action):
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


#: The slots' own setters (``Buy.payment.__set__`` and so on): they fill a new object, as
#: ``object.__setattr__`` would, at about two thirds of its cost (no look-up by name).
BUY_PAYMENT = Buy.payment.__set__
BUY_OF = Buy._of.__set__
INSURE_DISCARD = Insure.discard.__set__
INSURE_GOODS = Insure.goods.__set__
INSURE_OF = Insure._of.__set__


def buy_of(payment: tuple[int, ...], of=None) -> Buy:
    """A Buy of valid card ids (the engine's listing), without re-checking them; ``of``: the
    state whose ``legal_actions`` lists it (``Action._of``)."""
    b = _new(Buy)
    BUY_PAYMENT(b, payment)
    BUY_OF(b, of)
    return b


def insure_of(discard: tuple[int, ...], goods: tuple[int, ...], of=None) -> Insure:
    """An Insure of valid card ids (the engine's listing), without re-checking them; ``of``
    as for ``buy_of``."""
    a = _new(Insure)
    INSURE_DISCARD(a, discard)
    INSURE_GOODS(a, goods)
    INSURE_OF(a, of)
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
