"""The client's card catalogue, generated from the engine: ``python tests/engine/catalogue_js.py``
rewrites static/js/catalogue.js (``--check`` only compares). test_catalogue_js.py fails when
the file differs from what the engine gives (R-comp-1..3), so the browser never computes card
colours, values or icons on its own."""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine import catalogue  # noqa: E402

PATH = ROOT / "static" / "js" / "catalogue.js"


def render() -> str:
    """The text of static/js/catalogue.js for the engine's ``catalogue()``."""
    cat = catalogue()
    # three cards a line, compact: the table page carries this file (docs/ui.md "Page weight")
    each = [json.dumps(c, separators=(",", ":")) for c in cat["cards"]]
    cards = ",\n".join("  " + ",".join(each[i:i + 3]) for i in range(0, len(each), 3))
    rest = {k: v for k, v in cat.items() if k != "cards"}
    # one key a line: the client's lint allows 120 characters a line
    head = ",\n".join(f"  {json.dumps(k)}: {json.dumps(v, separators=(', ', ': '))}" for k, v in rest.items())
    return ("// GENERATED from the engine's card catalogue (engine.catalogue(), docs/engine.md\n"
            "// \"Cards\") by `python tests/engine/catalogue_js.py`; do not edit by hand.\n"
            "// tests/engine/test_catalogue_js.py fails when it is out of date.\n"
            "export const CATALOGUE = Object.freeze({\n"
            f"{head},\n"
            "  \"cards\": [\n"
            f"{cards}\n"
            "  ]\n"
            "});\n")


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        same = PATH.exists() and PATH.read_text(encoding="utf-8") == text
        print("static/js/catalogue.js is", "up to date" if same else "OUT OF DATE")
        return 0 if same else 1
    PATH.write_text(text, encoding="utf-8")
    print(f"wrote {PATH.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
