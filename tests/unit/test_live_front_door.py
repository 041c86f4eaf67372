"""`Live` (app/live/service.py) is the only way into the live part from the rest of the app: the
routes, the app's lifespan and the shutdown use its public methods and properties, never its
parts (`live.tables`, `live.hub`, `live.lobby`, …). A static check of every module of app/
outside app/live: each attribute read off a `Live` (a name `live`, `self.live`, `….state.live`)
must be one that the `Live` class itself defines publicly."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "app"
LIVE = APP / "live"
SERVICE = LIVE / "service.py"


def front_door() -> set[str]:
    """The public names the `Live` class defines in its body: methods and properties."""
    tree = ast.parse(SERVICE.read_text())
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Live")
    names = {n.name for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    return {n for n in names if not n.startswith("_")}


def _is_live(node: ast.AST) -> bool:
    """An expression that stands for the app's `Live`: `live`, `self.live`, `request.app.state.live`."""
    return (isinstance(node, ast.Name) and node.id == "live") or (isinstance(node, ast.Attribute)
                                                                   and node.attr == "live")


def reached(source: str) -> list[tuple[int, str]]:
    """(line, attribute) of every attribute read off a `Live` in `source`."""
    return sorted((node.lineno, node.attr) for node in ast.walk(ast.parse(source))
                  if isinstance(node, ast.Attribute) and _is_live(node.value))


def intrusions() -> list[str]:
    """`path:line live.attr` for every use of an attribute outside Live's front door."""
    allowed = front_door()
    out = []
    for path in sorted(APP.rglob("*.py")):
        if LIVE in path.parents:
            continue
        for line, attr in reached(path.read_text()):
            if attr not in allowed:
                out.append(f"{path.relative_to(ROOT)}:{line} live.{attr}")
    return out


def test_the_checker_sees_every_way_of_reaching_in():
    source = ("async def f(request, live, self):\n"
              "    live.tables.get('x')\n"
              "    await request.app.state.live.hub.of('x')\n"
              "    self.live.bots.shutdown()\n"
              "    live.summary(None, None)\n")
    assert reached(source) == [(2, "tables"), (3, "hub"), (4, "bots"), (5, "summary")]


def test_the_front_door_is_made_of_methods():
    door = front_door()
    assert {"serve_room", "serve_lobby", "summary", "act", "close"} <= door
    assert not door & {"tables", "hub", "lobby", "publisher", "bots", "timers", "sockets"}


def test_nothing_outside_app_live_reaches_past_the_front_door():
    assert intrusions() == []
