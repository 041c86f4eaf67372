"""Bot-against-bot tournament: ``python -m bots.tournament --a hard --b normal --players 2``.

Games are driven with the engine directly: ``new_game``, then for the seat to act its
``player_view`` and the events it has received (``visible_to`` null or its seat) go to
``bots.choose_action``; the answer is played with ``play``. Bot A sits in one seat and bot B in
all the others; A's seat rotates with the game number, so every seat is played equally often.

Scoring: a win counts 1; a win shared by k players (R-end-2) counts 1/k to A's score and is
also reported separately. The printed rate is A's mean score with a 95 % Wilson interval.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from engine import action_from_json, is_over, new_game, play, player_view, visible_events

from . import LEVELS, choose_action_info

SEARCHING = ("hard",)

MAX_DECISIONS = 3000


@dataclass
class GameResult:
    """One game: A's seat, the winners, A's score (1, 1/k or 0), decisions and hard-bot stats."""

    game: int
    a_seat: int
    winners: list[int]
    a_score: float
    decisions: int
    sims: int
    search_moves: int
    seconds: float
    vp: list[int]
    a_sims: int = 0            # A's share of ``sims`` and ``search_moves`` (both sides may search)
    a_search_moves: int = 0


def play_game(game: int, a: str, b: str, players: int, budget: float,
              base_seed: int = 0, use_history: bool = True, min_sims: int = 0,
              max_sims: int | None = None, b_root: str | None = None) -> GameResult:
    """Play one game (A in seat ``game % players``) and return its result. The hard bot thinks
    ``budget`` seconds a move, past it until ``min_sims`` simulations, at most ``max_sims``;
    B's seats are played by the bots of the checkout at ``b_root`` when given."""
    t0 = time.perf_counter()
    seed = base_seed * 100_003 + game
    state = new_game(players, seed)
    a_seat = game % players
    levels = [a if s == a_seat else b for s in range(players)]
    histories: list[list[dict]] = [[] for _ in range(players)]
    decisions = sims = search_moves = a_sims = a_moves = 0
    while not is_over(state):
        if decisions >= MAX_DECISIONS:
            raise RuntimeError(f"game {game} did not end after {MAX_DECISIONS} decisions")
        seat = state.to_act
        view = player_view(state, seat)
        action, n_sims = _choose(
            view, levels[seat], b_root if seat != a_seat else None, history=histories[seat] if use_history else None,
            seed=seed * 7919 + decisions, time_budget_s=budget,
            min_simulations=min_sims, max_simulations=max_sims)
        if levels[seat] in SEARCHING:
            sims += n_sims
            search_moves += 1 if n_sims else 0
            if seat == a_seat:
                a_sims += n_sims
                a_moves += 1 if n_sims else 0
        state, events = play(state, seat, action_from_json(action))
        for s in range(players):
            histories[s].extend(visible_events(events, s))
        decisions += 1
    winners = list(state.to_json()["winners"])
    final = player_view(state, None)
    vp = [pl.get("vp", 0) for pl in final["players"]]
    score = (1.0 / len(winners)) if a_seat in winners else 0.0
    return GameResult(game, a_seat, winners, score, decisions, sims, search_moves,
                      time.perf_counter() - t0, vp, a_sims, a_moves)


def _choose(view: dict, level: str, root: str | None = None, **kw) -> tuple[dict, int]:
    """``bots.choose_action_info`` of this checkout, or of the checkout at ``root`` (see
    :func:`bots_at`)."""
    choose = bots_at(root).choose_action_info if root else choose_action_info
    return choose(view, level, **kw)


def bots_at(root: str) -> ModuleType:
    """The ``bots`` package of another checkout at ``root`` (a directory holding ``bots/``, e.g.
    ``git worktree add /tmp/before <commit>``), imported once per process as ``bots_at_<hash of its path>``
    beside this one: the previous hard player against the current one on the same deals
    (docs/bots.md "A stronger hard player?"). It plays with this checkout's ``engine`` (its
    contract is stable, docs/engine.md). Raises ``FileNotFoundError`` without ``root/bots``."""
    init = Path(root).resolve() / "bots" / "__init__.py"
    name = "bots_at_" + hashlib.sha1(str(init).encode()).hexdigest()[:10]
    if name in sys.modules:
        return sys.modules[name]
    if not init.is_file():
        raise FileNotFoundError(f"no bots package at {root}")
    spec = importlib.util.spec_from_file_location(name, init, submodule_search_locations=[str(init.parent)])
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval for a proportion ``successes / n`` (fractional allowed)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def _run(args: tuple) -> GameResult:
    return play_game(*args)


def main(argv: list[str] | None = None) -> int:
    """Command line entry point; prints a summary table, returns the exit status."""
    ap = argparse.ArgumentParser(prog="python -m bots.tournament", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", choices=LEVELS, required=True, help="bot A's level (one seat)")
    ap.add_argument("--b", choices=LEVELS, required=True, help="bot B's level (other seats)")
    ap.add_argument("--b-root", metavar="DIR", default=None,
                    help="B plays with the bots of the checkout at DIR (e.g. a git worktree of an "
                         "earlier commit): the previous hard player against this one")
    ap.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--budget", type=float, default=0.1, help="hard bot seconds per move")
    ap.add_argument("--simulations", type=int, default=None, metavar="N",
                    help="hard bot: exactly N simulations per searched move, whatever the clock "
                         "(the budget is ignored): strength that does not depend on the machine")
    ap.add_argument("--min-simulations", type=int, default=0, metavar="N",
                    help="hard bot: think past the budget until N simulations (BOT_MIN_SIMULATIONS)")
    ap.add_argument("--seed", type=int, default=0, help="base seed of the game series")
    ap.add_argument("--first", type=int, default=0, metavar="G",
                    help="number of the first game (games G, G+1, …: a series split in parts "
                         "plays the same deals and seats as in one run)")
    ap.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    ap.add_argument("--no-history", action="store_true",
                    help="bots get only their view, not the event history")
    ap.add_argument("--quiet", action="store_true", help="no per-game lines")
    args = ap.parse_args(argv)

    fixed = args.simulations
    jobs = [(g, args.a, args.b, args.players, 0.0 if fixed else args.budget, args.seed, not args.no_history,
             fixed if fixed else args.min_simulations, fixed, args.b_root)
            for g in range(args.first, args.first + args.games)]
    t0 = time.perf_counter()
    results: list[GameResult] = []
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as ex:
            for r in ex.map(_run, jobs):
                results.append(r)
                _progress(r, args.quiet)
    else:
        for j in jobs:
            r = _run(j)
            results.append(r)
            _progress(r, args.quiet)
    wall = time.perf_counter() - t0
    n = len(results)
    score = sum(r.a_score for r in results)
    wins = sum(1 for r in results if r.winners == [r.a_seat])
    shared = sum(1 for r in results if r.a_seat in r.winners and len(r.winners) > 1)
    lo, hi = wilson(score, n)
    sims = sum(r.sims for r in results)
    smoves = sum(r.search_moves for r in results)
    think = (f"{fixed} simulations a searched move" if fixed else
             f"budget {args.budget}s" + (f", at least {args.min_simulations} simulations" if args.min_simulations else ""))
    print(f"A={args.a} vs B={args.b}" + (f" of {args.b_root}" if args.b_root else "") + ", "
          f"{args.players} players, {n} games, {think}, "
          f"history={'no' if args.no_history else 'yes'}")
    print(f"A score {score:.1f}/{n} = {score / n:.3f}  95% CI [{lo:.3f}, {hi:.3f}]  "
          f"(sole wins {wins}, shared wins {shared} counted 1/k)")
    print(f"expected by seat share alone: {1 / args.players:.3f}")
    print(f"wall {wall:.1f}s, {n / wall:.3f} games/s, "
          f"{sum(r.decisions for r in results) / n:.1f} decisions/game")
    if smoves:
        print(f"hard bot: {sims / smoves:.1f} simulations per searched move ({smoves} moves)")
        a_sims = sum(r.a_sims for r in results)
        a_moves = sum(r.a_search_moves for r in results)
        if a_moves and a_moves != smoves:
            b_moves = smoves - a_moves
            print(f"  A: {a_sims / a_moves:.1f} per searched move ({a_moves} moves)"
                  + (f", B: {(sims - a_sims) / b_moves:.1f} ({b_moves} moves)" if b_moves else ""))
    return 0


def _progress(r: GameResult, quiet: bool) -> None:
    if not quiet:
        print(f"game {r.game}: A seat {r.a_seat}, winners {r.winners}, vp {r.vp}, "
              f"{r.decisions} decisions, {r.seconds:.1f}s", file=sys.stderr, flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
