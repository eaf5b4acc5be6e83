"""The traffic solver's knobs, one frozen record passed in (tests pass their own with
`dataclasses.replace` instead of patching module globals)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TrafficTuning:
    # A solve finishing the whole-cluster table after the goal is seen, while the cluster is
    # this small (every Rush Hour database cluster in the tests is): later hints are lookups.
    solve_table_states: int = 100_000
    # A "Get out" solve first tries a plain-Python A* up to this many positions (contest boards
    # need a few hundred at most). Measured on random 6-8 boards: it beats the numpy search on
    # solvable boards up to ~40 000 positions; a cluster with no plan, met whole, is ~3x faster
    # in numpy from ~4 000 on.
    small_states: int = 50_000
    # Past this many more positions, the search of a hard "Get out" board stops once to ask the
    # board with fewer cars (relaxed.py): boards settled sooner never pay for those rounds,
    # and a search they cannot settle goes on where it was. About two seconds of search.
    midway_nodes: int = 500_000
    warm_up_seconds: float = 10.0  # warm_up runs unattended: never let a huge board keep a core busy for long
    edge_limit: int = 1 << 24  # adjacency entries kept for a table (every Rush Hour cluster fits)
    chunk_entries: int = 1 << 20  # keys x slides per numpy step: bounds memory, lets a cancel be seen
    # The rounds of boards with fewer cars (relaxed.py): their positions at most, their share
    # of the caller's time budget (when it has one), and the share of the cars a smaller board
    # may keep at most.
    round_nodes: int = 400_000
    round_share: float = 0.25
    kept_share: float = 0.75


TUNING = TrafficTuning()
