"""Engine instructions per step, warm: the steady engine figure on a shared machine.

    python bench/engine_instr.py [--games 50] [--players 4] [--root DIR] [--keep DIR]

Runs ``valgrind --tool=callgrind`` twice on the random games of ``bench/engine_bench.py``
(seeds 1_000_003 + i, choices from ``random.Random(1)``): once playing the games once (the
warm-up: imports, caches such as ``coins.payment_pickers``' filled), once playing the same
games twice. The difference of the two instruction totals is the cost of playing the games
warm, and is divided by that pass's steps (a step = one ``legal_actions`` plus one
``apply_action``, the benchmark's ``random.choice`` included). Instruction counts do not
depend on the machine's load, unlike timings (``PYTHONHASHSEED=0``: string hashes, hence
set and dict orders, are the same in every run). ``--root``: the directory whose ``engine``
package is measured (default: this checkout), e.g. a copy of main's for a "before" figure;
``--keep``: keep the two callgrind output files there (for ``callgrind_annotate``).
Figures: docs/performance.md ("Rules engine").
"""
from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def play(games: int, players: int) -> int:
    """Play the benchmark's games once; return the steps."""
    from engine import apply_action, legal_actions, new_game
    rng = random.Random(1)
    steps = 0
    for i in range(games):
        state = new_game(players, 1_000_003 + i)
        while state.to_act is not None:
            seat = state.to_act
            state = apply_action(state, seat, rng.choice(legal_actions(state, seat)))
            steps += 1
    return steps


def _child(passes: int, games: int, players: int, root: str) -> None:
    sys.path.insert(0, root)
    for _ in range(passes):
        steps = play(games, players)
    print(f"steps {steps}")


def _callgrind(passes: int, args, out_dir: str) -> tuple[int, int]:
    out = os.path.join(out_dir, f"callgrind.out.{passes}")
    proc = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable,
         os.path.abspath(__file__), "--child", str(passes), "--games", str(args.games),
         "--players", str(args.players), "--root", args.root],
        capture_output=True, text=True, check=True,
        env={**os.environ, "PYTHONHASHSEED": "0"})       # the same str hashes in every run
    found = re.search(r"Collected : (\d+)", proc.stderr)
    steps = re.search(r"steps (\d+)", proc.stdout)
    if not found or not steps:
        raise SystemExit(f"no count in valgrind's output:\n{proc.stderr[-2000:]}")
    return int(found.group(1)), int(steps.group(1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--root", default=os.path.dirname(HERE))
    parser.add_argument("--keep", help="directory for the callgrind output files")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    args.root = os.path.abspath(args.root)
    if args.child is not None:
        _child(args.child, args.games, args.players, args.root)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        out_dir = args.keep or tmp
        once, steps = _callgrind(1, args, out_dir)
        twice, _ = _callgrind(2, args, out_dir)
    per_step = (twice - once) / steps
    print(f"engine at {args.root}: {args.games} {args.players}-player games, {steps} steps; "
          f"instructions: once {once:,}, twice {twice:,}; warm per step {per_step:,.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
