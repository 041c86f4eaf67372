"""The one exception the engine raises for a refused action, and the codes it carries."""

#: Every `IllegalAction.code` the engine raises, in the order of docs/engine.md "Refusals"
#: (the web layer lists them in its refusal registry, app/refusals.py).
REFUSAL_CODES = ("malformed", "game_over", "not_your_turn", "wrong_phase", "card_not_in_market",
                 "card_reserved", "no_reservation_piece", "card_not_available", "no_goods",
                 "duplicate_card", "card_not_in_hand", "payment_too_small", "payment_not_minimal",
                 "pass_not_allowed", "not_insurable", "too_few_icons", "discard_not_minimal")


class IllegalAction(Exception):
    """An action that is not legal now, or not an action at all.

    Attributes:
        code: a stable snake_case word naming the condition, for programs: one of
            ``REFUSAL_CODES``.
        message: an English sentence for people.

    Source: docs/engine.md (``IllegalAction(code, message)``).
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
