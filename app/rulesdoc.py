"""docs/rules.md as HTML for the `/rules` page: every rule (`R-pay-9`, `R-pay-6a`) and every
rule group heading (`R-pay`) gets its id as an anchor, so the how-to-play page links each
section to the rules it summarises. Rendered once with markdown-it-py
(https://markdown-it-py.readthedocs.io, CommonMark, raw HTML disabled)."""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from markdown_it import MarkdownIt

RULES_MD = Path(__file__).resolve().parents[1] / "docs" / "rules.md"
_RULE_ID = re.compile(r"^\**(R-[a-z]+(?:-\d+[a-z]?)?)\b")


def _anchor(tokens: list, i: int) -> None:
    """Give the block opened at tokens[i] the rule id its text starts with, if any."""
    inline = next((t for t in tokens[i + 1:i + 3] if t.type == "inline"), None)
    m = _RULE_ID.match(inline.content) if inline is not None else None
    if m and tokens[i].attrGet("id") is None:
        tokens[i].attrSet("id", m.group(1))


@lru_cache(maxsize=1)
def rules_html(path: Path = RULES_MD) -> str:
    """The rules as an HTML fragment (trusted: the project's own document, HTML disabled)."""
    md = MarkdownIt("commonmark", {"html": False})
    tokens = md.parse(path.read_text(encoding="utf-8"))
    for i, tok in enumerate(tokens):
        if tok.type in ("list_item_open", "heading_open"):
            _anchor(tokens, i)
    return md.renderer.render(tokens, md.options, {})
