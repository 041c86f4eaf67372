"""Every rule id of docs/rules.md leads somewhere in one jump (issue 10): it occurs in the
engine's code that implements it (docstring or comment) and in the engine tests (a test name
such as ``test_r_pay_1a_…`` or a docstring citing the id)."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULE_ID = re.compile(r"\bR-[a-z]+-\d+[a-z]?\b")


def rule_ids() -> list[str]:
    return sorted(set(RULE_ID.findall((ROOT / "docs" / "rules.md").read_text(encoding="utf-8"))))


def _mentions(text: str, rid: str) -> bool:
    """``rid`` as a whole id (R-pay-1 is not R-pay-1a), or in a test name (test_r_pay_1_…)."""
    as_name = rid.lower().replace("-", "_")
    return bool(re.search(re.escape(rid) + r"(?![0-9a-z])", text)
                or re.search(r"\btest_" + re.escape(as_name) + r"(?![0-9a-z])", text))


def _texts(folder: str, exclude: str = "") -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / folder).glob("*.py"))
                     if p.name != exclude)


def test_rules_md_has_the_rule_ids():
    ids = rule_ids()
    assert len(ids) >= 50 and "R-buy-3" in ids and "R-pay-6a" in ids


def test_every_rule_id_occurs_in_the_engine():
    code = _texts("engine")
    missing = [rid for rid in rule_ids() if not re.search(re.escape(rid) + r"(?![0-9a-z])", code)]
    assert not missing, f"rule ids with no place in engine/: {missing}"


def test_every_rule_id_occurs_in_the_engine_tests():
    tests = _texts("tests/engine", exclude=Path(__file__).name)
    missing = [rid for rid in rule_ids() if not _mentions(tests, rid)]
    assert not missing, f"rule ids no engine test names or cites: {missing}"
