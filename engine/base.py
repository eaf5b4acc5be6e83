"""What every family module provides, and the errors the rules raise."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, Sequence


class InvalidMoveError(ValueError):
    """Move text that does not parse (bad syntax), e.g. a save file's garbage."""


class IllegalMoveError(ValueError):
    """A well-formed move that the rules forbid in this state."""


class InvalidLevelError(ValueError):
    """A level that breaks its family's rules (e.g. 2 boxes but 3 goals); `cell`, where
    one cell is at fault, lets a reader name its place in the file."""

    def __init__(self, message: str, cell: int | None = None) -> None:
        super().__init__(message)
        self.cell = cell


@dataclass(frozen=True)
class Counters:
    """What the status bar counts: moves for every family, pushes for Sokoban."""

    moves: int = 0
    pushes: int = 0


class Rules(Protocol):
    """The backend table of one family: a module with these names.

    Levels and states are immutable and hashable; moves are small values whose
    `str()` is their text form and `parse_move(str(m)) == m`. A family may also have
    `compact(moves)`: the same plan in fewer move texts, replaying and counting the same.
    """

    NAME: str
    PLAN_SEPARATOR: str  # how move texts are joined into a plan ("" for LURD / rotation)

    def parse_move(self, text: str) -> Any: ...
    def initial_state(self, level: Any) -> Any: ...
    def legal_moves(self, level: Any, state: Any) -> Sequence[Any]: ...
    def apply(self, level: Any, state: Any, move: Any) -> Any: ...
    def is_solved(self, level: Any, state: Any) -> bool: ...
    def tally(self, moves: Sequence[Any]) -> Counters: ...


def format_plan(rules: Rules, moves: Sequence[Any]) -> str:
    """The text of a whole plan, as the CLI prints and save files store it (compacted
    where the family can: traffic's `AR1 AR1` is `AR2`)."""
    compact = getattr(rules, "compact", None)
    return rules.PLAN_SEPARATOR.join(str(m) for m in (compact(moves) if compact else moves))


def parse_plan(rules: Rules, text: str) -> list[Any]:
    """Inverse of `format_plan` (which may have compacted the moves it was given)."""
    text = text.strip()
    if not text:
        return []
    if rules.PLAN_SEPARATOR:
        return [rules.parse_move(t) for t in text.split()]
    return [rules.parse_move(ch) for ch in text]


def replay(rules: Rules, level: Any, moves: Sequence[Any], state: Any = None) -> Any:
    """Apply moves in order from `state` (default: the level's start); raises IllegalMoveError."""
    if state is None:
        state = rules.initial_state(level)
    for move in moves:
        state = rules.apply(level, state, move)
    return state
