"""Static files (app/assets.py): versions follow the content, style sheets name versioned
images, the import map covers every module under any prefix, and the answers carry the
right coding, caching and validators (a Starlette app in process)."""
from __future__ import annotations

import asyncio
import gzip
from pathlib import Path

import brotli
import httpx
import pytest
from starlette.applications import Starlette
from starlette.routing import Route

from app.assets import IMMUTABLE, Assets, accepted_codings

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("header, codings", [
    (None, set()), ("", set()), ("gzip, deflate, br", {"br", "gzip"}), ("gzip", {"gzip"}),
    ("br;q=0, gzip;q=0.5", {"gzip"}), ("*", {"br", "gzip"}), ("*, br;q=0", {"gzip"}),
    ("identity", set()), ("BR ; q=1.0", {"br"}), ("br;q=x", set()),
])
def test_accepted_codings(header, codings):
    assert accepted_codings(header) == codings


JS = "export const a = 1;  // a comment\n" + "".join(f"export const long_name_{i} = {i};\n" for i in range(40))


def _static(tmp_path: Path, js: str = JS) -> Path:
    (tmp_path / "img").mkdir(parents=True)
    (tmp_path / "js").mkdir()
    (tmp_path / "css").mkdir()
    (tmp_path / "img" / "x.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>")
    (tmp_path / "img" / "p.png").write_bytes(b"\x89PNG" + bytes(range(256)) * 4)
    (tmp_path / "js" / "a.js").write_text(js)
    (tmp_path / "css" / "app.css").write_text(
        ".a { background: url(../img/x.svg) }\n.b { background: url('../img/none.svg') }\n")
    return tmp_path


def test_versions_follow_the_content(tmp_path):
    one = Assets(_static(tmp_path / "one"))
    two = Assets(_static(tmp_path / "two", js="export const a = 2;\n"))
    assert one.files["js/a.js"].version != two.files["js/a.js"].version
    assert one.files["css/app.css"].version == two.files["css/app.css"].version
    assert one.files["js/a.js"].body.startswith(b"export const a=1;export const long_name_0=0;")  # minified
    css = one.files["css/app.css"].body.decode()
    assert f"url(../img/x.svg?v={one.files['img/x.svg'].version})" in css
    assert "url(../img/none.svg)" in css  # no such file: no version
    assert one.url("js/a.js", "/osaka") == f"/osaka/static/js/a.js?v={one.files['js/a.js'].version}"
    assert one.import_map("/osaka") == {"imports": {"/osaka/static/js/a.js": one.url("js/a.js", "/osaka")}}


def test_the_project_import_map_names_every_module():
    assets = Assets(ROOT / "static")
    modules = {p.relative_to(ROOT).as_posix() for p in (ROOT / "static").rglob("*.js")}
    assert set(assets.import_map("")["imports"]) == {"/" + m for m in modules}


class _Client:
    """Synchronous GETs against a Starlette app serving `assets` at /static/."""

    def __init__(self, assets: Assets):
        async def static(request):
            return await assets.respond(request, request.path_params["path"])
        self.app = Starlette(routes=[Route("/static/{path:path}", static)])

    def get(self, url: str, headers: dict | None = None) -> httpx.Response:
        async def go():
            async with httpx.AsyncClient(transport=httpx.ASGITransport(app=self.app), base_url="http://t") as c:
                return await c.get(url, headers=headers)
        return asyncio.run(go())


def test_answers(tmp_path):
    assets = Assets(_static(tmp_path))
    client = _Client(assets)
    a = assets.files["js/a.js"]
    versioned = assets.url("js/a.js")
    br = client.get(versioned, headers={"Accept-Encoding": "gzip, br"})
    assert br.status_code == 200 and br.headers["content-encoding"] == "br"
    assert br.headers["cache-control"] == IMMUTABLE and br.headers["vary"] == "Accept-Encoding"
    assert br.headers["content-type"] == "text/javascript; charset=utf-8"
    assert "etag" not in br.headers  # never asked for again
    assert brotli.decompress(a.encoded["br"]) == a.body == br.content
    gz = client.get(versioned, headers={"Accept-Encoding": "gzip"})
    assert gz.headers["content-encoding"] == "gzip" and gzip.decompress(a.encoded["gzip"]) == a.body
    plain = client.get(versioned, headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.content == a.body
    # without (or with an old) version: revalidated, by an ETag per coding
    for url in ("/static/js/a.js", "/static/js/a.js?v=0123456789ab"):
        answer = client.get(url, headers={"Accept-Encoding": "br"})
        assert answer.headers["cache-control"] == "no-cache" and answer.headers["etag"] == f'"{a.version}-br"'
        again = client.get(url, headers={"Accept-Encoding": "br", "If-None-Match": f'W/"{a.version}-br"'})
        assert again.status_code == 304 and again.content == b""
        other = client.get(url, headers={"Accept-Encoding": "gzip", "If-None-Match": f'"{a.version}-br"'})
        assert other.status_code == 200 and other.headers["etag"] == f'"{a.version}-gzip"'
    png = client.get(assets.url("img/p.png"), headers={"Accept-Encoding": "br"})
    assert png.headers["content-type"] == "image/png" and "content-encoding" not in png.headers
    assert "vary" not in png.headers
    for missing in ("/static/js/none.js", "/static/../pyproject.toml", "/static/js/../../x"):
        assert client.get(missing).status_code == 404
