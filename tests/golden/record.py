"""Record the golden games: ``python -m tests.golden.record`` (from the repository root).

Run it only on purpose: after a deliberate change of the rules or of the state/event JSON,
when ``tests/golden/test_golden.py`` fails and the change is meant (docs/versioning.md). It
rewrites every ``tests/golden/*.jsonl.gz``; review the difference with
``python -m tests.golden.record --diff`` before you commit the new files.

Each game is played by seeded random legal moves (the policy only picks the moves; the file
keeps the moves themselves, so replaying never depends on it). For each game below the recorder
takes the first seed from ``first_seed`` on whose game ends the way the game asks for and shows
the listed events (so the stored games cover reshuffles, the Black Tide and insurance).

File format (JSON lines, gzip): line 1 is ``{"game": name, "num_players", "seed",
"rules_version", "state"}`` with the state after ``new_game``; then one line per action,
``{"seat", "action", "events", "state"}``: who acted, the action JSON, the events of ``play``
and the full state JSON after it.
"""
from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine import legal_actions, new_game, play  # noqa: E402

HERE = Path(__file__).resolve().parent

#: name -> (players, rules version, end reason, policy, events that must occur, first seed)
GAMES: dict[str, tuple[int, int, str, str, tuple[str, ...], int]] = {
    "v1-2p-tokens": (2, 1, "tokens", "uniform", ("reshuffle", "black_tide", "insure"), 1),
    "v1-3p-passes": (3, 1, "passes", "hoard", ("reshuffle",), 1),
    "v1-4p-tokens": (4, 1, "tokens", "uniform", ("reshuffle", "black_tide", "insure"), 1),
    "v2-2p-passes": (2, 2, "passes", "hoard", ("reshuffle",), 1),
    "v2-3p-tokens": (3, 2, "tokens", "uniform", ("reshuffle", "black_tide", "insure"), 1),
    "v2-4p-tokens": (4, 2, "tokens", "uniform", ("reshuffle", "black_tide", "insure"), 1),
}


def _pick(rng: random.Random, acts: list, policy: str):
    if policy == "hoard":  # mostly take coins, so the piles run dry and everyone passes
        takes = [a for a in acts if a.type == "take"]
        if takes and rng.random() < 0.9:
            return rng.choice(takes)
    insures = [a for a in acts if a.type == "insure" and a.goods]
    if insures and rng.random() < 0.7:  # insure something when possible, to cover R-pay-6
        return rng.choice(insures)
    return rng.choice(acts)


def play_game(players: int, version: int, seed: int, policy: str) -> list[dict]:
    """The lines of one recorded game (see the module docstring)."""
    rng = random.Random(seed)
    s = new_game(players, seed, rules_version=version)
    lines = [{"num_players": players, "seed": seed, "rules_version": version,
              "state": s.to_json()}]
    while s.to_act is not None:
        seat = s.to_act
        action = _pick(rng, legal_actions(s, seat), policy)
        s, events = play(s, seat, action)
        lines.append({"seat": seat, "action": action.to_json(), "events": events,
                      "state": s.to_json()})
    return lines


def find_game(name: str) -> list[dict]:
    """The first game of spec ``GAMES[name]`` that ends and covers as required."""
    players, version, reason, policy, needed, seed = GAMES[name]
    while True:
        lines = play_game(players, version, seed, policy)
        kinds = {e["type"] for line in lines[1:] for e in line["events"]}
        insured = any(line["action"]["type"] == "insure" and line["action"]["goods"]
                      for line in lines[1:])
        if lines[-1]["state"]["end_reason"] == reason and set(needed) <= kinds \
                and (insured or "insure" not in needed):
            lines[0] = {"game": name, **lines[0]}
            return lines
        seed += 1


def encode(lines: list[dict]) -> bytes:
    """The file bytes: compact JSON lines, gzip with a fixed timestamp (reproducible)."""
    text = "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines)
    return gzip.compress(text.encode(), mtime=0)


def first_difference(old: list[dict], new: list[dict]) -> str:
    """Where two recordings of one game part: the first line and the keys that differ."""
    for i, (a, b) in enumerate(zip(old, new)):
        if a != b:
            keys = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))
            if "state" in keys:
                sa, sb = a.get("state") or {}, b.get("state") or {}
                keys += [f"state.{k}" for k in sorted(sa.keys() | sb.keys())
                         if sa.get(k) != sb.get(k)]
            return f"line {i} (action {i}) differs in {', '.join(keys)}"
    return f"lengths differ: {len(old)} lines stored, {len(new)} now"


def decode(data: bytes) -> list[dict]:
    """The lines of a stored game file."""
    return [json.loads(line) for line in gzip.decompress(data).decode().splitlines()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--diff", action="store_true",
                        help="only report which stored games would change, write nothing")
    args = parser.parse_args(argv)
    changed = 0
    for name in GAMES:
        lines = find_game(name)
        path = HERE / f"{name}.jsonl.gz"
        data = encode(lines)
        old = path.read_bytes() if path.exists() else None
        same = old is not None and gzip.decompress(old) == gzip.decompress(data)
        changed += not same
        print(f"{name}: seed {lines[0]['seed']}, {len(lines) - 1} actions, "
              f"{len(data):,} bytes, {'unchanged' if same else 'CHANGED'}")
        if old is not None and not same:
            print("   ", first_difference(decode(old), lines))
        if not args.diff and not same:
            path.write_bytes(data)
    print(f"{changed} of {len(GAMES)} games {'would change' if args.diff else 'rewritten'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
