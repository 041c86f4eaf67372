"""Find the tutorial's deal (issue 32, "Learn to play"; bots/tutorial.py, app/tutorial.py).

    python tools/tutorial_seed.py --players 3 --seeds 400

plays seeds 1..N with every seat the tutorial's move (the normal computer player seeded by its
view) and prints the seeds on which every rule of `bots.tutorial.RULES` comes up for the
person (seat 0), the earliest first: the person's decision by which the last rule came, the
person's decisions in all, and the whole game's. The chosen one is `TUTORIAL_SEED` in
app/tutorial.py (a test checks it still plays that way).
"""
from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from bots.tutorial import RULES, play_through  # noqa: E402


def main() -> None:
    """Parse the arguments, play the seeds, print the good ones."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seeds", type=int, default=200)
    ap.add_argument("--start", type=int, default=1)
    ap.add_argument("--max-decisions", type=int, default=30, help="the person's decisions in all, at most")
    args = ap.parse_args()
    good = []
    for seed in range(args.start, args.start + args.seeds):
        run = play_through(seed, args.players)
        if all(r in run.first for r in RULES) and run.decisions <= args.max_decisions:
            good.append((max(run.first.values()), run.decisions, run.plies, seed, run.first))
    good.sort()
    print(f"{len(good)} of {args.seeds} seeds show every rule to seat 0 within {args.max_decisions} decisions")
    for last, decisions, plies, seed, first in good[:15]:
        order = " ".join(f"{r}@{first[r]}" for r in RULES)
        print(f"seed {seed}: all by decision {last}, {decisions} decisions of the person, {plies} in all; {order}")


if __name__ == "__main__":
    main()
