"""Summarize a py-spy raw profile (collapsed stacks) of the server: where the time goes.

    python bench/profile_summary.py PROFILE.txt [--top 25] [--match app/]

Input: lines `frame;frame;...;frame COUNT` as written by `py-spy record --format raw`
(what `bench/load.py --profile` produces). Idle samples (the event loop waiting in
`select`/`epoll`) are counted apart. Prints the share of busy samples per function: self
(the innermost frame) and inclusive (anywhere on the stack, counted once per sample).
"""
from __future__ import annotations

import argparse
import re
from collections import Counter

IDLE = re.compile(r"\b(select|poll|epoll|_run_once.*select|wait) \(selectors|\(threading.py\)|"
                  r"\bwait \(|_worker \(concurrent/futures/thread.py")


def parse(path: str) -> list[tuple[list[str], int]]:
    """[(frames outermost first, count)] from a collapsed-stacks file."""
    out = []
    with open(path, encoding="utf-8", errors="replace") as fh:
        for line in fh:
            line = line.rstrip("\n")
            if not line:
                continue
            stack, _, count = line.rpartition(" ")
            if not count.isdigit():
                continue
            out.append((stack.split(";"), int(count)))
    return out


def short(frame: str) -> str:
    """`func (path/to/file.py:123)` → `func (file.py)`; keeps the project path for app/engine."""
    m = re.match(r"(.*) \((.*?):?(\d+)?\)$", frame)
    if not m:
        return frame
    func, path = m.group(1), m.group(2)
    for root in ("app/", "engine/", "bots/"):
        i = path.rfind("/" + root)
        if i >= 0:
            return f"{func} ({path[i + 1:]})"
    parts = path.split("/")
    tail = "/".join(parts[-2:]) if "site-packages" in path or "lib/python" in path else path
    return f"{func} ({tail})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("profile")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--match", default="", help="only list functions whose name/file contains this")
    parser.add_argument("--exclude", action="append", default=[], metavar="TEXT",
                        help="drop samples whose stack contains TEXT (e.g. app/routes/rooms.py: room setup)")
    args = parser.parse_args(argv)
    stacks = [(frames, c) for frames, c in parse(args.profile)
              if not any(x in f for x in args.exclude for f in frames)]
    total = sum(c for _, c in stacks)
    idle = sum(c for frames, c in stacks if frames and IDLE.search(frames[-1]))
    busy = [(frames, c) for frames, c in stacks if not (frames and IDLE.search(frames[-1]))]
    nbusy = sum(c for _, c in busy) or 1
    own, incl = Counter(), Counter()
    for frames, c in busy:
        names = [short(f) for f in frames]
        own[names[-1]] += c
        for name in set(names):
            incl[name] += c
    print(f"{total} samples, {idle} idle ({100 * idle / max(1, total):.0f}%), {nbusy} busy")
    for title, counter in (("inclusive", incl), ("self", own)):
        print(f"\n{title} share of busy samples:")
        shown = 0
        for name, c in counter.most_common():
            if args.match and args.match not in name:
                continue
            print(f"  {100 * c / nbusy:5.1f}%  {name}")
            shown += 1
            if shown >= args.top:
                break
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
