"""The one exception the engine raises for a refused action."""


class IllegalAction(Exception):
    """An action that is not legal now, or not an action at all.

    Attributes:
        code: a stable snake_case word naming the condition, for programs
            (``not_your_turn``, ``wrong_phase``, ``game_over``, ``malformed``,
            ``card_not_in_market``, ``card_not_available``, ``card_reserved``,
            ``no_reservation_piece``, ``no_goods``, ``card_not_in_hand``,
            ``duplicate_card``, ``payment_too_small``, ``payment_not_minimal``,
            ``pass_not_allowed``, ``not_insurable``, ``too_few_icons``,
            ``discard_not_minimal``).
        message: an English sentence for people.

    Source: docs/engine.md (``IllegalAction(code, message)``).
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
