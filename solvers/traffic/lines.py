"""Traffic positions as integer keys, and slides computed for whole arrays of them.

Cars never leave their line (row or column) and never pass a car on the same
line, so each line with cars has a short list of placements ("configs"): at
most 15 on an 8 x 8 board. A position is one mixed-radix number with a digit
per line: `key = sum(config[line] * radix[line])`, which fits an int64 for every
board up to 8 x 8 (15 ** 16 < 2 ** 63); int32 when it fits (every 6 x 6
database line), which halves the cost of sorting keys.

Expanding many keys at once: each line config has a bitboard, so a position's
occupied cells are an OR of one bitboard per line (kept twice: row-major, and
transposed so a column's cells are contiguous bits too). The cells along a
car's line then index a table of how far it can slide back and forward, and a
slide changes one digit of the key by a `delta` looked up by (slide, config of
its line). A whole BFS layer expands with a few dozen numpy operations.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from fewest.engine.traffic import CLEAR_ROW, Level, Move, State
from fewest.solvers.traffic.small import line_groups, line_meets_goal, placements


@dataclass(frozen=True)
class Slide:
    """One entry of the move table, in `legal_moves` order."""

    car: int  # index into Level.cars
    line: int  # index into Layout.lines
    direction: str
    distance: int


class Layout:
    """How positions of `level` with the cars of each line in the order of `state` become keys."""

    def __init__(self, level: Level, state: State) -> None:
        self.level = level
        n = level.n
        # cars of a line, in their order along it (fixed: they cannot pass each other)
        self.lines = line_groups(level, state)
        self.line_of = {i: li for li, cars in enumerate(self.lines) for i in cars}
        self.configs = [placements(level, cars) for cars in self.lines]
        self.config_index = [{c: k for k, c in enumerate(cs)} for cs in self.configs]
        counts = [len(cs) for cs in self.configs]
        radix, total = [], 1
        for count in counts:
            radix.append(total)
            total *= count
        if total >= 2**63:  # cannot happen for n <= 8; guards a future larger board
            raise ValueError("board too large for int64 keys")
        self.dtype = np.int32 if total < 2**31 else np.int64
        self.width = width = max(counts, default=1)
        self.radix = np.array(radix, dtype=self.dtype)
        self.counts = np.array(counts, dtype=self.dtype)
        self.line_base = np.arange(len(self.lines), dtype=np.intp) * width
        # bitboards, row-major and column-major: [..., 0] and [..., 1]
        self.walls = np.array(
            [level.wall_mask, sum(1 << _transposed(n, cell) for cell in level.walls)], dtype=np.uint64
        )
        self.line_masks = np.zeros((len(self.lines) * width, 2), dtype=np.uint64)
        self.line_goal = np.zeros(len(self.lines) * width, dtype=bool)
        self.clears_row = level.goal.kind == CLEAR_ROW
        # a lower bound on the moves left, line by line: cars covering the row to clear
        self.line_cost = np.zeros(len(self.lines) * width, dtype=np.intp)
        for li, cars in enumerate(self.lines):
            for k, offsets in enumerate(self.configs[li]):
                cells = [c for i, o in zip(cars, offsets) for c in level.cars[i].cells(n, o)]
                self.line_masks[li * width + k] = (
                    sum(1 << c for c in cells), sum(1 << _transposed(n, c) for c in cells)
                )
                self.line_goal[li * width + k] = line_meets_goal(level, cars, offsets)
                if self.clears_row:
                    self.line_cost[li * width + k] = sum(
                        any(c // n == level.goal.target for c in level.cars[i].cells(n, o))
                        for i, o in zip(cars, offsets)
                    )
        self._build_cars()
        self._build_slides()

    def _build_cars(self) -> None:
        """Per car: its line, its offset in each config of that line, where its line's bits are."""
        level, n, width = self.level, self.level.n, self.width
        cars = level.cars
        self.car_line = np.array([self.line_of[i] for i in range(len(cars))], dtype=np.intp)
        self.car_base = np.arange(len(cars), dtype=np.intp) * width
        offsets = np.zeros(len(cars) * width, dtype=np.intp)
        for i in range(len(cars)):
            li = self.line_of[i]
            slot = self.lines[li].index(i)
            for k, placement in enumerate(self.configs[li]):
                offsets[i * width + k] = placement[slot]
        self.car_offsets = offsets
        self.car_board = np.array([0 if c.horizontal else 1 for c in cars], dtype=np.intp)
        self.car_shift = np.array([c.line * n for c in cars], dtype=np.uint64)
        self.line_shift = n  # (offset << n) + bits indexes the reach tables
        self.car_ahead = np.array([c.length << n for c in cars], dtype=np.intp)
        self.line_bits = np.uint64((1 << n) - 1)
        self.back, self.fore = _reach_tables(n)

    def _build_slides(self) -> None:
        """Every (car, direction, distance) in legal_moves order, and its key delta per config."""
        level, width = self.level, self.width
        slides: list[Slide] = []
        deltas: list[list[int]] = []
        run_first: list[int] = []  # first slide of each (car, direction), back before forward
        for i, car in enumerate(level.cars):
            li = self.line_of[i]
            slot = self.lines[li].index(i)
            for direction, sign in (("L", -1), ("R", 1)) if car.horizontal else (("U", -1), ("D", 1)):
                run_first.append(len(slides))
                for distance in range(1, level.n - car.length + 1):
                    row = [0] * width
                    for k, offsets in enumerate(self.configs[li]):
                        moved = list(offsets)
                        moved[slot] += sign * distance
                        target = self.config_index[li].get(tuple(moved))
                        if target is not None:  # else off the board, on a wall or a car: never legal
                            row[k] = (target - k) * int(self.radix[li])
                    slides.append(Slide(i, li, direction, distance))
                    deltas.append(row)
        self.slides = slides
        self.run_first = np.array(run_first, dtype=np.intp)
        self.slide_line = np.array([s.line for s in slides], dtype=np.intp)
        self.deltas = np.array(deltas, dtype=self.dtype).reshape(-1)

    # ----- keys <-> engine states -----------------------------------------------------
    def encode(self, state: State) -> int:
        key = 0
        for li, cars in enumerate(self.lines):
            k = self.config_index[li].get(tuple(state.offsets[i] for i in cars))
            if k is None:
                raise ValueError("not a valid traffic position for this level")
            key += k * int(self.radix[li])
        return key

    def move(self, slide_index: int) -> Move:
        slide = self.slides[slide_index]
        return Move(self.level.cars[slide.car].name, slide.direction, slide.distance)

    # ----- whole arrays of keys ---------------------------------------------------------
    def line_configs(self, keys: np.ndarray) -> np.ndarray:
        """(m, lines) config numbers of each key."""
        return (keys[:, None] // self.radix[None, :] % self.counts[None, :]).astype(np.intp)

    def expand(self, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(counts, next keys): how many slides each key has, and where they lead, key by key
        and in slide (= legal_moves) order."""
        counts, _, after = self._slides(keys)
        return counts, after

    def slides_from(self, key: int) -> tuple[np.ndarray, np.ndarray]:
        """(slide numbers, next keys) of the legal slides from one key."""
        _, slides, after = self._slides(np.array([key], dtype=self.dtype))
        return slides, after

    def _slides(self, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        configs = self.line_configs(keys)
        occupied = np.bitwise_or.reduce(self.line_masks[configs + self.line_base], axis=1) | self.walls
        # the cells along each car's line as n bits, and where the car is on it: (m, cars)
        bits = ((occupied[:, self.car_board] >> self.car_shift) & self.line_bits).astype(np.intp)
        at = (self.car_offsets[configs[:, self.car_line] + self.car_base] << self.line_shift) + bits
        reach = np.empty(at.shape + (2,), dtype=np.intp)
        reach[:, :, 0] = self.back[at]
        reach[:, :, 1] = self.fore[at + self.car_ahead]
        runs = reach.reshape(-1)
        # one output per legal slide: (key, car and direction) pair, distance - 1
        pair = np.repeat(np.arange(len(runs)), runs)
        step = np.arange(len(pair)) - np.repeat(np.cumsum(runs) - runs, runs)
        which, run = np.divmod(pair, max(1, 2 * len(self.level.cars)))
        slides = self.run_first[run] + step
        after = keys[which] + self.deltas[slides * self.width + configs[which, self.slide_line[slides]]]
        return reach.reshape(len(keys), -1).sum(axis=1), slides, after

    def lower_bound(self, keys: np.ndarray) -> np.ndarray:
        """Moves each key needs at least ("Get out": one per car in the row; else 0).
        One slide changes it by at most 1 (it moves one car): it is consistent."""
        return self.line_cost[self.line_configs(keys) + self.line_base].sum(axis=1)

    def solved(self, keys: np.ndarray) -> np.ndarray:
        return np.logical_and.reduce(self.line_goal[self.line_configs(keys) + self.line_base], axis=1)


@lru_cache(maxsize=None)
def _reach_tables(n: int) -> tuple[np.ndarray, np.ndarray]:
    """back[(o << n) + bits] / fore[(e << n) + bits]: how many free cells lie just before
    `o` / from `e` on, along a line of n cells whose occupied cells are `bits`."""
    back = np.zeros((n + 1) << n, dtype=np.intp)
    fore = np.zeros((n + 1) << n, dtype=np.intp)
    for bits in range(1 << n):
        taken = [bits >> i & 1 for i in range(n)]
        for at in range(n + 1):
            back[(at << n) + bits] = next((at - 1 - j for j in range(at - 1, -1, -1) if taken[j]), at)
            fore[(at << n) + bits] = next((j - at for j in range(at, n) if taken[j]), n - at)
    back.flags.writeable = fore.flags.writeable = False
    return back, fore


def _transposed(n: int, cell: int) -> int:
    """The bit of `cell` in the column-major bitboard."""
    return cell % n * n + cell // n
