"""The container's health check: `python -m app.healthcheck [path]` (standard library only).

GETs ``http://127.0.0.1:$PORT/readyz`` (default path; `/healthz` for liveness only) with a
4 s timeout and exits 0 when the answer is 200, else 1, printing the answer or the error on one
line (Docker keeps the output of the last checks: `docker inspect --format '{{json .State.Health}}'`).
"""
from __future__ import annotations

import os
import sys
import urllib.error
import urllib.request

TIMEOUT_S = 4.0


def check(path: str = "/readyz", port: int | None = None) -> tuple[bool, str]:
    """(healthy, one-line detail) for ``http://127.0.0.1:<port><path>``; `port` defaults to the
    PORT environment variable, else 8000. Never raises for network or HTTP errors."""
    port = port or int(os.environ.get("PORT") or 8000)
    url = f"http://127.0.0.1:{port}{path}"
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT_S) as answer:  # noqa: S310 - fixed http URL
            return answer.status == 200, f"{answer.status} {answer.read(200).decode(errors='replace')}"
    except urllib.error.HTTPError as exc:
        return False, f"{exc.code} {exc.read(200).decode(errors='replace')}"
    except (OSError, ValueError) as exc:
        return False, f"{url}: {exc}"


def main(argv: list[str] | None = None) -> int:
    """Exit status for Docker's HEALTHCHECK: 0 healthy, 1 unhealthy."""
    args = sys.argv[1:] if argv is None else argv
    healthy, detail = check(args[0] if args else "/readyz")
    print(detail)
    return 0 if healthy else 1


if __name__ == "__main__":
    sys.exit(main())
