"""Actions: one small class per kind, and their JSON form (docs/engine.md "Actions (JSON)").

Actions are immutable values compared by content. ``action_from_json`` is the only way in
from untrusted input; it accepts exactly the documented shapes.
"""
from __future__ import annotations

from .cards import COLOR_INDEX, COLORS, NUM_CARDS
from .errors import IllegalAction


class Action:
    """Base class of the six action kinds. ``type`` is the JSON ``"type"`` string."""

    __slots__ = ()
    type = ""

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


class ChooseToken(Action):
    """Take one Achievement token of a colour in the token draft (R-setup-5).
    ``color`` is the colour index 0..3."""

    __slots__ = ("color",)
    type = "choose_token"

    def __init__(self, color: int) -> None:
        self.color = color

    def _key(self) -> tuple:
        return (self.color,)

    def to_json(self) -> dict:
        return {"type": "choose_token", "color": COLORS[self.color]}


class Buy(Action):
    """Buy every Market good not reserved by another player, paying with ``payment``,
    a tuple of hand card ids (R-buy)."""

    __slots__ = ("payment",)
    type = "buy"

    def __init__(self, payment: tuple[int, ...]) -> None:
        self.payment = tuple(payment)

    def _key(self) -> tuple:
        return (tuple(sorted(self.payment)),)

    def to_json(self) -> dict:
        return {"type": "buy", "payment": list(self.payment)}


class Take(Action):
    """Take one Market card into the hand as a coin (R-take)."""

    __slots__ = ("card",)
    type = "take"

    def __init__(self, card: int) -> None:
        self.card = card

    def _key(self) -> tuple:
        return (self.card,)

    def to_json(self) -> dict:
        return {"type": "take", "card": self.card}


class Reserve(Action):
    """Put the Reservation piece on a Market or Farm card (R-reserve)."""

    __slots__ = ("card",)
    type = "reserve"

    def __init__(self, card: int) -> None:
        self.card = card

    def _key(self) -> tuple:
        return (self.card,)

    def to_json(self) -> dict:
        return {"type": "reserve", "card": self.card}


class Insure(Action):
    """Discard hand cards (``discard``) to insure own goods (``goods``) of sinking colours
    (R-pay-6). Both may be empty: insuring nothing is always allowed."""

    __slots__ = ("discard", "goods")
    type = "insure"

    def __init__(self, discard: tuple[int, ...] = (), goods: tuple[int, ...] = ()) -> None:
        self.discard = tuple(discard)
        self.goods = tuple(goods)

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
            refuse (``duplicate_card``). An ``Action`` object is returned as it is when its
            fields have the shapes its JSON form would have, else refused the same way.
    """
    if isinstance(obj, Action):
        return _checked_object(obj)
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
        return ChooseToken(COLOR_INDEX[color])
    if kind == "buy":
        return Buy(_card_list(obj["payment"]))
    if kind == "take":
        return Take(_card(obj["card"]))
    if kind == "reserve":
        return Reserve(_card(obj["card"]))
    if kind == "insure":
        return Insure(_card_list(obj["discard"]), _card_list(obj["goods"]))
    return Pass()


def _checked_object(action: Action) -> Action:
    """An Action object passed in directly must hold what its JSON form would: card ids
    0..107 (tuples for lists), a colour index 0..3."""
    kind = type(action)
    if kind is ChooseToken:
        if type(action.color) is not int or not 0 <= action.color < len(COLORS):
            raise IllegalAction("malformed", "color must be a colour index 0..3")
    elif kind is Take or kind is Reserve:
        _card(action.card)
    elif kind is Buy:
        _card_tuple(action.payment)
    elif kind is Insure:
        _card_tuple(action.discard)
        _card_tuple(action.goods)
    elif kind is not Pass:
        raise IllegalAction("malformed", f"unknown action class {kind.__name__}")
    return action


def _card_tuple(value) -> None:
    if len(value) > _MAX_LIST:
        raise IllegalAction("malformed", "expected a list of card ids")
    for v in value:
        _card(v)
