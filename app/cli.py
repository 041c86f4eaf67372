"""The `osaka` command: `osaka serve [--host H] [--port P]` and `osaka migrate`."""
from __future__ import annotations

import argparse
import logging
import sys

from .config import Settings
from .migrate import upgrade


def main(argv: list[str] | None = None) -> int:
    """Entry point (pyproject `[project.scripts] osaka`). Returns the exit status."""
    parser = argparse.ArgumentParser(prog="osaka", description="Traders of Osaka game server")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="apply migrations, then serve HTTP and WebSocket")
    serve.add_argument("--host", help="address to bind (env HOST, default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port (env PORT, default 8000)")
    sub.add_parser("migrate", help="apply database migrations up to the head")
    args = parser.parse_args(argv)

    settings = Settings()
    logging.basicConfig(level=settings.log_level.upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if args.command == "migrate":
        upgrade(settings.database_url)
        return 0
    overrides = {k: v for k, v in (("host", args.host), ("port", args.port)) if v is not None}
    settings = settings.model_copy(update=overrides)
    upgrade(settings.database_url)

    import uvicorn

    from .main import create_app
    uvicorn.run(create_app(settings), host=settings.host, port=settings.port,
                log_level=settings.log_level.lower(), ws_max_size=settings.ws_max_size,
                ws_ping_interval=settings.ws_ping_interval_s, ws_ping_timeout=settings.ws_ping_timeout_s,
                timeout_graceful_shutdown=5)
    return 0


if __name__ == "__main__":
    sys.exit(main())
