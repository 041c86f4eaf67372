"""A scripted table for the browser tests: seats created over HTTP, every seat played over
its own WebSocket (the protocol a browser uses, docs/protocol.md) with a simple policy that
sees only that seat's player view, until a wanted moment (a payment, a Black Tide, the end).
A browser page then joins the same seat with the seat's cookie and shows that moment.

Used by tests/e2e/test_screenshots.py, test_visual.py and test_rematch.py to reach game
states that random play through the UI reaches only slowly. Card colours, values and icons
come from the engine's public API (as in helpers.py), and the goods and the payment of a buy
from the seat's view (its ``buy``, worked out by the engine: docs/engine.md), not from rules
written here."""
from __future__ import annotations

import json
import uuid
from typing import Callable

import httpx
from websockets.sync.client import connect

from engine import CARD_COLORS, CARD_ICONS, CARD_VALUES, COLORS

value = CARD_VALUES.__getitem__    # card id -> 2, 3 or 5 (R-comp-1)
icons = CARD_ICONS.__getitem__     # card id -> insurance icons (R-comp-2)


def insure_choice(view: dict) -> dict:
    """Insure what one hand card per sinking colour can (R-pay-6, minimal per R-pay-6a)."""
    me = view["players"][view["seat"]]
    discard, goods = [], []
    for c in view.get("sinking") or []:
        ci = COLORS.index(c)
        risk = sorted((g["card"] for g in me["goods"]
                       if not g["insured"] and CARD_COLORS[g["card"]] == ci), key=value, reverse=True)
        cards = sorted((h for h in me.get("hand") or [] if CARD_COLORS[h] == ci and icons(h)),
                       key=icons, reverse=True)
        if risk and cards:
            discard.append(cards[0])
            goods += risk[:icons(cards[0])]
    return {"type": "insure", "discard": discard, "goods": goods}


def greedy(view: dict) -> dict:
    """Buy whenever the hand covers every good; otherwise take the best Market card, reserve
    when nothing can be taken, pass when nothing is legal (R-turn-3). Draft: the next colour."""
    seat = view["seat"]
    if view["phase"] == "token_draft":
        return {"type": "choose_token", "color": COLORS[seat % 4]}
    if view["phase"] == "insurance":
        return insure_choice(view)
    me = view["players"][seat]
    buy = view["buy"]              # the seat to act's purchase, as the engine decides it
    mine = buy["goods"]            # what it may buy, and so take (R-buy-1, R-take-1)
    free = [m["card"] for m in view["market"] + view["farm"] if m["reserved_by"] is None]
    if mine:
        if buy["suggested"] is not None:
            return {"type": "buy", "payment": buy["suggested"]}
        # Now and then a Reservation piece goes on the Market's best card (others see it).
        open_market = [m["card"] for m in view["market"] if m["reserved_by"] is None]
        if me["reservation_free"] and (len(me["hand"]) + view["deck_size"]) % 4 == 0 and len(open_market) > 1:
            return {"type": "reserve", "card": max(open_market, key=value)}
        return {"type": "take", "card": max(mine, key=value)}
    if me["reservation_free"] and free:
        return {"type": "reserve", "card": free[0]}
    return {"type": "pass"}


class Seat:
    """One seat's WebSocket: the latest `state` (view, version) and every event it saw."""

    def __init__(self, ws_base: str, code: str, token: str):
        # Entered like a context manager (closed by close()); websockets ≥ 17.1 asks for that.
        self.ws = connect(f"{ws_base}/ws/rooms/{code}", additional_headers={"Authorization": f"Bearer {token}"},
                          max_size=None).__enter__()
        self.token = token
        self.view: dict | None = None
        self.version = -1
        self.events: list[dict] = []

    def pump(self, version: int, timeout: float = 20) -> None:
        """Read frames until the state of `version` (or a later one) arrived."""
        while self.version < version:
            msg = json.loads(self.ws.recv(timeout=timeout))
            if msg["type"] == "state":
                self.view, self.version = msg["view"], msg["version"]
            elif msg["type"] == "event":
                self.events += msg["events"]
            elif msg["type"] == "error":
                raise AssertionError(f"refused: {msg}")

    def play_to_end(self, seat: int = 0, max_steps: int = 600) -> None:
        """Play `seat`'s decisions with `greedy` until the game is over (the other seats are
        computer players that answer on their own); asserts that it ended."""
        for _ in range(max_steps):
            if self.view["phase"] == "over":
                break
            version = self.version
            if self.view["to_act"] == seat:
                self.ws.send(json.dumps({"type": "act", "id": f"a{version}", "version": version,
                                         "action": greedy(self.view)}))
            self.pump(version + 1, timeout=30)
        assert self.view["phase"] == "over"

    def close(self) -> None:
        self.ws.close()


class Table:
    """A started game of `names` (seat order) on a running server at `base`."""

    def __init__(self, base: str, names: list[str]):
        self.base = base
        r = httpx.post(base + "/api/rooms", json={"name": names[0], "public": False})
        assert r.status_code == 201, r.text
        self.code = r.json()["code"]
        self.tokens = [r.json()["token"]]
        for n in names[1:]:
            j = httpx.post(f"{base}/api/rooms/{self.code}/join", json={"name": n})
            assert j.status_code == 200, j.text
            self.tokens.append(j.json()["token"])
        self.seats: list[Seat] = []
        self.steps = 0  # actions played by step()

    def cookie(self, seat: int) -> dict:
        """The seat cookie a browser context needs to sit in `seat` (Playwright add_cookies)."""
        return {"name": f"osaka_{self.code}", "value": self.tokens[seat], "url": self.base}

    def start(self) -> None:
        """Start the game (as the host) and connect every seat."""
        r = httpx.post(f"{self.base}/api/rooms/{self.code}/start",
                       headers={"Authorization": f"Bearer {self.tokens[0]}"})
        assert r.status_code == 200, r.text
        ws_base = self.base.replace("http", "ws", 1)
        self.seats = [Seat(ws_base, self.code, tok) for tok in self.tokens]
        for s in self.seats:
            s.pump(0)

    @property
    def view(self) -> dict:
        """Seat 0's latest view (public parts are the same for everyone)."""
        return self.seats[0].view

    def acting(self) -> int | None:
        """The seat whose decision it is, None once the game is over (R-end-1)."""
        return self.view["to_act"]

    def step(self, policy: Callable[[dict], dict] = greedy) -> list[dict]:
        """The acting seat plays one action; returns the public events it caused."""
        seat = self.acting()
        self.steps += 1
        s = self.seats[seat]
        before = len(self.seats[0].events)
        version = s.version
        s.ws.send(json.dumps({"type": "act", "id": uuid.uuid4().hex, "version": version,
                              "action": policy(s.view)}))
        for x in self.seats:
            x.pump(version + 1)
        return self.seats[0].events[before:]

    def play_until(self, done: Callable[[list[dict], dict], bool], max_steps: int = 600,
                   policy: Callable[[dict], dict] = greedy) -> list[dict]:
        """Play until done(events of the last step, seat 0's view) is true (checked first on
        the current state with no events); returns the last step's events."""
        events: list[dict] = []
        for _ in range(max_steps):
            if done(events, self.view):
                return events
            if self.acting() is None:
                raise AssertionError("the game ended before the wanted moment")
            events = self.step(policy)
        raise AssertionError("the wanted moment did not come")

    def close(self) -> None:
        for s in self.seats:
            s.close()


def table_at(base: str, names: list[str], done: Callable[[list[dict], dict], bool], games: int = 6) -> Table:
    """A started game of `names` played (greedy) until done(events, seat 0's view) (see
    `Table.play_until`); a new game when one ends without that moment, up to `games`."""
    for _ in range(games):
        table = Table(base, names)
        table.start()
        try:
            table.play_until(done)
            return table
        except AssertionError:
            table.close()
    raise AssertionError(f"{games} games without the wanted moment")
