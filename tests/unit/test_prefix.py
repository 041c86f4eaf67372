"""The URL prefix setting and header (app/prefix.py): one spelling of a prefix, refusals, and
the path inside the app."""
from __future__ import annotations

import pytest
from pydantic import ValidationError

from app.config import Settings
from app.prefix import normalize_prefix, route_path


@pytest.mark.parametrize("raw, prefix", [
    ("", ""), ("/", ""), ("  /osaka/ ", "/osaka"), ("/osaka", "/osaka"), ("/games/osaka/", "/games/osaka"),
    ("/spiel-1.2_x~", "/spiel-1.2_x~"),
    ("osaka", None), ("/a//b", None), ("/a/../b", None), ("/./a", None), ("/%2e%2e", None),
    ("/a?b", None), ("/a#b", None), ("/a b", None), ("//evil.example", None),
    ("/api", None), ("/static/x", None), ("/ws", None), ("/r", None), ("/healthz", None),
])
def test_normalize_prefix(raw, prefix):
    assert normalize_prefix(raw) == prefix


def test_root_path_setting_is_normalized_or_refused():
    assert Settings(root_path="/osaka/").root_path == "/osaka"
    assert Settings().root_path == ""
    for bad in ("osaka", "/api", "/a/../b"):
        with pytest.raises(ValidationError):
            Settings(root_path=bad)


def test_route_path():
    assert route_path({"path": "/osaka/ws/rooms/X", "root_path": "/osaka"}) == "/ws/rooms/X"
    assert route_path({"path": "/osaka", "root_path": "/osaka"}) == "/"
    assert route_path({"path": "/osakax/ws", "root_path": "/osaka"}) == "/osakax/ws"
    assert route_path({"path": "/ws/lobby", "root_path": ""}) == "/ws/lobby"
