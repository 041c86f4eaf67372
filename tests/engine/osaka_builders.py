"""Helpers for the engine tests: the card catalogue, a hand-built position builder and
small action shortcuts.

Everything here talks to the engine only through its public contract
(docs/engine.md): ``GameState.from_json``, ``play``, ``apply_action``, ``player_view``,
``legal_actions``. The card catalogue is re-derived from the contract (R-comp-1,
R-comp-2) on purpose, so the tests do not trust the engine's own tables.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable

from engine import GameState, IllegalAction, apply_action, legal_actions, play

COLORS = ("red", "blue", "yellow", "green")
ALL_CARDS = tuple(range(108))
_BASE = {2: 0, 3: 11, 5: 20}
_COUNT = {2: 11, 3: 9, 5: 7}


def card(color: str, value: int, n: int = 0) -> int:
    """Card id of the ``n``-th card of that colour and value (R-comp-1 id scheme)."""
    assert 0 <= n < _COUNT[value], (color, value, n)
    return COLORS.index(color) * 27 + _BASE[value] + n


def color_of(cid: int) -> str:
    """Colour name of a card id (``id // 27``)."""
    return COLORS[cid // 27]


def value_of(cid: int) -> int:
    """Coin value of a card id: 2, 3 or 5 (R-comp-1)."""
    k = cid % 27
    return 2 if k <= 10 else 3 if k <= 19 else 5


def icons_of(cid: int) -> int:
    """Insurance icons of a card id (R-comp-2): 2 on a 2, 1 on a 3, 0 on a 5."""
    return {2: 2, 3: 1, 5: 0}[value_of(cid)]


class Pool:
    """Hands out distinct card ids by colour and value so a test never uses a card twice.

    ``pool.take("red", 5)`` returns the next unused red 5; ``pool.take("red", 5, 3)``
    returns a list of three.
    """

    def __init__(self) -> None:
        self._next: Counter = Counter()

    def take(self, color: str, value: int, count: int | None = None):
        ids = []
        for _ in range(1 if count is None else count):
            n = self._next[(color, value)]
            self._next[(color, value)] += 1
            ids.append(card(color, value, n))
        return ids[0] if count is None else ids


def _slot(entry) -> dict:
    """``5`` or ``(5, 2)`` → ``{"card": 5, "reserved_by": None|2}``."""
    if isinstance(entry, tuple):
        return {"card": entry[0], "reserved_by": entry[1]}
    return {"card": entry, "reserved_by": None}


def _good(entry) -> dict:
    """``5`` or ``(5, True)`` → ``{"card": 5, "insured": False|True}``."""
    if isinstance(entry, tuple):
        return {"card": entry[0], "insured": entry[1]}
    return {"card": entry, "insured": False}


def state_dict(
    *,
    num_players: int = 2,
    market: Iterable = (),
    farm: Iterable = (),
    ships: dict | None = None,
    players: list[dict] | None = None,
    deck: Iterable[int] = (),
    discard: Iterable[int] = (),
    rest: Any = "deck",
    turn: int = 0,
    phase: str = "turn",
    to_act: Any = "auto",
    start_player: int = 0,
    sinking: Iterable[str] = (),
    insurance_queue: Iterable[int] = (),
    passes: int = 0,
    winners: list[int] | None = None,
    seed: int = 7,
    shuffles: int = 1,
) -> dict:
    """A well-formed full state dict with only the contract keys (docs/engine.md).

    ``market``/``farm`` entries are ids or ``(id, reserved_by)``; player dicts may give
    ``hand``, ``goods`` (ids or ``(id, insured)``), ``tokens`` (partial colour → count),
    ``vp_cards`` and ``vp_substitutes``. ``deck`` is the top of the draw pile (index 0
    drawn next). Every card not placed anywhere goes to ``rest``: ``"deck"`` (after the
    given deck cards), ``"discard"``, or ``("vp", seat)`` (that seat's VP pile, used to
    build positions where both piles are empty). ``to_act`` defaults to the active player
    in the ``turn`` phase, the head of the insurance queue, the start player in the
    draft and ``None`` once over.
    """
    players = [dict(p) for p in (players or [])]
    while len(players) < num_players:
        players.append({})
    pl = []
    for p in players:
        tokens = {c: 0 for c in COLORS}
        tokens.update(p.get("tokens", {}))
        pl.append({
            "hand": list(p.get("hand", [])),
            "goods": [_good(g) for g in p.get("goods", [])],
            "tokens": tokens,
            "vp_cards": list(p.get("vp_cards", [])),
            "vp_substitutes": p.get("vp_substitutes", 0),
        })
    market = [_slot(m) for m in market]
    farm = [_slot(f) for f in farm]
    deck = list(deck)
    discard = list(discard)
    used = [s["card"] for s in market + farm] + deck + discard
    for p in pl:
        used += p["hand"] + [g["card"] for g in p["goods"]] + p["vp_cards"]
    dup = [c for c, k in Counter(used).items() if k > 1]
    assert not dup, f"cards placed twice: {dup}"
    left = [c for c in ALL_CARDS if c not in set(used)]
    if rest == "deck":
        deck += left
    elif rest == "discard":
        discard = left + discard
    elif isinstance(rest, tuple) and rest[0] == "vp":
        pl[rest[1]]["vp_cards"] += left
    else:
        raise AssertionError(f"unknown rest target {rest!r}")
    if to_act == "auto":
        to_act = {"turn": turn, "insurance": (list(insurance_queue) or [None])[0],
                  "token_draft": start_player, "over": None}[phase]
    return {
        "schema": 1,
        "num_players": num_players,
        "seed": seed,
        "shuffles": shuffles,
        "deck": deck,
        "discard": discard,
        "market": market,
        "farm": farm,
        "ships": {c: 0 for c in COLORS} | dict(ships or {}),
        "players": pl,
        "start_player": start_player,
        "turn": turn,
        "phase": phase,
        "to_act": to_act,
        "sinking": list(sinking),
        "insurance_queue": list(insurance_queue),
        "passes": passes,
        "winners": winners,
    }


def build(**kw) -> GameState:
    """``GameState.from_json(state_dict(**kw))``: a hand-built, well-formed position."""
    return GameState.from_json(state_dict(**kw))


def act(state: GameState, seat: int, action: dict) -> tuple[GameState, list[dict], dict]:
    """Play ``action`` (JSON form) through ``play``; return (new state, events, new JSON).

    Also checks the contract's no-mutation promise on every call.
    """
    before = state.to_json()
    new, events = play(state, seat, action)
    assert state.to_json() == before, "play mutated its input state"
    return new, events, new.to_json()


def refused(state: GameState, seat: int, action: Any) -> IllegalAction:
    """Assert that ``action`` is refused with ``IllegalAction`` and changes nothing."""
    before = state.to_json()
    try:
        apply_action(state, seat, action)
    except IllegalAction as exc:
        assert state.to_json() == before
        assert isinstance(exc.code, str) and exc.code, exc
        return exc
    raise AssertionError(f"{action!r} by seat {seat} was accepted")


def of_type(events: list[dict], kind: str) -> list[dict]:
    """The events of one ``type``, in order."""
    return [e for e in events if e["type"] == kind]


def types(events: list[dict]) -> list[str]:
    """The event types, in order."""
    return [e["type"] for e in events]


def market_ids(js: dict) -> list[int]:
    """Card ids of the Market of a state/view JSON, in layout order."""
    return [s["card"] for s in js["market"]]


def farm_ids(js: dict) -> list[int]:
    """Card ids of the Farm of a state/view JSON, in layout order."""
    return [s["card"] for s in js["farm"]]


def goods_ids(js: dict, seat: int) -> list[int]:
    """Card ids of a seat's merchandise."""
    return [g["card"] for g in js["players"][seat]["goods"]]


def actions_json(state: GameState, seat: int) -> list[dict]:
    """``legal_actions`` in JSON form."""
    return [a.to_json() for a in legal_actions(state, seat)]


def all_card_places(js: dict) -> Counter:
    """How often each card id appears across every place of a full state JSON."""
    ids = list(js["deck"]) + list(js["discard"])
    ids += [s["card"] for s in js["market"]] + [s["card"] for s in js["farm"]]
    for p in js["players"]:
        ids += list(p["hand"]) + [g["card"] for g in p["goods"]] + list(p["vp_cards"])
    return Counter(ids)


def vp_of(js: dict, seat: int) -> int:
    """VP count of a seat in a full state JSON: VP cards plus substitutes (R-pay-2)."""
    p = js["players"][seat]
    return len(p["vp_cards"]) + p["vp_substitutes"]
