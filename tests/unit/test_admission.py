"""Admission of room sockets (app/live/sockets/handshake.py): the per-seat and per-address limits and
the bound on new connections of one room waiting for its lock."""
from __future__ import annotations

from app.live.sockets.handshake import Admission


def test_a_seat_over_its_limit_is_refused_and_other_seats_are_not():
    gate = Admission("3/minute", "100/minute", 16)
    assert [gate.admit("198.51.100.7", "token-a") for _ in range(4)] == [True, True, True, False]
    assert gate.admit("198.51.100.7", "token-b")      # another seat from the same address
    assert gate.admit("198.51.100.8", None)           # a spectator elsewhere


def test_an_address_over_its_limit_is_refused_counting_an_ipv6_64_as_one():
    gate = Admission("100/minute", "2/minute", 16)
    assert gate.admit("2001:db8:1:2::10", None) and gate.admit("2001:db8:1:2::99", "t")
    assert not gate.admit("2001:db8:1:2:ffff::1", None)   # same /64
    assert gate.admit("2001:db8:1:3::1", None)            # another /64


def test_at_most_max_arrivals_wait_per_room():
    gate = Admission("off", "off", 2)
    with gate.arriving("ROOMA") as first, gate.arriving("ROOMA") as second:
        with gate.arriving("ROOMA") as third, gate.arriving("ROOMB") as elsewhere:
            assert (first, second, third, elsewhere) == (True, True, False, True)
    with gate.arriving("ROOMA") as again:  # the slots are free once they left
        assert again
