"""`OwnWindows` (app/ratelimit.py): one connection's flood limit (FLOOD_LIMIT) in the `limits`
notation, counted in the connection itself."""
from __future__ import annotations

from app.ratelimit import OwnWindows, parse_limits


def test_a_window_holds_its_amount_then_refuses_until_it_ends():
    w = OwnWindows(parse_limits("3/2seconds"))
    assert [w.allow(now=t) for t in (10.0, 10.5, 11.0, 11.9, 11.99)] == [True, True, True, False, False]
    # The window began at the first event (10.0) and ends 2 s later; the next one starts fresh.
    assert [w.allow(now=t) for t in (12.0, 12.1, 12.2, 12.3)] == [True, True, True, False]


def test_every_window_of_several_limits_must_have_room_and_a_refusal_counts_in_none():
    w = OwnWindows(parse_limits("2/second;3/minute"))
    assert [w.allow(now=t) for t in (0.0, 0.1, 0.2)] == [True, True, False]  # the second is full
    assert w.allow(now=1.0) is True    # a new second; the minute has 3 now
    assert w.allow(now=2.0) is False   # the minute is full although the second is not
    assert w.allow(now=60.0) is True   # a new minute (it began at 0.0)


def test_no_limits_allow_everything_and_windows_are_per_owner():
    free = OwnWindows(parse_limits("off"))
    assert all(free.allow(now=0.0) for _ in range(1000))
    items = parse_limits("1/second")
    a, b = OwnWindows(items), OwnWindows(items)
    assert a.allow(now=0.0) and b.allow(now=0.0)
    assert not a.allow(now=0.5) and not b.allow(now=0.5)


def test_the_default_clock_is_monotonic_seconds():
    w = OwnWindows(parse_limits("1/hour"))
    assert w.allow() is True
    assert w.allow() is False
