"""The tutorial's deal played through (issue 32, "Learn to play"; docs/ui.md "Learn to play").

A tutorial room (app/tutorial.py) is a real game on a fixed seed where every computer player and
the person's suggestions are the normal computer player with the seed derived from its view
(``choose_action(view, "normal", history=…, seed=None)``: a pure function of what the seat
sees), so the same deal plays the same way every time the person follows the suggestions.

``play_through(seed, players)`` plays such a game with the engine alone and reports, for the
person's seat 0, when each rule the guide explains first comes up (``RULES``). The seed finder
(tools/tutorial_seed.py) and the tests use it; the server plays the same moves.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from engine import is_over, new_game, play, player_view, visible_events

from . import choose_action

#: The level of every computer player of a tutorial and of the person's suggestions.
TUTORIAL_LEVEL = "normal"
#: The rules the guide explains (static/js/learn.js), in the order a first game meets them:
#: the token draft (R-setup-5), take (R-take), reserve (R-reserve), buying the whole Market
#: (R-buy-1..4), ships advancing (R-buy-5), a payment in Edo with the token bonus (R-pay-1..3),
#: the Black Tide (R-pay-5) and the person's insurance (R-pay-6), the refresh (R-refresh) and
#: the end at 8 tokens (R-pay-4).
RULES = ("draft", "take", "reserve", "buy", "ships", "payment", "tide", "insure", "refresh", "end")


@dataclass
class PlayThrough:
    """A tutorial game played to its end: `first[rule]` = the number of the person's decisions
    made before that rule first came up (0 = before their first), `decisions` the person's
    decisions in all, `plies` every seat's, `events` seat 0's events in order."""
    first: dict[str, int] = field(default_factory=dict)
    decisions: int = 0
    plies: int = 0
    events: list[dict] = field(default_factory=list)


def suggestion(view: dict, history: list[dict]) -> dict:
    """The tutorial's move for the seat of `view` (a player view whose decision it is) with the
    events it received (`history`): the normal computer player seeded by the view itself."""
    return choose_action(view, TUTORIAL_LEVEL, history=history, seed=None)


def rules_in(events: list[dict], person: int = 0) -> set[str]:
    """The rules of `RULES` these events (seat `person`'s, in order) show coming up, besides
    the person's own decisions: a ship moved, a sale with a token bonus (its price above the
    set's highest card), a Black Tide, a refresh, the end by tokens."""
    out = set()
    for ev in events:
        kind = ev["type"]
        if kind == "ship_moved":
            out.add("ships")
        elif kind == "sale" and ev["price"] > _highest(ev["cards"]):
            out.add("payment")
        elif kind == "black_tide":
            out.add("tide")
        elif kind == "refresh":
            out.add("refresh")
        elif kind == "game_over" and ev["reason"] == "tokens":
            out.add("end")
    return out


def _highest(cards: list[int]) -> int:
    from engine import CARD_VALUES  # noqa: PLC0415 - one table
    return max(CARD_VALUES[c] for c in cards)


def play_through(seed: int, players: int, max_plies: int = 2000) -> PlayThrough:
    """Play the tutorial deal `seed` with `players` seats, every seat the tutorial's move
    (`suggestion`), and note when each rule first comes up for seat 0 (`PlayThrough`).
    ValueError when the game does not end within `max_plies` decisions."""
    state = new_game(players, seed)
    histories: list[list[dict]] = [[] for _ in range(players)]
    out = PlayThrough()
    kinds = {"choose_token": "draft", "take": "take", "reserve": "reserve", "buy": "buy", "insure": "insure"}
    while not is_over(state):
        if out.plies >= max_plies:
            raise ValueError(f"seed {seed}: no end within {max_plies} decisions")
        seat = state.to_act
        action = suggestion(player_view(state, seat), histories[seat])
        if seat == 0:
            out.first.setdefault(kinds.get(action["type"], "pass"), out.decisions)
            out.decisions += 1
        state, events = play(state, seat, action)
        out.plies += 1
        for s in range(players):
            histories[s] += visible_events(events, s)
        for rule in rules_in(visible_events(events, 0)):
            out.first.setdefault(rule, out.decisions)
    out.events = histories[0]
    out.first.pop("pass", None)
    return out


__all__ = ["PlayThrough", "RULES", "TUTORIAL_LEVEL", "play_through", "rules_in", "suggestion"]
