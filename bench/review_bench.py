"""Speed and stability of the game review (bots/review.py, docs/bots.md "Review").

    .venv/bin/python bench/review_bench.py [--games 1] [--players 4] [--seed 1] [--easy 0.8]

Plays a game of ``--players`` computer players (each move easy with chance ``--easy``, else
normal: people make odd moves; engine only, seeds fixed; seed 1 with 0.8: 139 decisions), takes it as
a record whose every seat is a person, and reviews it on this one process (one core): prints the
decisions, the reviewed (searched) ones, the CPU seconds of the review at the fixed
``bots.review.SIMULATIONS``; then the same review with other seeds (``salt=1``) and with 10×
the simulations, and the share of reviewed decisions whose best move agrees with the first
review's (and the share where the chosen-vs-best verdict, "same move or not", agrees).
"""
from __future__ import annotations

import argparse
import random
import time

from engine import action_from_json, is_over, new_game, play, player_view, visible_events

from bots import choose_action
from bots.review import SIMULATIONS, review_game


def make_record(players: int, seed: int, easy: float = 0.8) -> dict:
    """A finished game of computer players as a record (seed, players, actions): each move is the
    easy player's with chance ``easy``, else the normal player's."""
    state = new_game(players, seed)
    hist: list[list[dict]] = [[] for _ in range(players)]
    actions = []
    rng = random.Random(seed)
    while not is_over(state):
        seat = state.to_act
        level = "easy" if rng.random() < easy else "normal"   # people make some odd moves
        a = choose_action(player_view(state, seat), level, history=hist[seat], seed=len(actions))
        actions.append({"seat": seat, "action": a})
        state, events = play(state, seat, action_from_json(a))
        for s in range(players):
            hist[s].extend(visible_events(events, s))
    return {"seed": seed, "num_players": players, "rules_version": state.rules_version,
            "players": [{"seat": s, "computer": False} for s in range(players)], "actions": actions}


def _timed(record: dict, **kw) -> tuple[dict, float]:
    t0 = time.process_time()
    r = review_game(record, **kw)
    return r, time.process_time() - t0


def _agree(a: dict, b: dict) -> tuple[float, float]:
    best = {d["index"]: d for d in b["decisions"]}
    pairs = [(d, best[d["index"]]) for d in a["decisions"] if d["index"] in best]
    if not pairs:
        return 1.0, 1.0
    same_best = sum(1 for x, y in pairs if x["best"] == y["best"]) / len(pairs)
    same_verdict = sum(1 for x, y in pairs if x["same"] == y["same"]) / len(pairs)
    return same_best, same_verdict


def main(argv: list[str] | None = None) -> int:
    """Command line entry point (module docstring); prints the figures, returns 0."""
    ap = argparse.ArgumentParser(prog="bench/review_bench.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--easy", type=float, default=0.8, help="share of easy moves in the played game")
    ap.add_argument("--no-stability", action="store_true", help="only the speed")
    args = ap.parse_args(argv)
    for g in range(args.games):
        record = make_record(args.players, args.seed + g, args.easy)
        review, cpu = _timed(record)
        print(f"game seed {args.seed + g}: {len(record['actions'])} decisions, {review['reviewed']} reviewed, "
              f"{review['forced']} forced; review at {SIMULATIONS} simulations: {cpu:.1f} s CPU "
              f"({cpu / max(1, review['reviewed']):.3f} s a reviewed decision)", flush=True)
        again, _ = _timed(record)
        print(f"  same record again: identical review: {again == review}", flush=True)
        if args.no_stability:
            continue
        other, cpu2 = _timed(record, salt=1)
        b, v = _agree(review, other)
        print(f"  other seeds ({cpu2:.1f} s): best move agrees {b:.1%}, verdict (played the best or not) "
              f"agrees {v:.1%}", flush=True)
        big, cpu3 = _timed(record, simulations=10 * SIMULATIONS)
        b, v = _agree(review, big)
        print(f"  10x budget ({10 * SIMULATIONS} simulations, {cpu3:.1f} s): best move agrees {b:.1%}, "
              f"verdict agrees {v:.1%}", flush=True)
        b, v = _agree(other, big)
        print(f"  (other seeds vs 10x budget: best move agrees {b:.1%})", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
