"""Engine benchmark: random full games through new_game / legal_actions / apply_action.

    python bench/engine_bench.py [--players 4] [--games 1000] [--seed 1]

Prints games/s and steps/s (a step = one legal_actions call plus one apply_action) on one
core, by wall-clock time and by the process's CPU time (the figure to compare on a busy,
shared machine). Target: at least 300 four-player games/s; ambition
1,000. Every run plays the same seeds, so runs after the first find the engine's
payment cache (``coins.payment_pickers``) filled: the best run is a warm-cache figure, run 1
the one of fresh games. Figures: docs/performance.md ("Rules engine").
"""
from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from engine import apply_action, legal_actions, new_game  # noqa: E402


def run(players: int, games: int, seed: int) -> tuple[float, float, float, float]:
    """Play ``games`` random games; return (seconds, games/s, steps/s, games/s by CPU time)."""
    rng = random.Random(seed)
    steps = 0
    cpu = time.process_time()
    start = time.perf_counter()
    for i in range(games):
        state = new_game(players, seed * 1_000_003 + i)
        while state.to_act is not None:
            seat = state.to_act
            state = apply_action(state, seat, rng.choice(legal_actions(state, seat)))
            steps += 1
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu
    return seconds, games / seconds, steps / seconds, games / cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="runs; the best is reported")
    args = parser.parse_args(argv)
    print(f"engine benchmark: {args.players} players, {args.games} random games, "
          f"Python {platform.python_version()} on {platform.machine()}, one core")
    best = None
    for r in range(args.repeat):
        seconds, gps, sps, cpu_gps = run(args.players, args.games, args.seed)
        print(f"  run {r + 1}: {seconds:.2f} s  {gps:,.0f} games/s  {sps:,.0f} steps/s  "
              f"(CPU time: {cpu_gps:,.0f} games/s)")
        best = max(best or (0, 0, 0), (gps, sps, cpu_gps))
    print(f"best: {best[0]:,.0f} games/s  {best[1]:,.0f} steps/s  (CPU time: {best[2]:,.0f} games/s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
