"""The in-memory cache of one room's game, loaded from the database (snapshot + action log).

No I/O here: the database is the truth, and the table is brought up to date with what any
process committed by `Held.sync` (held.py), from the room's stored snapshot and the new log
rows (app/store/games.py), the few actions after the snapshot played again (`Table.load`,
under the rules version the game carries): a table holds exactly what was committed, whichever
process or release committed it.
"""
from __future__ import annotations

import asyncio
import logging
from datetime import datetime
from typing import Any

import engine

from ...models import utcnow
from ...store import games as store

log = logging.getLogger("osaka.table")


#: The events a seat may see (`visible_to` null or that seat; spectator: null only). The engine
#: owns this rule next to `player_view`, so hidden information is removed in one place.
visible = engine.visible_events


class Table:
    """One room's game: state, version (= actions applied) and the events of each action."""

    def __init__(self, code: str, room_id: int):
        self.code = code
        self.room_id = room_id
        self.lock = asyncio.Lock()
        self.state: Any = None          # engine.GameState, or None before the start
        self._public: dict = {}         # engine.player_view_public(self._public_of) (`view`)
        self._public_of: Any = None
        self.version = 0
        self.events: list[list[dict]] = []   # events[v - 1] = events of action v
        # (seat, id) of the actions applied: the exactly-once check is per seat.
        self.action_ids: set[tuple[int, str]] = set()
        self.seed: int | None = None
        # seat → level of the computer players, as last read with the room's seats under the
        # lock (`note_seats`); None = not known here (the action path then reads the room).
        self.bot_levels: dict[int, str] | None = None
        # seat → token hash of the person who holds it, read with `bot_levels` (None together
        # with it): a connection may use a seat only while its token is that seat's now
        # (`Connection.holds`; docs/protocol.md "Who holds a seat").
        self.holders: dict[int, str] | None = None
        self.actors: list[int] = []          # actors[v - 1] = the seat of action v
        # The turn clock (app/live/computer/timers.py), as last committed: the host's seconds per decision
        # (None = no timer; known with `bot_levels`), when the current decision began, its deadline.
        self.turn_limit_s: int | None = None
        self.turn_at: datetime | None = None
        self.deadline_at: datetime | None = None
        # Pace (app/pace.py), read with the seats: when the host paused the game (None: running)
        # and seat → until when its person is away (only seats with a time set).
        self.paused_at: datetime | None = None
        self.away: dict[int, datetime] = {}
        # The hints of this game (app/live/hints.py), as stored: version → {"seat", "action",
        # "why"}; that one was used is public (`history`, `state_message`), its content is not.
        self.hints: dict[int, dict] = {}
        # False when another process said it gave a hint (fanout kind "h"): read them again
        # at the next catch-up (`Held.sync`).
        self.hints_known = True
        # A "Learn to play" room (app/tutorial.py), read with the seats: its computer players
        # and hints are the tutorial's (seeded by the view, prompt).
        self.tutorial = False

    def note_seats(self, room: Any) -> None:
        """Remember which seats are computer players' from `room` read with its seats (under
        the room's lock), and the room's turn timer; `forget_seats` when they may have changed
        without such a read."""
        self.note_seat_rows(room.seats, room.turn_limit_s, room.paused_at)
        self.tutorial = bool(room.tutorial)
        self.note_clock(room)

    def note_seat_rows(self, seats: Any, turn_limit_s: int | None, paused_at: datetime | None = None) -> None:
        """Remember the computer players, the holders and the aways of the seats from rows with
        `seat`, `bot_level`, `token_hash` and `away_until` (read under the room's lock), the
        turn timer and the pause."""
        self.bot_levels = {s.seat: s.bot_level for s in seats if s.bot_level is not None}
        self.holders = {s.seat: s.token_hash for s in seats if s.token_hash is not None}
        self.away = {s.seat: s.away_until for s in seats if getattr(s, "away_until", None) is not None}
        self.turn_limit_s = turn_limit_s
        self.paused_at = paused_at

    def note_clock(self, row: Any) -> None:
        """Take `turn_at` and `deadline_at` from a room row that has them (else keep them)."""
        if hasattr(row, "turn_at") and hasattr(row, "deadline_at"):
            self.turn_at, self.deadline_at = row.turn_at, row.deadline_at

    def clock_key(self) -> tuple:
        """What the `clock` of a state frame follows besides the version: (turn_at,
        deadline_at, paused_at); a change of it alone is sent again (`Held.restate`)."""
        return self.turn_at, self.deadline_at, self.paused_at

    def clock(self, now: datetime | None = None) -> dict | None:
        """The `clock` member of a `state` frame (docs/protocol.md): {"seat": the seat to act,
        "turn_ms": milliseconds since its decision began, "left_ms": milliseconds to its
        deadline (≥ 0) or None without a timer, or while a computer player plays that seat}, by
        the server's clock; None when nobody is to act."""
        if self.state is None or engine.is_over(self.state) or self.turn_at is None:
            return None
        now = now or utcnow()
        stood = self.paused_at if self.paused_at is not None and self.paused_at < now else now
        left = None
        if self.deadline_at is not None and self.state.to_act not in (self.bot_levels or {}):
            left = max(0, int((self.deadline_at - stood).total_seconds() * 1000))
        out = {"seat": self.state.to_act, "turn_ms": max(0, int((stood - self.turn_at).total_seconds() * 1000)),
               "left_ms": left}
        if self.paused_at is not None:
            out["paused"] = True  # the clock stands still at left_ms (app/pace.py)
        return out

    def timeouts_in_a_row(self, seat: int) -> int:
        """How many of `seat`'s latest decisions in a row were made for it at a time-out (their
        events begin with `timed_out`, app/live/computer/timers.py), counting back to its last own one."""
        count = 0
        for actor, events in zip(reversed(self.actors), reversed(self.events)):
            if actor != seat:
                continue
            if not (events and events[0].get("type") == "timed_out"):
                break
            count += 1
        return count

    def forget_seats(self) -> None:
        """The seats may have changed (elsewhere): the next action reads them again."""
        self.bot_levels = None
        self.holders = None

    def seats_known(self) -> bool:
        """True when the table knows its seats' computer players and holders (read under the
        lock since the last `forget_seats`)."""
        return self.bot_levels is not None and self.holders is not None

    def load(self, snap: Any, rows: list) -> list[tuple[int, list[dict]]]:
        """Append the log rows (checked by the caller: the versions after the table's up to the
        snapshot row's `version`) and take the state at that version and the row's clock
        (`Held.sync`). The stored state may be older (app/store/games.py `snapshot_due`): the
        actions after it are played again (`engine.play`, under the rules version the state
        carries), from the table's own state when that is at least as recent as the stored
        one (it is what was committed), else from the stored one. → the (version, events)
        loaded. Raises RuntimeError when an action of the log does not play again (a stored
        game this release cannot continue: docs/versioning.md)."""
        base = store.stored_at(snap)
        if self.state is not None and base <= self.version:
            state, at = self.state, self.version
        else:
            state, at = store.load_state(snap.state), base
        caught = []
        for row in rows:
            self.events.append(row.events)
            self.action_ids.add((row.seat, row.action_id))
            self.actors.append(row.seat)
            caught.append((row.version, row.events))
            if row.version > at:
                state = _replayed(self.code, state, row)
        self.state, self.version = state, snap.version
        self.note_clock(snap)
        return caught

    def reset(self, seed: int | None) -> None:
        """Forget the game (another one, or none yet)."""
        self.state, self.version, self.events, self.seed = None, 0, [], seed
        self.action_ids = set()
        self.actors = []
        self.hints = {}
        self.hints_known = True

    def applied(self, state: Any, version: int, seat: int, action_id: str, events: list[dict],
                clock: dict | None = None) -> None:
        """Record an action this process committed (the table is then at `version`); `clock`:
        the turn_at/deadline_at committed with it."""
        self.state, self.version = state, version
        self.events.append(events)
        self.action_ids.add((seat, action_id))
        self.actors.append(seat)
        if clock is not None:
            self.turn_at, self.deadline_at = clock["turn_at"], clock["deadline_at"]

    def history(self, seat: int | None) -> list[dict]:
        """All past events of the game that `seat` may see, in order, with a public
        `hint_used` event where a seat asked for a hint (`hint_event`: after the action of the
        version it was asked at)."""
        out = [hint_event(self.hints[0]["seat"])] if 0 in self.hints else []
        for v, events in enumerate(self.events, 1):
            out += visible(events, seat)
            if v in self.hints:
                out.append(hint_event(self.hints[v]["seat"]))
        return out

    def hint_counts(self) -> list[int]:
        """The hints each seat used in this game (index = seat), public."""
        counts = [0] * self.state.num_players if self.state is not None else []
        for hint in self.hints.values():
            if hint["seat"] < len(counts):
                counts[hint["seat"]] += 1
        return counts

    def view(self, seat: int | None) -> dict:
        """`engine.player_view` for that seat (None = spectator), made with `engine.seat_view`
        from the public part, which is built once per state (`engine.player_view_public`) and
        shared by every seat's view of it: read-only."""
        state = self.state
        if self._public_of is not state:
            self._public, self._public_of = engine.player_view_public(state), state
        return engine.seat_view(state, self._public, seat)

    def state_message(self, seat: int | None) -> dict:
        """The `state` frame for that seat (docs/protocol.md): version and view, and once the
        game is over `result` = `engine.game_result` (public then: every VP total is shown)."""
        msg = {"type": "state", "version": self.version, "view": self.view(seat)}
        if engine.is_over(self.state):
            msg["result"] = engine.game_result(self.state, [e for evs in self.events for e in evs])
        if self.hints:
            msg["hints"] = self.hint_counts()  # public: who was assisted, how often
        return msg


def _replayed(code: str, state: Any, row: Any) -> Any:
    """The state after the log row's action (`Table.load`). Raises RuntimeError when it does
    not play (`engine.IllegalAction`)."""
    try:
        return engine.play(state, row.seat, engine.action_from_json(row.action))[0]
    except engine.IllegalAction as exc:
        raise RuntimeError(f"room {code}: the stored action of version {row.version} does not play again "
                           f"({exc.code})") from exc


def hint_frame(version: int, hint: dict) -> dict:
    """The `hint` frame of a stored hint (docs/protocol.md "Hints"): for its seat only."""
    return {"type": "hint", "version": version, "seat": hint["seat"], "action": hint["action"], "why": hint["why"]}


def hint_event(seat: int) -> dict:
    """The public log event of a hint used by `seat` (docs/protocol.md "Hints"): never what
    the hint said."""
    return {"type": "hint_used", "seat": seat, "visible_to": None}
