"""The tutorial's deal (bots/tutorial.py, app/tutorial.py; issue 32 "Learn to play"): played
through with the engine and the tutorial's moves, every rule the guide explains comes up for the
person (seat 0), early enough for a first game of about 10 minutes, and the same way each time."""
from __future__ import annotations

from app.tutorial import TUTORIAL_BOTS, TUTORIAL_LEVEL, TUTORIAL_SEED
from bots.tutorial import RULES, TUTORIAL_LEVEL as BOTS_LEVEL, play_through

PLAYERS = 1 + TUTORIAL_BOTS


def test_every_rule_comes_up_for_the_person_on_the_tutorial_deal():
    run = play_through(TUTORIAL_SEED, PLAYERS)
    assert set(run.first) == set(RULES), sorted(set(RULES) - set(run.first))
    # The first tips come in the first few decisions: the draft, then buying, taking, reserving.
    assert run.first["draft"] == 0
    assert max(run.first[r] for r in ("take", "reserve", "buy")) <= 8, run.first
    # A payment with the token bonus, the Black Tide and the person's own insurance by decision 10.
    assert max(run.first[r] for r in ("ships", "payment", "tide", "insure", "refresh")) <= 10, run.first
    # About 10 minutes: at most 30 decisions of the person, the game ending by 8 tokens.
    assert run.decisions <= 30 and run.first["end"] == run.decisions
    over = [e for e in run.events if e["type"] == "game_over"]
    assert over and over[0]["reason"] == "tokens" and max(over[0]["tokens"]) >= 8


def test_the_tutorial_deal_plays_the_same_way_every_time():
    a, b = play_through(TUTORIAL_SEED, PLAYERS), play_through(TUTORIAL_SEED, PLAYERS)
    assert a.events == b.events and a.plies == b.plies
    assert TUTORIAL_LEVEL == BOTS_LEVEL == "normal"
