"""Traders of Osaka: the rules engine. Pure Python, standard library only, no I/O.

The public API (docs/engine.md) is exactly what this module exports.
Rule ids (R-…) refer to docs/rules.md.
"""
from .actions import Action, action_from_json
from .cards import (CARD_COLORS, CARD_ICONS, CARD_VALUES, COLORS, EDO, LOCATIONS, NUM_CARDS,
                    WAVES, catalogue)
from .coins import cheapest_payment
from .errors import REFUSAL_CODES, IllegalAction
from .legal import legal_actions
from .rules import apply_action, play
from .result import game_result
from .setup import new_game
from .state import RULES_VERSION, RULES_VERSIONS, GameState, is_over
from .views import player_view, player_view_public, seat_view, visible_events

__all__ = [
    "CARD_COLORS",
    "CARD_ICONS",
    "CARD_VALUES",
    "COLORS",
    "EDO",
    "LOCATIONS",
    "NUM_CARDS",
    "WAVES",
    "catalogue",
    "cheapest_payment",
    "Action",
    "GameState",
    "IllegalAction",
    "REFUSAL_CODES",
    "RULES_VERSION",
    "RULES_VERSIONS",
    "action_from_json",
    "apply_action",
    "game_result",
    "is_over",
    "legal_actions",
    "new_game",
    "play",
    "player_view",
    "player_view_public",
    "seat_view",
    "visible_events",
]
