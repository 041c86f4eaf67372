"""The review of a finished game (docs/bots.md "Review"): every decision of every person against
the move the hard computer player finds best, and per-player totals.

``review_game(record)`` replays a finished game's record (``seed``, ``num_players``,
``rules_version``, ``players`` with ``computer``, ``actions`` with ``seat`` and ``action``) with
the engine. At every decision of a person's seat (not a computer player's; a forced decision,
one legal move, is only counted) it builds exactly what a computer player in that seat would
have had at that moment — ``engine.player_view`` of the seat and the events it had received —
and runs the hard search (``bots.hard.search``) on it with a FIXED number of simulations
(``SIMULATIONS``, never wall time) and a seed derived from the game seed and the decision's
index, with the move actually chosen always among the compared candidates
(``search(include=...)``). So the same record always gives the same review, on any machine.

Nothing here reads the game's hidden parts for a decision: the search only gets the seat's view
and history (``check_view`` refuses anything else). The totals (VP lost to the Black Tide, saved
by insurance, left unsold) read the replayed full state: they describe the finished game, whose
record holds everything anyway (R-info-3).

A plain function of plain data: it runs in a worker process (app/live/reviews.py).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable

from engine import (CARD_COLORS, CARD_VALUES, COLORS, RULES_VERSION, WAVES, action_from_json, is_over, legal_actions,
                    new_game, play, player_view, visible_events)

from .cards import sale_vp
from .determinize import build_knowledge
from .hard import search

#: Version of the review's shape and method; a stored review of another version is computed again.
REVIEW_VERSION = 1
#: Simulations per reviewed decision (docs/bots.md "Review": a four-player game of ~140 decisions
#: in well under 60 s of one core; bench/review_bench.py).
SIMULATIONS = 64
#: Swings kept per player (the largest VP losses against the best move).
SWINGS_PER_PLAYER = 3
#: A decision counts as a swing only when its VP loss is at least this (VP).
SWING_MIN_VP = 0.05

__all__ = ["REVIEW_VERSION", "SIMULATIONS", "assemble", "person_decisions", "replay_decisions", "review_game",
           "review_part", "totals"]


def decision_seed(game_seed: int, index: int, salt: int = 0) -> int:
    """The search seed of decision ``index`` (0-based over the game's actions) of the game of
    ``game_seed``: 64 bits of SHA-256 of the three numbers (``salt`` 0 for the stored review;
    other salts give the independent runs of bench/review_bench.py)."""
    digest = hashlib.sha256(f"review:{game_seed}:{index}:{salt}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def replay_decisions(record: dict):
    """Replay ``record`` with the engine → yields, for each of its actions in order, ``(index,
    seat, action JSON, state before, events of the action, histories before)`` where
    ``histories[s]`` are the events seat ``s`` had received before this action (``visible_to``
    null or ``s``, as its client was sent them). Raises ``ValueError`` when an action does not
    replay (a record that is not of this engine) or the game is not over at the end."""
    n = record["num_players"]
    state = new_game(n, record["seed"], record.get("rules_version") or RULES_VERSION)
    histories: list[list[dict]] = [[] for _ in range(n)]
    for index, entry in enumerate(record["actions"]):
        seat = entry["seat"]
        try:
            after, events = play(state, seat, action_from_json(entry["action"]))
        except Exception as exc:  # IllegalAction, a malformed action: not this game's record
            raise ValueError(f"action {index} does not replay: {exc}") from exc
        yield index, seat, entry["action"], state, events, histories
        for s in range(n):
            histories[s].extend(visible_events(events, s))
        state = after
    if not is_over(state):
        raise ValueError("the record's game is not over")


def _move(state, action: dict) -> dict:
    """A move as the review words it (public after the end): its type and the facts a sentence
    needs (the colour and value of the card taken or reserved, the count and colours of the goods
    bought, the goods insured, the colour drafted)."""
    t = action["type"]
    if t in ("take", "reserve"):
        c = action["card"]
        return {"type": t, "color": COLORS[CARD_COLORS[c]], "value": CARD_VALUES[c]}
    if t == "buy":
        goods = player_view(state, state.to_act).get("buy", {}).get("goods", [])
        return {"type": t, "goods": len(goods), "colors": sorted({COLORS[CARD_COLORS[c]] for c in goods},
                                                                 key=COLORS.index)}
    if t == "insure":
        return {"type": t, "goods": len(action.get("goods") or [])}
    if t == "choose_token":
        return {"type": t, "color": action["color"]}
    return {"type": t}


def _context(seat: int, events: list[dict]) -> dict | None:
    """What the chosen move led to at once, from its events: the seat's goods sunk by the Black
    Tide it triggered (``tide``, R-pay-5/R-pay-8), or ships it sent to Edo whose sale gave others
    VPs but the seat none (``gave_sale``, R-pay-1) → ``{"code", "colors"}`` or None."""
    sunk = [e["color"] for e in events if e["type"] == "sunk" and e["seat"] == seat]
    if sunk:
        return {"code": "tide", "colors": sorted(set(sunk), key=COLORS.index)}
    sold = [e for e in events if e["type"] == "sale" and e.get("visible_to") is None]
    if sold and all(e["seat"] != seat for e in sold):
        return {"code": "gave_sale", "colors": sorted({e["color"] for e in sold}, key=COLORS.index)}
    return None


def _pct(x: float) -> float:
    return round(100.0 * x, 1)


def review_game(record: dict, *, simulations: int = SIMULATIONS, salt: int = 0,
                progress: Callable[[int, int], None] | None = None) -> dict:
    """The review of a finished game's ``record`` (module docstring) → a JSON-ready dict::

        {"version": REVIEW_VERSION, "simulations": simulations per decision,
         "reviewed": decisions searched, "forced": decisions with one legal move (not searched),
         "decisions": [{"index": action index (0-based), "version": index + 1, "seat", "turn",
                        "phase", "chosen": action JSON, "best": action JSON, "same": bool,
                        "win": [chosen, best] (% for the seat, the search's mean values),
                        "vp": [chosen, best] (expected final VPs of the seat),
                        "loss_vp": best − chosen (VP, ≥ 0), "loss_win": best − chosen (points),
                        "chances": [win chance of every seat (%, sums to 100) after the chosen move]}],
         "swings": [{"seat", "items": [≤ 3 × {"index", "turn", "code": "swing", "chosen": move,
                     "best": move, "vp": loss, "win": loss, "context": null | {"code", "colors"}}]}],
         "totals": totals(record)}

    ``turn`` counts the game's turns (1 = the first turn after the draft; 0 = the token draft;
    an insurance decision has the number of the turn whose purchase raised the Black Tide).
    ``simulations``: the fixed count per decision; ``salt`` changes every seed (0: the stored
    review). ``progress(done, total)`` is called after each person's decision. The same as
    ``assemble(record, *review_part(record, None, ...), simulations)``. Raises ``ValueError``
    for a record that does not replay or whose game is not over."""
    decisions, forced = review_part(record, None, simulations=simulations, salt=salt, progress=progress)
    return assemble(record, decisions, forced, simulations)


def person_decisions(record: dict) -> list[int]:
    """The action indexes of the record that are a person's decisions (not a computer seat's)."""
    computer = {p["seat"] for p in record.get("players", []) if p.get("computer")}
    return [i for i, a in enumerate(record["actions"]) if a["seat"] not in computer]


def review_part(record: dict, indexes: list[int] | None, *, simulations: int = SIMULATIONS, salt: int = 0,
                progress: Callable[[int, int], None] | None = None) -> tuple[list[dict], int]:
    """Review the person decisions of ``record`` whose action index is in ``indexes`` (None:
    all of them; a worker process reviews a game in slices, app/live/reviews.py) → (their
    entries, in order, each with its worded moves under ``"moves"`` for ``assemble``; how many
    of them were forced). Every entry is the same whatever the slicing (its seed is the game's
    and its index's)."""
    people = person_decisions(record)
    wanted = set(people if indexes is None else indexes) & set(people)
    decisions: list[dict] = []
    turn = forced = done = 0
    for index, seat, action, state, events, histories in replay_decisions(record):
        phase = state.phase
        if phase == "turn":
            turn += 1
        if index not in wanted:
            continue
        done += 1
        legal = legal_actions(state, seat)
        chosen = action_from_json(action)
        chosen = next((a for a in legal if a == chosen), chosen)  # the engine's form (a payment's order)
        entry = None
        if len(legal) > 1:
            try:
                entry = _review_one(record, index, seat, turn, state, events, histories[seat], chosen,
                                    simulations, salt)
            except ValueError:
                # The move played is not among the legal moves of the search's sample of the
                # hidden cards (seen once: a payment): not compared, counted with the forced
                # ones, so one decision never fails the whole game's review.
                pass
        if entry is None:
            forced += 1
        else:
            entry["chosen"] = action  # as the record has it
            decisions.append(entry)
        if progress is not None:
            progress(done, len(wanted))
        if done == len(wanted):
            break
    return decisions, forced


def _review_one(record: dict, index: int, seat: int, turn: int, state, events: list[dict], history: list[dict],
                chosen, simulations: int, salt: int) -> dict:
    """One decision's entry (``review_game``): the search sees only the seat's view and history."""
    phase = state.phase
    view = player_view(state, seat)
    know = build_knowledge(view, history)
    rng = random.Random(decision_seed(record["seed"], index, salt))
    res = search(view, know, rng, 1e9, max_simulations=simulations, include=chosen, detail=True)
    mine, best = str(chosen.to_json()), str(res.action.to_json())
    d_mine = res.detail.get(mine) or {}
    d_best = res.detail.get(best) or d_mine
    win_c, win_b = res.stats[mine][1], res.stats[best][1]
    vp_c, vp_b = d_mine.get("vp", 0.0), d_best.get("vp", 0.0)
    wins = d_mine.get("wins") or [1.0] * state.num_players
    norm = sum(wins) or 1.0
    same = mine == best
    return {
        "index": index, "version": index + 1, "seat": seat, "turn": turn, "phase": phase,
        "chosen": chosen.to_json(), "best": res.action.to_json(), "same": same,
        "win": [_pct(win_c), _pct(win_b)], "vp": [round(vp_c, 2), round(vp_b, 2)],
        "loss_vp": 0.0 if same else round(max(0.0, vp_b - vp_c), 2),
        "loss_win": 0.0 if same else round(max(0.0, _pct(win_b) - _pct(win_c)), 1),
        "chances": [_pct(x / norm) for x in wins],
        "moves": [_move(state, chosen.to_json()), _move(state, res.action.to_json()), _context(seat, events)],
    }


def assemble(record: dict, decisions: list[dict], forced: int, simulations: int = SIMULATIONS) -> dict:
    """The review (``review_game``'s shape) from the entries of ``review_part`` (all slices, in
    index order) and the count of forced decisions: the swings (the ``SWINGS_PER_PLAYER``
    largest VP losses of each seat, at least ``SWING_MIN_VP``) and the totals."""
    decisions = sorted(decisions, key=lambda d: d["index"])
    swings = []
    for seat in sorted({d["seat"] for d in decisions}):
        mine = [d for d in decisions if d["seat"] == seat and d["loss_vp"] >= SWING_MIN_VP]
        mine.sort(key=lambda d: (-d["loss_vp"], -d["loss_win"], d["index"]))
        swings.append({"seat": seat, "items": [
            {"index": d["index"], "turn": d["turn"], "code": "swing", "chosen": d["moves"][0],
             "best": d["moves"][1], "vp": d["loss_vp"], "win": d["loss_win"], "context": d["moves"][2]}
            for d in mine[:SWINGS_PER_PLAYER]]})
    return {"version": REVIEW_VERSION, "simulations": simulations, "reviewed": len(decisions),
            "forced": forced, "decisions": [{k: v for k, v in d.items() if k != "moves"} for d in decisions],
            "swings": swings, "totals": totals(record)}


def _set_vp(cards: list[int], tokens: int) -> int:
    """R-pay-1: the VPs of selling ``cards`` (one colour) with ``tokens`` of that colour."""
    if not cards:
        return 0
    return sale_vp(max(CARD_VALUES[c] for c in cards), len(cards), tokens)


def totals(record: dict) -> list[dict]:
    """Per-player VP totals of a finished game's ``record`` (docs/bots.md "Review", all at the
    prices of R-pay-1 with the seat's tokens of that colour at that moment) →
    ``[{"seat", "tide_lost", "insured_saved", "unsold"}]`` by seat (integers, VP):

    - ``tide_lost``: at every Black Tide (R-pay-5..8), for each sinking colour, VP(goods it held
      of that colour) − VP(its goods of that colour that survived, insured: R-pay-7);
    - ``insured_saved``: at every Black Tide, VP(its goods of a sinking colour that survived
      because they were insured, R-pay-6/R-pay-7);
    - ``unsold``: at the end (R-end-1), VP of the merchandise still held, colour by colour.

    Raises ``ValueError`` as ``replay_decisions`` does."""
    n = record["num_players"]
    out = [{"seat": s, "tide_lost": 0, "insured_saved": 0, "unsold": 0} for s in range(n)]
    final = None
    for _index, seat, action, state, events, _h in replay_decisions(record):
        sunk_colors = [e["color"] for e in events if e["type"] == "ship_returned" and e["from"] in WAVES]
        if sunk_colors:
            after = play(state, seat, action_from_json(action))[0].to_json()
            lost: dict[tuple[int, str], list[int]] = {}
            for e in events:
                if e["type"] == "sunk":
                    lost.setdefault((e["seat"], e["color"]), []).extend(e["cards"])
            for p in range(n):
                pl = after["players"][p]
                for col in sunk_colors:
                    kept = [g["card"] for g in pl["goods"] if COLORS[CARD_COLORS[g["card"]]] == col]
                    gone = lost.get((p, col), [])
                    toks = pl["tokens"][col]
                    out[p]["tide_lost"] += _set_vp(kept + gone, toks) - _set_vp(kept, toks)
                    out[p]["insured_saved"] += _set_vp(kept, toks)
        final = (state, seat, action)
    if final is not None:
        end = play(final[0], final[1], action_from_json(final[2]))[0].to_json()
        for p in range(n):
            pl = end["players"][p]
            for col in COLORS:
                cards = [g["card"] for g in pl["goods"] if COLORS[CARD_COLORS[g["card"]]] == col]
                out[p]["unsold"] += _set_vp(cards, pl["tokens"][col])
    return out
