"""Setting up a new game (R-setup-1..5).

``new_game`` deals and picks the start player; the token draft (R-setup-5) is then played
through ``apply_action`` (rules.py).
"""
from __future__ import annotations

from .cards import ALL_CARDS, FARM_DEAL, MARKET_DEAL, STARTING_HAND_MIN, VALUE
from .shuffle import choice, shuffled
from .state import RULES_VERSION, RULES_VERSIONS, Game, GameState


def new_game(num_players: int, seed: int, rules_version: int = RULES_VERSION) -> GameState:
    """A new game after R-setup-1..4, waiting for the token draft (R-setup-5).

    Args:
        num_players: 2..4 (R-comp-6).
        seed: any integer; the game's whole random future follows from it.
        rules_version: the rules to play by (docs/versioning.md); the current
            ``RULES_VERSION`` unless an older game is being rebuilt.
    Raises:
        ValueError: a player count outside 2..4, a seed that is not an integer, or a rules
            version this engine does not know.
    """
    if type(num_players) is not int or not 2 <= num_players <= 4:
        raise ValueError("a game has 2 to 4 players (R-comp-6)")
    if type(seed) is not int:
        raise ValueError("the seed must be an integer")
    if type(rules_version) is not int or rules_version not in RULES_VERSIONS:
        raise ValueError(f"unknown rules version {rules_version!r} (known: {RULES_VERSIONS})")
    s = GameState.__new__(GameState)
    s._goods = None
    s.num_players = num_players
    order = shuffled(rules_version, seed, 0, ALL_CARDS)             # R-setup-1
    s.discard = ()
    s.ships = (0, 0, 0, 0)
    s.market = tuple(order[:MARKET_DEAL])                           # R-setup-2
    pos = MARKET_DEAL + FARM_DEAL
    s.farm = tuple(order[MARKET_DEAL:pos])
    hands = []
    for _ in range(num_players):                                    # R-setup-3: one at a
        start, total = pos, 0                                       # time until 8 or more
        while total < STARTING_HAND_MIN:
            total += VALUE[order[pos]]
            pos += 1
        hands.append(tuple(order[start:pos]))
    s.deck = tuple(order[pos:])
    s.hands = tuple(hands)
    s.reservations = (None,) * num_players
    s.goods = ((),) * num_players
    s.tokens = ((0, 0, 0, 0),) * num_players
    s.vp_cards = ((),) * num_players
    s.vp_subs = (0,) * num_players
    first = _start_player(s.hands, rules_version, seed)             # R-setup-4
    s._game = Game(seed, rules_version, first, s.hands, None, None,  # R-setup-3a: the
                   1)                        # starting hands kept; the setup is shuffle 1
    s.turn = first
    s.phase = "token_draft"                                         # R-setup-5
    s.to_act = first
    s.sinking = ()
    s.insurance_queue = ()
    s.passes = 0
    return s


def _start_player(hands: tuple[tuple[int, ...], ...], rules_version: int, seed: int) -> int:
    """R-setup-4: lowest starting total, then fewest cards, then the game's seeded random
    choice (R-setup-4a)."""
    keys = [(sum(VALUE[c] for c in h), len(h)) for h in hands]
    best = min(keys)
    tied = [p for p, k in enumerate(keys) if k == best]
    if len(tied) == 1:
        return tied[0]
    return choice(rules_version, seed, "start", tied)
