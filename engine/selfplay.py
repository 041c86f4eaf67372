"""Random self-play: ``python -m engine.selfplay --players 4 --games 200 --seed 1``.

Plays games with uniformly random legal actions through the public API and prints a
summary people can read: speed, actions per game, payments and sinkings per game, the
winners' VPs and how games ended. Uses ``random.Random(seed)`` for the choices; game i uses
engine seed ``seed * 1_000_003 + i``.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter

from . import is_over, legal_actions, new_game, play


def play_random_game(num_players: int, seed: int, rng: random.Random, max_steps: int = 100_000):
    """Play one game with random legal actions. Returns (final state, list of all events).

    Raises:
        RuntimeError: the game did not end within ``max_steps`` actions.
    """
    state = new_game(num_players, seed)
    events: list[dict] = []
    for _ in range(max_steps):
        if is_over(state):
            return state, events
        seat = state.to_act
        state, ev = play(state, seat, rng.choice(legal_actions(state, seat)))
        events += ev
    raise RuntimeError(f"game with seed {seed} did not end in {max_steps} actions")


def _summary(stats: dict, games: int, seconds: float) -> str:
    def mean(xs):
        return statistics.fmean(xs) if xs else 0.0

    lines = [
        f"games            {games} in {seconds:.2f} s  ({games / seconds:.1f} games/s, events included)",
        f"actions per game mean {mean(stats['actions']):.1f}  min {min(stats['actions'])}  "
        f"max {max(stats['actions'])}",
        f"purchases/game   {mean(stats['buys']):.1f}",
        f"payments/game    {mean(stats['payments']):.1f}   (ships reaching Edo per game "
        f"{mean(stats['arrivals']):.1f})",
        f"sinkings/game    {mean(stats['sinkings']):.1f}   (Black Tides per game "
        f"{mean(stats['tides']):.1f}; goods lost per game {mean(stats['lost']):.1f}; "
        f"goods insured per game {mean(stats['insured']):.1f})",
        f"reshuffles/game  {mean(stats['reshuffles']):.2f}",
        f"winners' VPs     mean {mean(stats['winner_vp']):.1f}  min {min(stats['winner_vp'])}  "
        f"max {max(stats['winner_vp'])}   (all players mean {mean(stats['all_vp']):.1f})",
        f"shared wins      {stats['ties']} games",
        "ended by         " + ", ".join(f"{k}: {v}" for k, v in sorted(stats['reasons'].items())),
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    stats = {k: [] for k in ("actions", "buys", "payments", "arrivals", "sinkings", "tides",
                             "lost", "insured", "reshuffles", "winner_vp", "all_vp")}
    stats["reasons"] = Counter()
    stats["ties"] = 0
    start = time.perf_counter()
    for i in range(args.games):
        state, events = play_random_game(args.players, args.seed * 1_000_003 + i, rng)
        kinds = Counter(e["type"] for e in events)
        stats["actions"].append(sum(kinds[k] for k in ("take", "reserve", "buy", "insure",
                                                        "pass", "token_chosen")))
        stats["buys"].append(kinds["buy"])
        stats["payments"].append(kinds["payment"])
        stats["arrivals"].append(sum(len(e["colors"]) for e in events if e["type"] == "payment"))
        stats["tides"].append(kinds["black_tide"])
        stats["sinkings"].append(sum(len(e["colors"]) for e in events if e["type"] == "black_tide"))
        stats["lost"].append(sum(len(e["cards"]) for e in events if e["type"] == "sunk"))
        stats["insured"].append(sum(len(e["goods"]) for e in events if e["type"] == "insure"))
        stats["reshuffles"].append(kinds["reshuffle"])
        stats["winner_vp"] += [state.vp(w) for w in state.winners]
        stats["all_vp"] += [state.vp(p) for p in range(state.num_players)]
        stats["ties"] += len(state.winners) > 1
        stats["reasons"][state.end_reason] += 1
    seconds = time.perf_counter() - start
    print(f"Random self-play, {args.players} players, seed {args.seed}")
    print(_summary(stats, args.games, seconds))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
