"""The hard computer player's search speed: CPU time per simulation on fixed positions.

Plays five games (three of four players, one of two, one of three: each move normal with
chance 0.7, else easy; fixed seeds), takes every sixth decision with more than one legal move
(83 positions), runs ``bots.hard.search`` on each with a fixed count of simulations and a fixed
seed, and prints the best of three repeats in CPU seconds of this process (``time.process_time``:
another process's load hardly changes it). ``--root DIR`` measures the ``bots`` and ``engine`` of
another checkout (e.g. ``git worktree add /tmp/before <commit>``), so two revisions are compared
on the same positions:

    .venv/bin/python bench/hard_speed.py                       # this checkout
    .venv/bin/python bench/hard_speed.py --root /tmp/before    # another one

docs/bots.md "Speed".
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", default=str(Path(__file__).resolve().parents[1]), help="checkout to measure")
    ap.add_argument("--simulations", type=int, default=60, help="per position (default 60)")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    sys.path.insert(0, args.root)
    import bots  # noqa: PLC0415 - from --root
    from bots import choose_action  # noqa: PLC0415
    from bots.determinize import build_knowledge  # noqa: PLC0415
    from bots.hard import search  # noqa: PLC0415
    from engine import (action_from_json, is_over, legal_actions, new_game, play,  # noqa: PLC0415
                        player_view, visible_events)

    positions = []
    for g, n in [(0, 4), (1, 4), (2, 4), (3, 2), (4, 3)]:
        state, history, rng, k = new_game(n, 8100 + g), [[] for _ in range(n)], random.Random(g), 0
        while not is_over(state):
            seat = state.to_act
            view = player_view(state, seat)
            if k % 6 == 0 and len(legal_actions(state, seat)) > 1:
                positions.append((view, list(history[seat])))
            action = choose_action(view, "normal" if rng.random() < 0.7 else "easy", history=history[seat], seed=k)
            state, events = play(state, seat, action_from_json(action))
            for s in range(n):
                history[s].extend(visible_events(events, s))
            k += 1
    best = None
    for _ in range(args.repeat):
        t0, sims = time.process_time(), 0
        for i, (view, history) in enumerate(positions):
            sims += search(view, build_knowledge(view, history), random.Random(i), 1e9,
                           max_simulations=args.simulations).simulations
        spent = time.process_time() - t0
        best = spent if best is None else min(best, spent)
    print(f"{Path(bots.__file__).parents[1]}: {len(positions)} positions, {sims} simulations, best of "
          f"{args.repeat}: {best:.2f} CPU s = {1000 * best / sims:.3f} ms a simulation, {sims / best:.0f} a CPU second")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
