"""From a player's view (and its public event history) to full engine states.

A bot sees exactly what a human in its seat sees (R-info): its ``player_view`` and the events
with ``visible_to`` null or its own seat. To ask the engine for legal actions or to look ahead,
it fills in the hidden parts with one plausible guess (a *determinization*):

- Opponents' hands. With the history they are known exactly (R-info-4): starting hands are
  public (``starting_hands`` in the view, R-setup-3), every ``take`` names its card, every
  ``buy`` names its payment and every ``insure`` its discards. Without a history, or when the
  tracked hand does not match the public hand size, the hand is sampled from the unseen cards.
- VP piles. Each public ``sale`` event gives the VPs earned, the set, the cards discarded and the
  count drawn from the draw pile (R-pay-2), so the set cards in each VP pile are known and only
  the drawn ones are unknown. Without a history, our own count is the view's ``vp`` and the rest
  of the VP cards (their total is fixed by card conservation) is split between opponents in
  proportion to the tokens they earned from sales.
- The draw pile: the remaining unseen cards, shuffled.
- The seed: a fresh random one, so future reshuffles are random to the bot too.

Only the keys a view has are read (``VIEW_KEYS_READ``); a full state or anything with a ``deck``
is refused, so a bot can never peek at hidden information.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .cards import ALL_CARDS, COLORS

#: Keys of a player view that the determinization reads (all listed in docs/engine.md).
VIEW_KEYS_READ = frozenset({
    "seat", "num_players", "phase", "turn", "to_act", "start_player", "starting_hands",
    "deck_size", "discard", "market", "farm", "ships", "sinking", "insurance_queue",
    "passes", "winners", "players",
})
#: Keys that only a full server state has; a bot refuses input holding any of them.
FORBIDDEN_KEYS = frozenset({"deck", "seed", "shuffles"})
FORBIDDEN_PLAYER_KEYS = frozenset({"vp_cards", "vp_substitutes"})


def check_view(view: object) -> None:
    """Raise ``TypeError`` unless ``view`` is a dict, ``ValueError`` if it is not a seat's view.

    A view must have a ``seat`` (not ``None``), its own ``hand`` and ``vp``, and none of the
    full state's secret keys (``deck``, ``seed``, ``shuffles``, ``vp_cards`` …).
    """
    if not isinstance(view, dict):
        raise TypeError(f"a bot takes a player view dict, not {type(view).__name__}")
    bad = FORBIDDEN_KEYS & view.keys()
    if bad:
        raise ValueError(f"a bot must only see a player view; got hidden keys {sorted(bad)}")
    missing = (VIEW_KEYS_READ - {"starting_hands", "passes", "start_player"}) - view.keys()
    if missing:
        raise ValueError(f"not a player view: missing {sorted(missing)}")
    seat = view["seat"]
    if not isinstance(seat, int) or not 0 <= seat < len(view["players"]):
        raise ValueError("a bot needs the view of a seat (seat is None or out of range)")
    for i, pl in enumerate(view["players"]):
        if FORBIDDEN_PLAYER_KEYS & pl.keys():
            raise ValueError("a bot must only see a player view; got vp_cards")
        if i != seat and "hand" in pl and view["phase"] != "over":
            raise ValueError("a bot must not see another seat's hand")
    if "hand" not in view["players"][seat]:
        raise ValueError("the view has no hand for its own seat")


@dataclass
class Knowledge:
    """What a seat knows about the hidden parts, from its view and history.

    ``hands[s]`` is the exact hand of seat ``s`` when known (always for the bot's own seat),
    else ``None``; ``vp_known[s]`` the VP cards of seat ``s`` whose identity is known,
    ``vp_unknown[s]`` how many more of its VP cards are unknown, ``vp_subs[s]`` substitutes;
    ``unseen`` the cards the seat has not seen anywhere; ``exact`` whether the history was used.
    """

    seat: int
    n: int
    unseen: list[int]
    deck_size: int
    hands: list[list[int] | None]
    vp_known: list[list[int]]
    vp_unknown: list[int]
    vp_subs: list[int]
    shuffles: int
    exact: bool

    def vp_estimate(self, s: int) -> int:
        """The (known or estimated) VP total of seat ``s``."""
        return len(self.vp_known[s]) + self.vp_unknown[s] + self.vp_subs[s]


def _visible_cards(view: dict) -> set[int]:
    seen = set(view["discard"])
    seen.update(m["card"] for m in view["market"])
    seen.update(m["card"] for m in view["farm"])
    for pl in view["players"]:
        seen.update(g["card"] for g in pl["goods"])
    seen.update(view["players"][view["seat"]]["hand"])
    return seen


def build_knowledge(view: dict, history: list[dict] | None = None) -> Knowledge:
    """Work out the seat's knowledge (see ``Knowledge``) from its view and event history.

    ``history`` is the list of events the seat has received since the start of the game
    (filtered by ``visible_to``); a partial or inconsistent history is detected by card
    counting and ignored where it does not fit. Raises ``TypeError``/``ValueError`` for input
    that is not a seat's view (``check_view``).
    """
    check_view(view)
    seat = view["seat"]
    players = view["players"]
    n = len(players)
    unseen_set = set(ALL_CARDS) - _visible_cards(view)
    unseen = sorted(unseen_set)
    deck_size = view["deck_size"]
    sizes = [pl["hand_size"] for pl in players]
    hands: list[list[int] | None] = [None] * n
    hands[seat] = list(players[seat]["hand"])
    own_vp = players[seat].get("vp", 0) or 0
    # total VP cards in all piles, by card conservation
    vp_total_cards = len(unseen) - deck_size - sum(sizes[s] for s in range(n) if s != seat)

    shuffles = 1
    exact = False
    vp_known: list[list[int]] = [[] for _ in range(n)]
    vp_unknown = [0] * n
    vp_subs = [0] * n
    if history is not None and view.get("starting_hands"):
        tracked = [list(h) for h in view["starting_hands"]]
        known: list[list[int]] = [[] for _ in range(n)]
        drawn = [0] * n
        subs = [0] * n
        for ev in history:
            t = ev.get("type")
            if t == "take":
                tracked[ev["seat"]].append(ev["card"])
            elif t == "buy":
                pay = set(ev["payment"])
                tracked[ev["seat"]] = [c for c in tracked[ev["seat"]] if c not in pay]
            elif t == "insure":
                dis = set(ev["discard"])
                tracked[ev["seat"]] = [c for c in tracked[ev["seat"]] if c not in dis]
            elif t == "sale":
                kept = [c for c in ev["cards"] if c not in set(ev["discarded"])]
                known[ev["seat"]].extend(kept)
                drawn[ev["seat"]] += ev["drawn"]
                subs[ev["seat"]] += max(0, ev["vp"] - len(kept) - ev["drawn"])
            elif t == "reshuffle":
                shuffles += 1
        ok = all(
            len(tracked[s]) == sizes[s] and set(tracked[s]) <= unseen_set
            for s in range(n) if s != seat
        ) and sorted(tracked[seat]) == sorted(hands[seat])
        all_known = [c for s in range(n) for c in known[s]]
        ok = ok and set(all_known) <= unseen_set and len(set(all_known)) == len(all_known)
        ok = ok and sum(len(k) for k in known) + sum(drawn) == vp_total_cards
        ok = ok and len(known[seat]) + drawn[seat] + subs[seat] == own_vp
        if ok:
            exact = True
            for s in range(n):
                if s != seat:
                    hands[s] = tracked[s]
            vp_known, vp_unknown, vp_subs = known, drawn, subs
    if not exact:
        own_cards = min(own_vp, max(0, vp_total_cards))
        vp_unknown[seat] = own_cards
        vp_subs[seat] = own_vp - own_cards
        rest = max(0, vp_total_cards - own_cards)
        opps = [s for s in range(n) if s != seat]
        weights = [max(0, sum(players[s]["tokens"].values()) - 1) + 0.5 for s in opps]
        total_w = sum(weights)
        shares = [int(rest * w / total_w) for w in weights]
        for i in range(rest - sum(shares)):
            shares[i % len(shares)] += 1
        for s, k in zip(opps, shares):
            vp_unknown[s] = k
    return Knowledge(seat=seat, n=n, unseen=unseen, deck_size=deck_size, hands=hands,
                     vp_known=vp_known, vp_unknown=vp_unknown, vp_subs=vp_subs,
                     shuffles=shuffles, exact=exact)


def determinize(view: dict, know: Knowledge, rng: random.Random) -> dict:
    """One full state JSON consistent with the view: every card 0..107 placed exactly once.

    The result follows the engine's full-state contract (``GameState.from_json`` accepts it).
    """
    placed = set()
    for h in know.hands:
        if h is not None:
            placed.update(h)
    for k in know.vp_known:
        placed.update(k)
    pool = [c for c in know.unseen if c not in placed]
    rng.shuffle(pool)
    pos = 0
    hands = []
    for s, pl in enumerate(view["players"]):
        if know.hands[s] is not None:
            hands.append(list(know.hands[s]))
        else:
            k = pl["hand_size"]
            hands.append(pool[pos:pos + k])
            pos += k
    vp_cards = []
    for s in range(know.n):
        k = know.vp_unknown[s]
        vp_cards.append(list(know.vp_known[s]) + pool[pos:pos + k])
        pos += k
    deck = pool[pos:]
    if len(deck) != know.deck_size:
        raise ValueError(
            f"determinization does not add up: {len(deck)} cards left for a draw pile of "
            f"{know.deck_size}")
    players = []
    for s, pl in enumerate(view["players"]):
        players.append({
            "hand": hands[s],
            "goods": [dict(g) for g in pl["goods"]],
            "tokens": {c: pl["tokens"].get(c, 0) for c in COLORS},
            "vp_cards": vp_cards[s],
            "vp_substitutes": know.vp_subs[s],
        })
    state = {
        "schema": 1,
        "num_players": know.n,
        "seed": rng.getrandbits(31),
        "shuffles": know.shuffles,
        "deck": deck,
        "discard": list(view["discard"]),
        "market": [dict(m) for m in view["market"]],
        "farm": [dict(m) for m in view["farm"]],
        "ships": dict(view["ships"]),
        "players": players,
        "start_player": view.get("start_player", 0),
        "turn": view["turn"],
        "phase": view["phase"],
        "to_act": view["to_act"],
        "sinking": list(view["sinking"]),
        "insurance_queue": list(view["insurance_queue"]),
        "passes": view.get("passes", 0),
        "winners": view["winners"],
    }
    if view.get("starting_hands") is not None:
        state["starting_hands"] = [list(h) for h in view["starting_hands"]]
    return state
