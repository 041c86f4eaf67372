"""A finished game's record read two ways: as a readable text log and as replay steps.

Both take the record of app/records.py (`game_record`), so they exist only for finished
games. The replay plays the record's actions again through the engine under the game's rules
version (docs/versioning.md: a version's games replay exactly) and shows every hand: the
game is over, nothing is secret any more (R-info-3).
"""
from __future__ import annotations

import engine
from engine import CARD_COLORS, CARD_VALUES, COLORS, LOCATIONS


def card(cid: int) -> str:
    """A card as people read it: ``red 3 (#41)``."""
    return f"{COLORS[CARD_COLORS[cid]]} {CARD_VALUES[cid]} (#{cid})"


def cards(ids) -> str:
    """Several cards, comma-separated (``-`` for none)."""
    return ", ".join(card(c) for c in ids) or "-"


def describe(ev: dict, name) -> str | None:
    """One engine event (docs/engine.md "Events") as an English line; `name(seat)` names a seat.
    None for events the log does not show (`turn_started`, `vp_total`: in the turn header and
    the final scores)."""
    t = ev["type"]
    s = name(ev["seat"]) if "seat" in ev else ""
    lines = {
        "token_chosen": lambda: f"{s} chooses a {ev.get('color')} token",
        "take": lambda: f"{s} takes {card(ev['card'])}",
        "reserve": lambda: f"{s} reserves {card(ev['card'])} from the {ev['where']}",
        "buy": lambda: f"{s} buys {cards(ev['goods'])} for {ev['cost']}, paying {cards(ev['payment'])}",
        "ship_moved": lambda: f"the {ev['color']} ship sails from {LOCATIONS[ev['from']]} to {LOCATIONS[ev['to']]}",
        "payment": lambda: f"payment at Edo: {', '.join(ev['colors'])}",
        "sale": lambda: (f"{s} sells {len(ev['cards'])} {ev['color']} at {ev['price']}: value {ev['value']}, "
                         f"{ev['vp']} VP"),
        "token_gained": lambda: f"{s} gains a {ev['color']} Achievement token",
        "black_tide": lambda: f"Black Tide: {', '.join(ev['colors'])} sinking",
        "insure": lambda: f"{s} insures {cards(ev['goods'])}, discarding {cards(ev['discard'])}",
        "sunk": lambda: f"{s} loses {cards(ev['cards'])} ({ev['color']} sank)",
        "ship_returned": lambda: f"the {ev['color']} ship returns to {LOCATIONS[ev['to']]}",
        "reshuffle": lambda: f"the discard pile is shuffled into a new draw pile of {ev['size']}",
        "refresh": lambda: (f"refresh: Farm to Market {cards(ev['moved'])}; new in the Market "
                            f"{cards(ev['market'])}; new on the Farm {cards(ev['farm'])}"),
        "pass": lambda: f"{s} passes",
        "timed_out": lambda: f"{s}'s time ran out: a computer player decided",
        "game_over": lambda: "game over",
    }
    make = lines.get(t)
    return make() if make else None


def text_log(record: dict) -> str:
    """The record as a plain-text log (English, UTF-8): players, every action with its time
    and what it did, the starting hands, the final scores with the sales per colour and ranks."""
    names = {p["seat"]: p["name"] for p in record["players"]}
    name = lambda seat: names.get(seat, f"seat {seat + 1}")  # noqa: E731

    def who(p: dict) -> str:
        if p.get("computer"):  # named "Computer 3 (easy)" already
            return name(p["seat"])
        if "computer" not in p and p["bot_level"]:  # records before "computer": bot_level alone
            return f"{name(p['seat'])} (computer player, {p['bot_level']})"
        if p["bot_level"]:
            return f"{name(p['seat'])} (seat held by a computer player, {p['bot_level']}, at the end)"
        return name(p["seat"])
    out = [f"Traders of Osaka: room {record['room']}, game {record['game']}",
           f"rules version {record['rules_version']}, seed {record['seed']}",
           f"started {record['started_at']}, ended {record['ended_at']}", "", "Players:"]
    out += [f"  seat {p['seat'] + 1}: {who(p)}" + (f" (assisted: {p['hints']} hint{'s' if p['hints'] != 1 else ''})"
                                                 if p.get("hints") else "") for p in record["players"]]
    hinted = {h["version"]: h["seat"] for h in record.get("hints", [])}
    start = record["final_state"].get("starting_hands") or []
    if start:
        out += ["", "Starting hands:"] + [f"  {name(i)}: {cards(h)}" for i, h in enumerate(start)]
    out += ["", "Actions:"]
    if 0 in hinted:
        out.append(f"        {name(hinted[0])} asked the computer for a hint.")
    for a in record["actions"]:
        out.append(f"{a['version']:>4}. {a['at']}  {name(a['seat'])}: {action_text(a['action'])}")
        for ev in a["events"]:
            line = describe(ev, name)
            if line:
                out.append(f"        {line}")
        if a["version"] in hinted:
            out.append(f"        {name(hinted[a['version']])} asked the computer for a hint.")
    r = record["result"]
    how = ("a player reached 8 Achievement tokens" if r["reason"] == "tokens"
           else "every player passed in a row")
    out += ["", f"The game ended on {name(r['active'])}'s turn: {how}."]
    out += ["", "Result (most VPs, then most Achievement tokens):"]
    for p in sorted(r["players"], key=lambda p: (p["rank"], p["seat"])):
        colours = ", ".join(f"{c} {v}" for c, v in p["vp_by_color"].items() if v) or "none"
        out.append(f"  {p['rank']}. {name(p['seat'])}: {p['vp']} VP ({colours}), {p['tokens']} tokens")
    winners = " and ".join(name(w) for w in r["winners"])
    out.append(f"Winner{'s (shared win)' if r['shared'] else ''}: {winners}")
    out += standings_text(record.get("standings"))
    return "\n".join(out) + "\n"


def standings_text(standings: dict | None) -> list[str]:
    """The text record's lines of the room's standings up to this game (app/standings.py)."""
    if not standings:
        return []
    out = ["", f"Standings after {standings['games']} game{'s' if standings['games'] != 1 else ''} in this room "
           "(wins, shared wins, VP per game, best sale):"]
    for p in standings["players"]:
        best = p["best_sale"]
        sale = f"{best['vp']} VP ({best['color']}, game {best['game']})" if best else "none"
        vps = ", ".join("-" if v is None else str(v) for v in p["by_game"])
        out.append(f"  {p['name']}: {p['played']} played, {p['wins']} won, {p['shared_wins']} shared, "
                   f"{p['vp_per_game']:g} VP per game ({vps}), best sale {sale}")
    return out


def action_text(action: dict) -> str:
    """An action of the record in words (its JSON shape is in docs/engine.md)."""
    t = action.get("type")
    if t == "choose_token":
        return f"chooses the {action['color']} token"
    if t == "buy":
        return f"buys, paying {cards(action['payment'])}"
    if t == "take":
        return f"takes {card(action['card'])}"
    if t == "reserve":
        return f"reserves {card(action['card'])}"
    if t == "insure":
        return f"insures {cards(action['goods'])} with {cards(action['discard'])}"
    return "passes" if t == "pass" else t


def _frame(state: engine.GameState) -> dict:
    """A spectator's view of `state` with every player's `hand` and `vp` added (the game is over)."""
    view = engine.player_view(state, None)
    full = state.to_json()
    for p, entry in enumerate(view["players"]):
        entry["hand"] = list(full["players"][p]["hand"])
        entry["vp"] = state.vp(p)
    return view


def replay(record: dict) -> dict:
    """Every moment of the game for the replay page: `{"room", "game", "players", "result",
    "verified", "steps": [{"version", "seat", "action", "at", "events", "view"}]}` where step 0
    is the game as dealt (seat, action, at null) and step k the game after action k; `view` is
    the spectator's player view with every `hand` and `vp`. `verified`: the replayed end equals
    the stored final state (always, for a game of a rules version this engine plays)."""
    state = engine.new_game(record["num_players"], record["seed"], record["rules_version"])
    steps = [{"version": 0, "seat": None, "action": None, "at": record["started_at"], "events": [],
              "view": _frame(state)}]
    for a in record["actions"]:
        state = engine.apply_action(state, a["seat"], a["action"])
        steps.append({"version": a["version"], "seat": a["seat"], "action": a["action"], "at": a["at"],
                      "events": a["events"],
                      "view": _frame(state)})
    return {"room": record["room"], "game": record["game"], "players": record["players"],
            "result": record["result"], "verified": state.to_json() == record["final_state"],
            "steps": steps}
