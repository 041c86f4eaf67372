"""No review leaks hidden information (R-info; docs/bots.md "Review"): for every decision the hard
search gets exactly what a computer player in that seat would have had at that moment — its
`engine.player_view` and the events it had received — never the full state, another seat's
hand or VP total, the deck or the seed. (Before the game's end nothing of a review exists: the
GET route and the record answer 409 `game_not_over`, tests/app/test_reviews.py.)"""
from __future__ import annotations

import json
import random

import engine
from bots import review as review_mod
from bots.determinize import check_view
from engine import action_from_json, is_over, new_game, play, player_view, visible_events

HIDDEN = {"deck", "seed", "shuffles", "vp_cards", "vp_substitutes"}


def _record(players: int, seed: int) -> dict:
    state = new_game(players, seed)
    rng = random.Random(seed)
    actions = []
    while not is_over(state):
        seat = state.to_act
        a = rng.choice(engine.legal_actions(state, seat)).to_json()
        actions.append({"seat": seat, "action": a})
        state = play(state, seat, action_from_json(a))[0]
    return {"seed": seed, "num_players": players, "players": [{"seat": s, "computer": s == 2} for s in range(players)],
            "actions": actions}


def test_the_search_of_every_reviewed_decision_sees_only_that_seat(monkeypatch):
    rec = _record(3, 5)
    seen: list[tuple[dict, list[dict]]] = []
    real_search, real_know = review_mod.search, review_mod.build_knowledge
    histories: list[list[dict]] = []

    def know(view, history):
        histories.append(list(history))
        return real_know(view, history)

    def search(view, k, rng, budget, **kw):
        seen.append((view, histories[-1]))
        return real_search(view, k, rng, budget, **kw)
    monkeypatch.setattr(review_mod, "search", search)
    monkeypatch.setattr(review_mod, "build_knowledge", know)
    out = review_mod.review_game(rec, simulations=3)
    assert len(seen) == out["reviewed"] > 0
    # replay independently: what each seat could see before each of its decisions
    state = new_game(3, rec["seed"])
    hist: list[list[dict]] = [[], [], []]
    expected = {}
    for i, a in enumerate(rec["actions"]):
        expected[i] = (player_view(state, a["seat"]), [dict(e) for e in hist[a["seat"]]])
        state, events = play(state, a["seat"], action_from_json(a["action"]))
        for s in range(3):
            hist[s].extend(visible_events(events, s))
    for d, (view, history) in zip(out["decisions"], seen):
        check_view(view)                                   # a seat's view, as a computer player's
        assert not any(f'"{k}"' in json.dumps(view) for k in HIDDEN), d["index"]
        seat = d["seat"]
        assert seat != 2                                   # the computer seat is not reviewed
        assert all("hand" not in p and "vp" not in p for s, p in enumerate(view["players"]) if s != seat)
        assert (view, history) == expected[d["index"]]
        assert all(e["visible_to"] in (None, seat) for e in history)
