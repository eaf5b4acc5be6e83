"""Rotation boards seen one digit at a time: 24-bit cell masks, their moves and their ranks.

Whether a board is solved for digit d depends only on WHICH cells hold d, and
the moves permute cells the same way whatever they hold. So a 24-bit mask
(bit i set = cell i holds d) carries everything. A move permutes bits, so it
keeps the number k of set bits: distances split into one table per k
(`rotation/table.py`), and a board needs only the tables of its digits' counts.
A digit with fewer than 8 cells can never fill the centre and has no table.

A k-bit mask's index in table k is its colex rank (the combinatorial number
system: the sum of C(b_j, j) over its set bits b_1 < b_2 < ...), which orders
the k-bit masks by value. Both a move's image and a rank are two lookups in
4096-entry tables, one for the low 12 bits and one for the high 12 (the high
rank table also keyed by how many low bits are set).

Plain Python lists on purpose: answering from cached tables never imports
numpy (its import alone costs more than a whole warm `fewest solve`).
"""

from __future__ import annotations

import math

from fewest.engine.rotation import CELLS, CENTRE, LETTERS, SOURCES

UNREACHABLE = 255
GOAL_CELLS = len(CENTRE)  # a digit needs at least this many cells to fill the centre
CENTRE_MASK = sum(1 << c for c in CENTRE)
COUNTS = range(GOAL_CELLS, CELLS + 1)  # the bit counts k that have a table
HALF = 12
LOW = (1 << HALF) - 1


def table_size(k: int) -> int:
    """How many masks have k of the 24 bits set: the length of table k."""
    return math.comb(CELLS, k)


def _by_bits(values: list[int]) -> list[int]:
    """table[x] = the sum of values[b] over the set bits b of x (x < 2**len(values))."""
    table = [0]
    for value in values:  # doubling: the entries with bit b set follow those without it
        table += [t + value for t in table]
    return table


def _move_tables() -> tuple[list[list[int]], list[list[int]]]:
    """lo[m][x], hi[m][x]: move m's image of the low / high 12 bits x."""
    lo, hi = [], []
    for letter in LETTERS:
        dest = [0] * CELLS  # dest[b]: the bit a set bit b lands on
        for new, old in enumerate(SOURCES[letter]):
            dest[old] = new
        lo.append(_by_bits([1 << d for d in dest[:HALF]]))
        hi.append(_by_bits([1 << d for d in dest[HALF:]]))
    return lo, hi


def _rank_tables() -> tuple[list[int], list[int], list[int]]:
    """popcount[x]; rank_lo[x]; rank_hi[p * 4096 + x]: the rank terms of high half x above p
    set low bits. Built by doubling, bit b entering above the x < 2**b already tabled."""
    popcount, rank_lo = [0], [0]
    rank_hi = [[0] for _ in range(HALF + 1)]
    for b in range(HALF):
        low_terms = [math.comb(b, j) for j in range(CELLS + 1)]  # bit b as the j-th set bit
        high_terms = [math.comb(HALF + b, j) for j in range(CELLS + 1)]
        for below, table in enumerate(rank_hi):
            terms = high_terms[below + 1 :]
            table += [t + terms[p] for t, p in zip(table, popcount)]
        rank_lo += [t + low_terms[p + 1] for t, p in zip(rank_lo, popcount)]
        popcount += [p + 1 for p in popcount]
    return popcount, rank_lo, [r for table in rank_hi for r in table]


LO, HI = _move_tables()
POPCOUNT, RANK_LO, RANK_HI = _rank_tables()


def image(mask: int, move: int) -> int:
    """The mask after playing move number `move` (0 = A .. 7 = H)."""
    return LO[move][mask & LOW] | HI[move][mask >> HALF]


def rank(mask: int) -> int:
    """The mask's index in the table of its bit count."""
    low = mask & LOW
    return RANK_LO[low] + RANK_HI[POPCOUNT[low] << HALF | mask >> HALF]
