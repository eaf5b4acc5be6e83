"""The rules of every family, and the mid-end (`Game`) that owns history.

Each family module has the same shape and order (see `engine.base.Rules`):
Level, State, Move, parse_move, initial_state, legal_moves, apply, is_solved,
tally. `FAMILIES` is the backend table: family name -> rules module.
No I/O, no UI and no search live here.
"""

from fewest.engine.base import (
    Counters,
    IllegalMoveError,
    InvalidLevelError,
    InvalidMoveError,
    Rules,
)
from fewest.engine.game import Entry, EntryKind, Game

__all__ = [
    "Counters",
    "Entry",
    "EntryKind",
    "FAMILIES",
    "Game",
    "IllegalMoveError",
    "InvalidLevelError",
    "InvalidMoveError",
    "Rules",
    "family_names",
    "rules_for",
]


def __getattr__(name: str):
    # The backend table imports every family; load it only when asked for.
    if name in ("FAMILIES", "family_names", "rules_for"):
        from fewest.engine import registry

        return getattr(registry, name)
    raise AttributeError(name)

