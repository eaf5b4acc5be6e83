"""What a difficulty means per family: the par range a level must prove, and its board size.

Ranges were set from the pars of random instances (rotation: a random 8/8/8 board needs
7-10 moves mostly, 11 in one of 25, 13 in about one of 10^8; shift and password: pars
grow with the board and the share of it filled) and, for traffic, from what the cluster
search reaches in seconds.
"""

from __future__ import annotations

from dataclasses import dataclass

FAMILIES = ("sokoban", "traffic", "rotation", "shift", "password")
DIFFICULTIES = ("easy", "medium", "hard", "expert")

# family -> difficulty -> (lowest par, highest par, board size (rows, cols); None: fixed board)
TABLE: dict[str, dict[str, tuple[int, int, tuple[int, int] | None]]] = {
    "sokoban": {"easy": (6, 19, (5, 5)), "medium": (20, 39, (6, 6)),
                "hard": (40, 69, (7, 7)), "expert": (70, 140, (8, 8))},
    "traffic": {"easy": (4, 9, (6, 6)), "medium": (10, 17, (6, 6)),
                "hard": (18, 27, (6, 6)), "expert": (28, 40, (6, 6))},
    "rotation": {"easy": (1, 4, None), "medium": (5, 7, None),
                 "hard": (8, 10, None), "expert": (11, 12, None)},
    "shift": {"easy": (1, 4, (3, 3)), "medium": (5, 9, (4, 4)),
              "hard": (10, 16, (5, 5)), "expert": (17, 26, (6, 6))},
    "password": {"easy": (3, 10, (3, 3)), "medium": (11, 25, (4, 4)),
                 "hard": (26, 40, (4, 4)), "expert": (41, 60, (5, 5))},
}
# Sokoban: the fewest box changes (the player turning from pushing one box to another) the
# proven plan must make, per difficulty. Of random candidates in each par range, the share
# whose plan makes at least these many: easy all (2 boxes: 1 always), medium 46 % (of 48),
# hard 67 % (of 12), expert 77 % (of 13 proven, any par).
BOX_CHANGES = {"easy": 1, "medium": 3, "hard": 5, "expert": 8}
# the largest board each family's generator takes (rows, cols) and the smallest
SIZE_LIMITS: dict[str, tuple[int, int]] = {"sokoban": (4, 10), "traffic": (5, 8), "shift": (2, 8), "password": (2, 6)}


@dataclass(frozen=True)
class Target:
    """A level wanted: its proven par in low..high, on a rows x cols board (None: fixed);
    Sokoban: its proven plan making at least `box_changes` box changes."""

    low: int
    high: int
    size: tuple[int, int] | None
    box_changes: int = 0


def target_for(family: str, difficulty: str = "medium", par: int | None = None,
               size: tuple[int, int] | None = None) -> Target:
    """The target of a difficulty, or of an exact `par` (on the board of the first difficulty
    whose range reaches it); `size` replaces the board. ValueError names what is wrong."""
    if family not in TABLE:
        raise ValueError(f"no generator for family {family!r} (choose from {', '.join(FAMILIES)})")
    rows = TABLE[family]
    if difficulty not in rows:
        raise ValueError(f"unknown difficulty {difficulty!r} (choose from {', '.join(DIFFICULTIES)})")
    low, high, board = rows[difficulty]
    if par is not None:
        most = max(top for _, top, _ in rows.values())
        if not 1 <= par <= most:
            raise ValueError(f"{family} generates pars 1..{most}, not {par}")
        low = high = par
        difficulty = next(name for name, (_, top, _) in rows.items() if par <= top)  # (its board and box changes)
        board = rows[difficulty][2]
    if size is not None:
        if board is None:
            raise ValueError(f"{family} has one board; it takes no --size")
        smallest, largest = SIZE_LIMITS[family]
        if not all(smallest <= side <= largest for side in size) or (family == "traffic" and size[0] != size[1]):
            square = "square, " if family == "traffic" else ""
            raise ValueError(f"{family} boards are {square}{smallest} to {largest} cells a side, not "
                             f"{size[0]}x{size[1]}")
        board = size
    return Target(low, high, board, BOX_CHANGES[difficulty] if family == "sokoban" else 0)


def describe(family: str) -> str:
    """The difficulties' par ranges and boards in one line (for --help and the README)."""
    parts = []
    for difficulty, (low, high, board) in TABLE[family].items():
        on = f" on {board[0]}x{board[1]}" if board else ""
        changes = f" with {BOX_CHANGES[difficulty]}+ box changes" if family == "sokoban" else ""
        parts.append(f"{difficulty} {low}-{high}{on}{changes}")
    return f"{family}: " + ", ".join(parts)
