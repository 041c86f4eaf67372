"""app/pace.py's rules on rows in memory (no database; the HTTP paths: tests/app/test_pace.py):
the away budget counted as used, the running decision's clock moved by exactly the away and
paused time, and the clock of a decision that begins while away or paused."""
from __future__ import annotations

from datetime import datetime, timedelta

import pytest

import engine
from app import pace as P
from app.live.room.table import Table
from app.models import Room, Seat
from app.refusals import Refusal
from app.store.games import clock_start

T0 = datetime(2026, 12, 3, 10, 0, 0)
H = timedelta(hours=1)
DAY = timedelta(days=1)


def room(status="playing", pace="turn", to_act=1, limit=3600) -> tuple[Room, Seat]:
    seat = Seat(seat=1, name="Bob", away_until=None, away_used_s=0)
    r = Room(code="X", pace=pace, status=status, to_act=to_act, turn_limit_s=limit, turn_at=T0,
             deadline_at=T0 + timedelta(seconds=limit), paused_at=None)
    r.seats = [Seat(seat=0, name="Ann", away_until=None, away_used_s=0), seat]
    return r, seat


def test_away_during_ones_own_decision_moves_its_deadline_and_clearing_moves_it_back():
    r, bob = room()
    assert P.set_away(r, bob, T0 + 5 * H, T0 + H) == 4 * H
    assert r.deadline_at == T0 + H + 4 * H and r.turn_at == T0 + 4 * H
    assert r.deadline_at - r.turn_at == H  # the limit, always
    assert P.set_away(r, bob, T0 + 3 * H, T0 + 2 * H) == -2 * H  # shortened: 1 h rest instead of 3 h
    assert r.deadline_at == T0 + 3 * H
    assert P.set_away(r, bob, None, T0 + 2.5 * H) == -0.5 * H  # back early
    assert r.deadline_at == T0 + 2.5 * H and bob.away_until is None
    # Used: 1 h (T0+1h → T0+2h) + 0.5 h (T0+2h → T0+2.5h), the rest given back
    assert bob.away_used_s == int(1.5 * 3600)
    assert P.away_left_s(bob, T0 + 3 * H) == 7 * 86400 - int(1.5 * 3600)


def test_another_seats_away_leaves_the_running_clock_alone():
    r, bob = room(to_act=0)
    P.set_away(r, bob, T0 + 5 * H, T0)
    assert r.deadline_at == T0 + H


def test_the_budget_is_seven_days_counted_as_used():
    r, bob = room(status="waiting")
    P.set_away(r, bob, T0 + 6 * DAY, T0)
    assert P.away_left_s(bob, T0) == 7 * 86400  # nothing used yet: may be set anew up to 7 days
    assert P.away_left_s(bob, T0 + 6 * DAY) == 86400  # all six days passed
    with pytest.raises(Refusal) as e:
        P.set_away(r, bob, T0 + 6 * DAY + DAY + timedelta(seconds=1), T0 + 6 * DAY)
    assert e.value.code == "away_too_long" and e.value.fields == {"left_s": 86400}
    P.set_away(r, bob, T0 + 7 * DAY, T0 + 6 * DAY)  # exactly the day left
    assert bob.away_used_s == 7 * 86400
    P.reset_away(r)
    assert bob.away_used_s == 0 and bob.away_until is None


@pytest.mark.parametrize("status,pace,code", [("playing", "live", "not_turn_based"), ("over", "turn", "game_over")])
def test_away_refusals(status, pace, code):
    r, bob = room(status=status, pace=pace)
    with pytest.raises(Refusal) as e:
        P.set_away(r, bob, T0 + H, T0)
    assert e.value.code == code


def test_away_in_the_past_is_refused():
    r, bob = room()
    with pytest.raises(Refusal) as e:
        P.set_away(r, bob, T0, T0)
    assert e.value.code == "bad_away_time"


def test_pause_and_resume_move_the_running_clock_by_exactly_the_paused_time():
    r, _ = room()
    P.pause(r, T0 + 10 * timedelta(minutes=1))
    with pytest.raises(Refusal) as e:
        P.pause(r, T0 + H)
    assert e.value.code == "game_paused"
    assert r.deadline_at == T0 + H  # kept while paused (the notifications read it)
    assert P.resume(r, T0 + 3 * H + timedelta(minutes=10)) == 3 * H
    assert r.deadline_at == T0 + 4 * H and r.turn_at == T0 + 3 * H and r.paused_at is None
    with pytest.raises(Refusal) as e:
        P.resume(r, T0 + 5 * H)
    assert e.value.code == "not_paused"


def test_the_pace_and_its_times():
    live, turn = [0, 30, 60, 120, 300], P.turn_based_limits(20)
    assert turn == [20, 3600, 28800, 86400, 259200] and P.turn_based_limits() == [3600, 28800, 86400, 259200]
    assert P.check_pace("turn", 86400, live, turn) == 86400
    assert P.check_pace("live", 0, live, turn) is None
    for pace, limit, code in [("turn", None, "bad_pace_limit"), ("turn", 60, "bad_pace_limit"),
                              ("live", 3600, "bad_pace_limit"), ("live", 45, "bad_turn_limit"),
                              ("fast", 60, "bad_pace")]:
        with pytest.raises(Refusal) as e:
            P.check_pace(pace, limit, live, turn)
        assert e.value.code == code, (pace, limit)


def test_a_decision_beginning_while_away_or_paused_starts_its_clock_later():
    assert clock_start(T0) == T0
    assert clock_start(T0, T0 + 5 * H) == T0 + 5 * H
    assert clock_start(T0, T0 - H) == T0  # an away that is over
    assert clock_start(T0 + H, None, T0) == T0  # paused at T0: as if it had begun then
    # Paused since T0, away until T0+3h: the clock stands until then once (not 2 h on top).
    assert clock_start(T0 + H, T0 + 3 * H, T0) == T0 + 3 * H
    assert clock_start(T0 + H, T0 + timedelta(minutes=30), T0) == T0 + timedelta(minutes=30)


def test_a_paused_tables_clock_stands_at_the_pause():
    table = Table("X", 1)
    table.state = engine.new_game(2, 7)
    table.bot_levels, table.holders = {}, {}
    table.turn_at, table.deadline_at, table.paused_at = T0, T0 + H, T0 + timedelta(minutes=15)
    later = table.clock(T0 + 5 * H)
    assert later["left_ms"] == 45 * 60 * 1000 and later["turn_ms"] == 15 * 60 * 1000 and later["paused"] is True
    table.paused_at = None
    assert "paused" not in table.clock(T0 + timedelta(minutes=15))


def _left(r: Room, at: datetime) -> timedelta:
    """The decision's time left at `at` once nothing stops it any more."""
    return r.deadline_at - at


@pytest.mark.parametrize("case", ["away_then_pause", "pause_then_away", "away_inside_pause",
                                  "pause_inside_away", "away_cleared_in_pause", "away_ends_in_pause"])
def test_an_away_and_a_pause_that_overlap_give_the_overlap_back_once(case):
    """Bob's decision (1 h) has run 10 min at T0+10min. Whatever the order of his away and the
    host's pause, once both are over his clock shows 50 min left: every second stood still
    once (the union of the away and the pause), never twice."""
    r, bob = room()
    m = timedelta(minutes=1)
    start = T0 + 10 * m
    if case == "away_then_pause":  # away 10→70 min, paused 40→100 min: stood 10→100
        P.set_away(r, bob, T0 + 70 * m, start)
        P.pause(r, T0 + 40 * m)
        P.resume(r, T0 + 100 * m)
        end = T0 + 100 * m
    elif case == "pause_then_away":  # paused 10→60, away set at 30 until 90: stood 10→90
        P.pause(r, start)
        P.set_away(r, bob, T0 + 90 * m, T0 + 30 * m)
        P.resume(r, T0 + 60 * m)
        end = T0 + 90 * m
    elif case == "away_inside_pause":  # paused 10→100, away 30→50: stood 10→100
        P.pause(r, start)
        P.set_away(r, bob, T0 + 50 * m, T0 + 30 * m)
        P.resume(r, T0 + 100 * m)
        end = T0 + 100 * m
    elif case == "pause_inside_away":  # away 10→200, paused 40→60: stood 10→200
        P.set_away(r, bob, T0 + 200 * m, start)
        P.pause(r, T0 + 40 * m)
        P.resume(r, T0 + 60 * m)
        end = T0 + 200 * m
    elif case == "away_cleared_in_pause":  # away 10→(cleared at 30), paused 20→80: stood 10→80
        P.set_away(r, bob, T0 + 300 * m, start)
        P.pause(r, T0 + 20 * m)
        P.set_away(r, bob, None, T0 + 30 * m)
        P.resume(r, T0 + 80 * m)
        end = T0 + 80 * m
    else:  # away 10→50, paused 20→80, away set again at 60 until 120: stood 10→120
        P.set_away(r, bob, T0 + 50 * m, start)
        P.pause(r, T0 + 20 * m)
        P.set_away(r, bob, T0 + 120 * m, T0 + 60 * m)
        P.resume(r, T0 + 80 * m)
        end = T0 + 120 * m
    assert _left(r, end) == 50 * m, case
    assert r.deadline_at - r.turn_at == H, "deadline_at - turn_at is the time per decision"
