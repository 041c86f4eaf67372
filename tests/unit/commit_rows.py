"""The action the group-commit tests store (app/store/): a row and a
version move with JSON that checks the stored text (non-ASCII, U+2028, nested, null, a float)."""
from __future__ import annotations

from datetime import datetime

from app.store.actions import Pending

STATE = {"phase": "play", "hands": [[1, 2], [3]], "note": "ü€\u2028", "nested": {"3": None, "x": 1.5}}


def pending(room_id: int, version: int, at: datetime, *, code: str | None = None,
            action_id: str | None = None) -> Pending:
    """Room `room_id`'s action from `version` to `version + 1` at `at` (naive UTC): its row and
    its version move; `code` defaults to "R<room_id>", `action_id` to "a<version>"."""
    row = {"room_id": room_id, "version": version + 1, "action_id": action_id or f"a{version}", "seat": 1,
           "action": {"kind": "take", "cards": [1, 2], "why": "é"}, "events": [{"e": "x", "n": None}],
           "created_at": at}
    bump = {"room_id": room_id, "old_version": version, "new_version": version + 1, "new_status": "playing",
            "state": {**STATE, "v": version}, "to_act": 2, "turn_at": at,
            "deadline_at": at.replace(microsecond=0)}
    return Pending(code or f"R{room_id}", row, bump)
