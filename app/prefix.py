"""Serving under a URL path prefix (`https://example.org/osaka/`, docs/deploy.md "Under a path").

The prefix of a request is `ROOT_PATH` (Settings.root_path), or the `X-Forwarded-Prefix`
header when the request comes from a proxy trusted by `FORWARDED_ALLOW_IPS` (the header wins).
`Forwarded`, the app's outermost middleware, puts it into the ASGI scope as the spec says
(https://asgi.readthedocs.io/en/latest/specs/www.html): `root_path` is the prefix and `path`
starts with it. A proxy may strip the prefix (Caddy `handle_path`, nginx `proxy_pass …/`) or
pass the path on whole (Caddy `handle`): both arrive as the same scope. Everything the app
writes into pages, links, cookies and answers is built from `root_path` (Starlette's
`request.base_url`, `root_of`), never from the address the server binds.

The same middleware applies uvicorn's `ProxyHeadersMiddleware` (X-Forwarded-For/-Proto from
the same trusted proxies), after it has read the proxy's own address.
"""
from __future__ import annotations

import re

from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

#: First path segments of the app's own routes: a prefix starting with one of them could not be
#: told apart from a request whose prefix the proxy stripped, so it is refused.
RESERVED = frozenset({"api", "ws", "r", "static", "rules", "how-to-play", "healthz", "readyz",
                      "openapi.json", "docs", "redoc", "manifest.webmanifest", "sw.js"})
_SEGMENT = re.compile(r"[A-Za-z0-9._~!$&'()*+,;=:@-]+")  # RFC 3986 pchar, without `%`


def normalize_prefix(raw: str) -> str | None:
    """A URL path prefix in its one spelling: `"/osaka/"` → `"/osaka"`, `""` or `"/"` → `""`
    (the root). None when `raw` is no plain absolute path (no `/` first, an empty, `.`, `..` or
    percent-encoded segment, a query) or starts with a segment of `RESERVED`."""
    raw = raw.strip()
    if raw in ("", "/"):
        return ""
    if not raw.startswith("/"):
        return None
    segments = raw[1:].rstrip("/").split("/")  # "//host" has an empty first segment: refused
    if any(s in (".", "..") or not _SEGMENT.fullmatch(s) for s in segments):
        return None
    if segments[0] in RESERVED:
        return None
    return "/" + "/".join(segments)


def root_of(scope) -> str:
    """The prefix of a request or WebSocket (`""` at the root), from its ASGI scope or a
    Starlette `Request`/`WebSocket` (anything with `.scope`)."""
    scope = getattr(scope, "scope", scope)
    return scope.get("app_root_path") or scope.get("root_path") or ""


def route_path(scope) -> str:
    """The path inside the app: `/osaka/ws/rooms/X` with the prefix `/osaka` → `/ws/rooms/X`."""
    path, root = scope["path"], scope.get("root_path") or ""
    if root and (path == root or path.startswith(root + "/")):
        return path[len(root):] or "/"
    return path


def _with_prefix(scope: dict, prefix: str) -> dict:
    scope = dict(scope)
    path = scope["path"]
    if not (path == prefix or path.startswith(prefix + "/")):  # the proxy stripped it
        scope["path"] = prefix + path
        raw = scope.get("raw_path")
        if raw is not None:
            scope["raw_path"] = prefix.encode("ascii") + raw
    scope["root_path"] = prefix
    return scope


class Forwarded:
    """Outermost ASGI middleware: the request's prefix (module docstring), then uvicorn's
    proxy headers. `trusted_hosts` is FORWARDED_ALLOW_IPS (addresses, networks or `*`);
    `root_path` a prefix as `normalize_prefix` returns it."""

    def __init__(self, app, *, trusted_hosts: str, root_path: str = ""):
        self.inner = ProxyHeadersMiddleware(app, trusted_hosts=trusted_hosts)
        self.trusted = self.inner.trusted_hosts
        self.root_path = root_path

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            prefix = self.root_path
            client = scope.get("client")
            if client and client[0] in self.trusted:
                for name, value in scope["headers"]:
                    if name == b"x-forwarded-prefix":
                        forwarded = normalize_prefix(value.decode("latin-1"))
                        if forwarded is not None:
                            prefix = forwarded
                        break
            if prefix:
                scope = _with_prefix(scope, prefix)
        await self.inner(scope, receive, send)
