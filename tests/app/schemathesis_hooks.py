"""Schemathesis hooks of tests/app/test_openapi_conformance.py (loaded by SCHEMATHESIS_HOOKS):
how to build a value of the OpenAPI document's own string formats `player-name` (app/schemas.py
NAME_SCHEMA), whose rules (docs/protocol.md §Names) no JSON-schema pattern can say, and
`time-zone` (an IANA zone name: app/notify/schemas.py)."""
from __future__ import annotations

import schemathesis
from hypothesis import strategies as st

from app.names import imitates_computer
from app.schemas import clean_name


def _is_name(text: str) -> bool:
    """A name the server takes (`clean_name`, and not a computer player's), unchanged by the
    trimming so that it keeps the document's 1 to 24 characters."""
    try:
        return clean_name(text) == text and not imitates_computer(text)
    except ValueError:
        return False


schemathesis.openapi.format(
    "player-name",
    st.text(st.characters(categories=("L", "M", "N", "P", "S", "Zs")), min_size=1, max_size=24).filter(_is_name))


# The admin notice's text (app/schemas_admin.py, format `notice-text`): one `check_notice` keeps as it is.
def _is_notice(text: str) -> bool:
    from app.admin import check_notice
    try:
        return check_notice(None, text)[1] == text
    except Exception:
        return False


schemathesis.openapi.format(
    "notice-text",
    st.text(st.characters(categories=("L", "M", "N", "P", "S", "Zs")), min_size=1, max_size=200).filter(_is_notice))


# The IANA time zone of quiet hours (app/notify/schemas.py `Quiet.tz`, format `time-zone`).
def _zones() -> list[str]:
    from zoneinfo import available_timezones

    from app.notify.schemas import zone_ok
    return sorted(z for z in available_timezones() if zone_ok(z))


schemathesis.openapi.format("time-zone", st.sampled_from(_zones()))
