"""The `osaka` command: `osaka serve [--host H] [--port P]` and `osaka migrate`."""
from __future__ import annotations

import gc

gc.disable()  # no collections while the modules load (part of a start's time): gc_tuning.tune enables it

import argparse  # noqa: E402
import logging  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402

from . import gc_tuning  # noqa: E402
from .config import Settings, retired_settings  # noqa: E402
from .logs import configure as configure_logging  # noqa: E402
from .logs import log_event  # noqa: E402
from .logs import uvicorn_level  # noqa: E402
from .migrate import upgrade, upgrade_if_needed  # noqa: E402

#: Client frames larger than this close the socket (uvicorn, close code 1009); frames above
#: MAX_FRAME_BYTES (app/live/sockets/frames.py) and below this are refused as `bad_message` instead.
WS_MAX_SIZE = 1 << 20


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
    configure_logging(settings.log_level)
    retired = retired_settings(os.environ)
    if retired:  # a leftover of an older setup: named once, never fatal
        log_event(logging.getLogger("osaka"), "retired_settings", logging.WARNING,
                  names=sorted(retired), replaced_by=retired)
    if args.command == "migrate":
        gc.enable()
        upgrade(settings.database_url)
        return 0
    overrides = {k: v for k, v in (("host", args.host), ("port", args.port)) if v is not None}
    settings = settings.model_copy(update=overrides)
    upgrade_if_needed(settings.database_url)  # at the head already: no Alembic (app/migrate.py)

    from .main import create_app
    from .shutdown import serve
    from .ws_protocol import CoalescingWebSocketProtocol
    app = create_app(settings)
    gc_tuning.tune()  # after every import and the app: a large heap, rare full collections
    # Logging stays ours (JSON lines, app/logs.py): no uvicorn log config, no uvicorn access
    # log (app.logs.AccessLog writes it). Behind a reverse proxy, X-Forwarded-For/-Proto/-Prefix
    # are honoured from the addresses in FORWARDED_ALLOW_IPS only: by the app itself
    # (app.prefix.Forwarded, around uvicorn's ProxyHeadersMiddleware), so not by uvicorn here.
    serve(app, app.state.live, host=settings.host, port=settings.port,
          log_config=None, log_level=uvicorn_level(settings.log_level), access_log=False,
          proxy_headers=False, server_header=False,  # no `server: uvicorn` on every answer
          ws_max_size=WS_MAX_SIZE, ws_ping_interval=settings.ws_ping_interval_s,
          ws_ping_timeout=settings.ws_ping_timeout_s,
          ws_per_message_deflate=settings.ws_compression,
          ws=CoalescingWebSocketProtocol)  # uvicorn's sansio protocol, one write per loop pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
