"""The files of `static/` as browsers get them: minified, compressed, and under versioned URLs
(docs/performance.md "The browser's share").

At start every file is read once. Scripts and style sheets are minified with tdewolff/minify
(https://github.com/tdewolff/minify, a parser-based minifier for ES2022 modules and CSS; its
Python binding `tdewolff-minify`); the `url(…)` references of a style sheet get the version of
the file they name. Each file's version is the start of the SHA-256 of the bytes served, so its
URL changes exactly when what it serves changes: `/static/js/room.js?v=3f2a…` (`Assets.url`).
Pages name every script and style sheet by its versioned URL, and an import map
(https://html.spec.whatwg.org/multipage/webappapis.html#import-maps, `Assets.import_map`) turns
the modules' own relative imports (`./dom.js`) into versioned URLs too, under any URL prefix.

A request with the current version is answered `Cache-Control: public, max-age=31536000,
immutable`: the browser never asks again. Without it (or with an old one) the answer says
`no-cache` and carries an ETag, so the browser revalidates (304). Text files are sent with
brotli (RFC 7932, quality 11) or gzip (RFC 1952, level 9) as the request's Accept-Encoding
allows (RFC 9110 §12.5.3), with `Vary: Accept-Encoding`; each encoding is made once per
process, on first demand, in a worker thread.
"""
from __future__ import annotations

import gzip
import hashlib
import mimetypes
import re
from dataclasses import dataclass, field
from pathlib import Path

import brotli
import minify
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

IMMUTABLE = "public, max-age=31536000, immutable"
#: Media types sent compressed (when that is smaller); images such as PNG are compressed already.
COMPRESSIBLE = {"text/javascript", "text/css", "image/svg+xml",
                "application/json", "application/manifest+json", "text/plain", "text/markdown"}
MINIFIED = {".js": "text/javascript", ".css": "text/css"}  # RFC 9239: text/javascript
VERSION_CHARS = 12  # hex digits of SHA-256: 48 bits, per file
_CSS_URL = re.compile(r"""url\(\s*(['"]?)([^'")\s?#]+)\1\s*\)""")


@dataclass
class Asset:
    """One file of static/: `path` relative to it ("js/room.js"), the `body` served
    (minified for scripts and style sheets), its `version` and its `media_type`;
    `encoded` holds the compressed bodies made so far ("br", "gzip")."""
    path: str
    body: bytes
    version: str
    media_type: str
    encoded: dict[str, bytes] = field(default_factory=dict)

    @property
    def compressible(self) -> bool:
        """True for text, which is worth compressing."""
        return self.media_type in COMPRESSIBLE

    def encode(self, coding: str) -> bytes:
        """The body compressed with `coding` ("br" or "gzip"); made once, then kept."""
        if coding not in self.encoded:
            if coding == "br":
                self.encoded[coding] = brotli.compress(self.body, quality=11)
            else:
                self.encoded[coding] = gzip.compress(self.body, compresslevel=9, mtime=0)
        return self.encoded[coding]


def media_type_of(path: str) -> str:
    """The media type of a static file by its extension (JavaScript as `text/javascript`)."""
    suffix = Path(path).suffix
    if suffix in MINIFIED:
        return MINIFIED[suffix]
    if suffix == ".webmanifest":
        return "application/manifest+json"
    return mimetypes.guess_type(path)[0] or "application/octet-stream"


def accepted_codings(header: str | None) -> set[str]:
    """The content codings an Accept-Encoding header allows (RFC 9110 §12.5.3): `"br;q=1, gzip"`
    → {"br", "gzip"}; a coding with `q=0` is refused, `*` allows br and gzip."""
    allowed: set[str] = set()
    refused: set[str] = set()
    for item in (header or "").split(","):
        name, _, params = item.strip().partition(";")
        name = name.strip().lower()
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        (allowed if q > 0 else refused).add(name)
    if "*" in allowed:
        allowed |= {"br", "gzip"}
    return (allowed - refused) & {"br", "gzip"}


class Assets:
    """The static files of `directory`, read at start (module docstring).
    `url(path, root)` → versioned URL; `import_map(root)` → the page's import map;
    `respond(request, path)` → the HTTP answer."""

    def __init__(self, directory: Path):
        self.directory = Path(directory)
        self.files: dict[str, Asset] = {}
        files = sorted(p for p in self.directory.rglob("*") if p.is_file())
        # Style sheets last: their url(…) references carry the versions of the files they name.
        for p in sorted(files, key=lambda p: p.suffix == ".css"):
            rel = p.relative_to(self.directory).as_posix()
            self.files[rel] = self._load(rel, p.read_bytes())

    def _load(self, rel: str, raw: bytes) -> Asset:
        media_type = media_type_of(rel)
        body = raw
        if rel.endswith(".css"):
            body = self._versioned_css_urls(rel, raw.decode("utf-8")).encode("utf-8")
        if media_type in MINIFIED.values():
            body = minify.string(media_type, body.decode("utf-8")).encode("utf-8")
        version = hashlib.sha256(body).hexdigest()[:VERSION_CHARS]
        return Asset(rel, body, version, media_type)

    def _versioned_css_urls(self, rel: str, css: str) -> str:
        """`url(../img/x.svg)` → `url(../img/x.svg?v=…)` for the files of static/ it names."""
        base = Path(rel).parent

        def versioned(m: re.Match) -> str:
            target = (base / m.group(2)).as_posix()
            parts: list[str] = []
            for part in target.split("/"):  # resolve ".." within static/
                if part == "..":
                    if parts:
                        parts.pop()
                elif part not in ("", "."):
                    parts.append(part)
            asset = self.files.get("/".join(parts))
            if asset is None:
                return m.group(0)
            return f"url({m.group(1)}{m.group(2)}?v={asset.version}{m.group(1)})"

        return _CSS_URL.sub(versioned, css)

    def url(self, path: str, root: str = "") -> str:
        """`url("js/room.js", "/osaka")` → `/osaka/static/js/room.js?v=3f2a…`; KeyError for a
        file that is not in static/."""
        return f"{root}/static/{path}?v={self.files[path].version}"

    def import_map(self, root: str = "") -> dict:
        """The import map of a page served under `root`: every module's plain URL (as the
        modules' relative imports resolve) → its versioned URL."""
        return {"imports": {f"{root}/static/{p}": self.url(p, root)
                            for p, a in self.files.items() if p.endswith(".js")}}

    async def respond(self, request: Request, path: str) -> Response:
        """The answer to GET/HEAD `/static/{path}` (module docstring): 404 for no such file,
        304 when `If-None-Match` names the ETag, else the body in the best accepted coding."""
        asset = self.files.get(path)
        if asset is None:
            return Response("Not found.", status_code=404, media_type="text/plain")
        coding = None
        if asset.compressible:
            accepted = accepted_codings(request.headers.get("accept-encoding"))
            coding = "br" if "br" in accepted else "gzip" if "gzip" in accepted else None
        if coding:
            if coding not in asset.encoded:
                await run_in_threadpool(asset.encode, coding)
            if len(asset.encoded[coding]) >= len(asset.body):
                coding = None
        # A versioned URL is never asked for again: no ETag (a few bytes less on each of a page's
        # files). Any other is revalidated by its ETag, one per coding.
        etag = f'"{asset.version}{"-" + coding if coding else ""}"'
        headers = {"X-Content-Type-Options": "nosniff"}
        if request.query_params.get("v") == asset.version:
            headers["Cache-Control"] = IMMUTABLE
        else:
            headers.update({"Cache-Control": "no-cache", "ETag": etag})
        if asset.compressible:
            headers["Vary"] = "Accept-Encoding"
        if etag in _etags(request.headers.get("if-none-match")):
            return Response(status_code=304, headers={**headers, "ETag": etag})
        if coding:
            headers["Content-Encoding"] = coding
        # (Starlette adds `; charset=utf-8` to text/ types.)
        return Response(asset.encoded[coding] if coding else asset.body, headers=headers,
                        media_type=asset.media_type)


def _etags(header: str | None) -> set[str]:
    """The entity tags of an If-None-Match header, weak ones as their strong form."""
    return {t.strip().removeprefix("W/") for t in (header or "").split(",") if t.strip()}
