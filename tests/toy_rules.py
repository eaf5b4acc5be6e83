"""A tiny family for testing the shared machinery: a counter to be brought to a target.

Moves: "+" adds 1, "*" doubles (not past LIMIT). Level = (start, target).
"""

from __future__ import annotations

from dataclasses import dataclass

from fewest.engine.base import Counters, IllegalMoveError, InvalidMoveError

NAME = "toy"
PLAN_SEPARATOR = ""
LIMIT = 10_000


@dataclass(frozen=True)
class Level:
    start: int
    target: int


@dataclass(frozen=True)
class Move:
    op: str

    def __str__(self) -> str:
        return self.op


def parse_move(text: str) -> Move:
    if text not in ("+", "*"):
        raise InvalidMoveError(f"not a toy move: {text!r}")
    return Move(text)


def initial_state(level: Level) -> int:
    return level.start


def legal_moves(level: Level, state: int) -> list[Move]:
    return [Move(op) for op in "*+" if _result(state, op) <= LIMIT]


def _result(state: int, op: str) -> int:
    return state + 1 if op == "+" else state * 2


def apply(level: Level, state: int, move: Move) -> int:
    nxt = _result(state, move.op)
    if nxt > LIMIT:
        raise IllegalMoveError(f"{state}{move.op} passes the limit")
    return nxt


def is_solved(level: Level, state: int) -> bool:
    return state == level.target


def tally(moves: list[Move]) -> Counters:
    return Counters(moves=len(moves), pushes=sum(m.op == "*" for m in moves))
