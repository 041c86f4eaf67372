"""Page load time in Debian's headless Chromium (the speed target once kept as a timed test in
tests/e2e/test_pages.py; speed targets live here, run by hand):

    python bench/page_load.py [--runs 10] [--paths / /how-to-play]

Starts `osaka serve` on a fresh migrated SQLite file (app/testing/launcher.py), then for each
path opens it `--runs` times, each in a fresh browser context (an empty cache: a first
visit), and prints the Navigation Timing `loadEventEnd` (ms from navigation start until every
script and stylesheet has loaded and run) as median / p95 / max. Target: a first visit of the
home and how-to-play pages finishes loading in under 1,000 ms on a quiet machine.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.testing.launcher import NO_ADDRESS_LIMITS, QUIET, ServerProcess  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-gpu",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def main() -> None:
    """Parse the arguments, run the measurements, print one line per path."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--paths", nargs="+", default=["/", "/how-to-play"])
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(f"sqlite+aiosqlite:///{tmp}/bench.db", Path(tmp) / "server.log",
                               env={**QUIET, **NO_ADDRESS_LIMITS})
        server.start(migrate_first=True)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
                for path in args.paths:
                    times = []
                    for _ in range(args.runs):
                        context = browser.new_context()
                        page = context.new_page()
                        page.goto(server.base_url + path, wait_until="load")
                        times.append(page.evaluate(
                            "performance.getEntriesByType('navigation')[0].loadEventEnd"))
                        context.close()
                    times.sort()
                    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
                    print(f"{path:<14} first visit loadEventEnd: median {statistics.median(times):.0f} ms, "
                          f"p95 {p95:.0f} ms, max {times[-1]:.0f} ms ({len(times)} runs)")
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
