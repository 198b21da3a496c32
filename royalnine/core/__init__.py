"""The pure rules core of Royal Nine: cards, scoring, the round/match state machine, views, records.

Standard library only; nothing here imports pygame or the shim.
"""

from royalnine.core.cards import Card, Colour, make_deck, parse_cards
from royalnine.core.errors import BadCard, BadGrid, CorruptRecord, IllegalMove, RoyalNineError
from royalnine.core.files import write_atomic
from royalnine.core.match import (
    HAND_SIZE,
    SEATS,
    Action,
    Confirm,
    Deal,
    Dealer,
    Match,
    MatchConfig,
    MatchOutcome,
    NextRound,
    Phase,
    Place,
    RoundResult,
    RoundState,
    Unplace,
    placement_actions,
)
from royalnine.core.record import MatchRecord, load_record, save_record
from royalnine.core.scoring import CENTRE, LINES, GridScore, LineScore, Role, score_grid
from royalnine.core.view import PlayerView, view

__all__ = [
    "CENTRE",
    "HAND_SIZE",
    "LINES",
    "SEATS",
    "Action",
    "BadCard",
    "BadGrid",
    "Card",
    "Colour",
    "Confirm",
    "CorruptRecord",
    "Deal",
    "Dealer",
    "GridScore",
    "IllegalMove",
    "LineScore",
    "Match",
    "MatchConfig",
    "MatchOutcome",
    "MatchRecord",
    "NextRound",
    "Phase",
    "Place",
    "PlayerView",
    "Role",
    "RoundResult",
    "RoundState",
    "RoyalNineError",
    "Unplace",
    "load_record",
    "make_deck",
    "parse_cards",
    "placement_actions",
    "save_record",
    "score_grid",
    "view",
    "write_atomic",
]
