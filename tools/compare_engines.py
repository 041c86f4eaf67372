"""Play random games with an old copy of the engine and this one side by side, step by step.

    mkdir -p /tmp/oldeng && git -C /work/main archive <commit> engine | tar -x -C /tmp/oldeng \
        && mv /tmp/oldeng/engine /tmp/oldeng/old_engine
    python tools/compare_engines.py --old /tmp/oldeng --games 300

Games cycle through 2, 3 and 4 players and rules versions 1 and 2. At every step both engines
must give the same state (``to_json``), player views (every seat and a spectator), legal-action
lists of every seat (JSON, in order) and events; the action is submitted to the new engine as
the listed object, as JSON, as JSON to a state rebuilt with ``from_json``, or parsed through
``action_from_json`` to ``apply_action`` on a rebuilt state (by turns); the argument state must
stay unchanged; and three illegal submissions must be refused with the same code. Used to check
engine optimizations (docs/performance.md); not a test (the old copy lives outside the repo).
"""
from __future__ import annotations

import argparse
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", required=True, help="directory holding the package old_engine")
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args(argv)
    sys.path.insert(0, args.old)
    import old_engine as O  # noqa: E402
    import engine as N  # noqa: E402

    def dump(acts):
        return [a.to_json() for a in acts]

    steps = 0
    for g in range(args.games):
        players, version = 2 + g % 3, 1 + (g // 3) % 2
        seed = g * 7919 + 13
        rng = random.Random(g)
        so, sn = O.new_game(players, seed, version), N.new_game(players, seed, version)
        while True:
            jo, jn = so.to_json(), sn.to_json()
            assert jo == jn, (g, steps, "state")
            for seat in [None, *range(players)]:
                assert O.player_view(so, seat) == N.player_view(sn, seat), (g, steps, "view")
            for seat in range(players):
                assert dump(O.legal_actions(so, seat)) == dump(N.legal_actions(sn, seat)), \
                    (g, steps, "legal", seat)
            if so.to_act is None:
                break
            seat = so.to_act
            lo, ln = O.legal_actions(so, seat), N.legal_actions(sn, seat)
            i = rng.randrange(len(lo))
            aj = lo[i].to_json()
            so2, evo = O.play(so, seat, lo[i])
            mode = rng.randrange(4)
            if mode == 0:
                sn2, evn = N.play(sn, seat, ln[i])
            elif mode == 1:
                sn2, evn = N.play(sn, seat, aj)
            elif mode == 2:
                sn2, evn = N.play(N.GameState.from_json(jn), seat, aj)
            else:
                parsed = N.action_from_json(aj)
                sn2, evn = N.apply_action(N.GameState.from_json(jn), seat, parsed), evo
            assert evo == evn, (g, steps, "events")
            assert sn2.to_json() == so2.to_json(), (g, steps, "next state")
            assert sn.to_json() == jn, (g, steps, "argument changed")
            other = (seat + 1) % players
            for bad_seat, bad in ((other, aj), (seat, {"type": "take", "card": (g + steps) % 108}),
                                  (seat, {"type": "pass"})):
                codes = []
                for eng, st in ((O, so), (N, sn)):
                    try:
                        eng.apply_action(st, bad_seat, bad)
                        codes.append(None)
                    except eng.IllegalAction as exc:
                        codes.append(exc.code)
                assert codes[0] == codes[1], (g, steps, bad_seat, bad, codes)
            so, sn = so2, sn2
            steps += 1
    print(f"{args.games} games, {steps} steps compared: identical")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
