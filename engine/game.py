"""The mid-end: one level being played, with undo/redo/restart and counters.

Families never implement history (Tatham's mid-end). Restart, hints and
solutions are ordinary undoable entries, so "undo" after a restart brings the
position back. A game serialises to its entries' kinds and move texts and is
rebuilt by replaying them, so every save exercises the rules.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from typing import Any, Iterable, Sequence

from fewest.engine.base import Counters, InvalidMoveError, Rules


class EntryKind(str, Enum):
    MOVE = "move"
    HINT = "hint"
    SOLVE = "solve"
    RESTART = "restart"


@dataclass(frozen=True)
class Entry:
    """One step of history: how it was made, the move (None for a restart), the state after it,
    and whether its line had help by then (a hint or solve since the restart, undone or not)."""

    kind: EntryKind
    move: Any
    state: Any
    helped: bool = False

    @property
    def text(self) -> str | None:
        return None if self.move is None else str(self.move)


class Game:
    def __init__(self, rules: Rules, level: Any, start: Any = None) -> None:
        self.rules = rules
        self.level = level
        self.start = rules.initial_state(level) if start is None else start
        self._entries: list[Entry] = []
        self._position = 0  # entries[:position] are in effect; the rest can be redone

    # ----- the position -------------------------------------------------
    @property
    def state(self) -> Any:
        return self._entries[self._position - 1].state if self._position else self.start

    @property
    def entries(self) -> tuple[Entry, ...]:
        """The entries in effect, oldest first."""
        return tuple(self._entries[: self._position])

    def _line(self) -> list[Entry]:
        """Entries since the last restart: what the counters count."""
        line: list[Entry] = []
        for entry in self.entries:
            if entry.kind is EntryKind.RESTART:
                line.clear()
            else:
                line.append(entry)
        return line

    @property
    def line_moves(self) -> list[Any]:
        return [e.move for e in self._line()]

    @property
    def counters(self) -> Counters:
        return self.rules.tally(self.line_moves)

    @property
    def assisted(self) -> bool:
        """True when a hint or solution played a move of the current line, even one undone
        since: taking back the hint's move and making it by hand is still the hint's help."""
        return self._position > 0 and self._entries[self._position - 1].helped

    def is_solved(self) -> bool:
        return self.rules.is_solved(self.level, self.state)

    def legal_moves(self) -> Sequence[Any]:
        return self.rules.legal_moves(self.level, self.state)

    # ----- changing it --------------------------------------------------
    def play(self, move: Any, kind: EntryKind = EntryKind.MOVE) -> Any:
        """Apply a move (value or text); drops the redo tail. Raises InvalidMoveError / IllegalMoveError."""
        if isinstance(move, str):
            move = self.rules.parse_move(move)
        state = self.rules.apply(self.level, self.state, move)
        self._push(Entry(EntryKind(kind), move, state))
        return state

    def restart(self) -> bool:
        """Back to the start as an undoable entry; False (no entry) when already there."""
        if self.state == self.start:
            return False
        self._push(Entry(EntryKind.RESTART, None, self.start))
        return True

    def undo(self) -> bool:
        if not self._position:
            return False
        self._position -= 1
        return True

    def redo(self) -> bool:
        if self._position >= len(self._entries):
            return False
        self._position += 1
        return True

    @property
    def can_undo(self) -> bool:
        return self._position > 0

    @property
    def can_redo(self) -> bool:
        return self._position < len(self._entries)

    def undo_to(self, count: int) -> None:
        """Undo `count` entries (used by "undo N moves to a solvable position")."""
        for _ in range(count):
            if not self.undo():
                break

    def _push(self, entry: Entry) -> None:
        tail = self._entries[self._position :]
        if entry.kind is EntryKind.RESTART:
            helped = False
        else:
            before = self._position > 0 and self._entries[self._position - 1].helped
            undone = False  # help on this line that was undone (the tail up to its next restart)
            for later in tail:
                if later.kind is EntryKind.RESTART:
                    break
                undone = undone or later.helped
            helped = entry.kind in (EntryKind.HINT, EntryKind.SOLVE) or before or undone
        del self._entries[self._position :]
        self._entries.append(replace(entry, helped=helped))
        self._position += 1

    # ----- saving -------------------------------------------------------
    def to_record(self) -> dict:
        """A JSON-ready record: every entry (kind, move text) and how many are in effect."""
        return {
            "entries": [[e.kind.value, e.text] for e in self._entries],
            "position": self._position,
            "helped": [e.helped for e in self._entries],  # (undone help is in no entry's kind)
        }

    @classmethod
    def from_record(cls, rules: Rules, level: Any, record: dict, start: Any = None) -> "Game":
        """Rebuild a game by replaying a record; a malformed record raises ValueError (typed)."""
        game = cls(rules, level, start)
        try:
            entries: Iterable = record["entries"]
            position = int(record.get("position", len(record["entries"])))
            for kind, text in entries:
                kind = EntryKind(kind)
                if kind is EntryKind.RESTART:
                    game._push(Entry(EntryKind.RESTART, None, game.start))
                else:
                    game.play(str(text), kind)
        except (KeyError, TypeError, OverflowError) as exc:  # (1e400 is a float no int holds)
            raise InvalidMoveError(f"malformed saved game: {exc}") from None
        if not 0 <= position <= len(game._entries):
            raise InvalidMoveError(f"malformed saved game: position {position} out of range")
        game._position = position
        helped = record.get("helped")  # (absent from games saved before it was kept)
        if isinstance(helped, list) and len(helped) == len(game._entries):
            game._entries = [replace(e, helped=e.helped or h is True) for e, h in zip(game._entries, helped)]
        return game
