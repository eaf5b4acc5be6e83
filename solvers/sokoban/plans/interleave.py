"""A found plan's walks shortened: the same pushes, the boxes taken in a better order.

A plan found without a proof of its moves (the pushes alone under PI-corral
pruning, or the weighted search) often leaves a box for another and walks
back to it later. Here each box keeps its own pushes in their order, and a
run (pushes the plan makes of one box with no other box pushed in between)
stays whole; only the order of the runs of different boxes changes. Among
all such orders, a Dijkstra search over (runs done per box, the player's
cell) finds one with the fewest moves. The plan's own order is one of them,
so the result never has more moves, and it has the same pushes. A plan of
many runs has too many orders for that: a window of runs at a time is
reordered (the rest of the plan as it is), so it walks less anyway. Then the
runs are cut into pieces where their box turns (a box may wait at a turn while
another moves) and windows of pieces are reordered, from each of those orders
of the runs; the plan that walks least is kept.

Measured on the pushes alone's plans (proven fewest moves for those pushes in
brackets): Microban #153 (336 pushes) 1,069 -> 831 moves by runs, 815 with the
pieces (0.9 s); Microban II #104 406 -> 342 -> 310 (304) and #120 582 -> 412 ->
410 (390); Sasquatch #49 902 -> 566 (windows of runs only) -> 520 (21 s, most of
it the whole plan's runs giving up at the tuning's interleave.most_orders).
Reordering the pieces of the whole plan at once reached #153 808 at up to 40
times the time (50 s).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator

from fewest.solvers.common.control import Control, Stopped
from fewest.solvers.sokoban.board.board import Board, cells_of, steps_to
from fewest.solvers.sokoban.tuning import TUNING, InterleaveTuning, SokobanTuning

Push = tuple[int, int]  # (cell the box leaves, direction index 0..3 = l u r d)
UNKNOWN = object()  # (not worked out yet)
CHECK_EVERY = 256  # orders taken out of the queue between looks at the budget
BYTES_PER_ORDER = 300  # a queued and stored order, for the memory budget


def shortest_interleaving(
    board: Board, boxes: int, player: int, pushes: list[Push], control: Control, tuning: SokobanTuning = TUNING
) -> list[Push]:
    """`pushes` (a plan from `boxes` and `player`) reordered for fewer moves: a window of
    runs at a time (each window for the fewest moves up to the run after it), then a window
    of pieces at a time (the runs cut where their box turns); then the same from the best
    order of the whole plan's runs, kept if it walks less, unless that takes more than the
    tuning's most_orders orders. When the budget runs out or it is cancelled: the best so
    far."""
    knobs = tuning.interleave
    sequence = _runs(board, boxes, pushes)
    if len(sequence) < 3:
        return pushes  # (two runs: the other order would push the second box first)
    windowed = list(sequence)
    best = [sequence, windowed]  # (windows reorder in place, each replaced whole: always sound)
    with control.metered(BYTES_PER_ORDER, tells=False):  # (the plan's search's figures stand, for its stats)
        try:
            _by_windows(board, boxes, player, windowed, control, knobs)
            for start in _starts(board, boxes, player, sequence, windowed, control, knobs):
                pieces = _cut(start)
                best.append(pieces)
                _by_windows(board, boxes, player, pieces, control, knobs)
        except Stopped:
            pass
    fewest = min(best, key=lambda plan: _moves(board, boxes, player, plan))
    return [push for _, run in fewest for push in run]


def _starts(
    board: Board, boxes: int, player: int, sequence: list, windowed: list, control: Control,
    knobs: InterleaveTuning = TUNING.interleave,
) -> Iterator[list]:
    """Orders of the runs for the pieces' windows to start from: `windowed` (the plan after
    windows of runs: quick, and the best start on long plans, so first); the plan's own;
    the best order of all runs, unless that takes more than most_orders orders.
    (Each wins somewhere: Microban II #104's pushes-alone plan 310 moves after the runs'
    windows against 318, Sasquatch #49 520 against 604; Microban #150 139 from the plan's
    order against 147.)"""
    yield windowed
    yield sequence
    if len(sequence) > knobs.window:  # (else one window of runs was the whole plan)
        whole = _reordered(board, boxes, player, sequence, None, control, knobs)
        if whole is not None:
            yield whole


def _runs(board: Board, boxes: int, pushes: list[Push]) -> list[tuple[int, list[Push]]]:
    """The plan as (box, run) in its order, boxes numbered in cell order at the start."""
    box_at = {cell: index for index, cell in enumerate(cells_of(boxes))}
    sequence: list[tuple[int, list[Push]]] = []
    for cell, d in pushes:
        box = box_at.pop(cell)
        box_at[cell + board.steps[d]] = box
        if sequence and sequence[-1][0] == box:
            sequence[-1][1].append((cell, d))
        else:
            sequence.append((box, [(cell, d)]))
    return sequence


def _cut(sequence: list) -> list:
    """(box, run) cut into (box, piece): where the box turns (each piece one direction)."""
    pieces = []
    for box, run in sequence:
        pieces.append((box, [run[0]]))
        for push in run[1:]:
            if push[1] == pieces[-1][1][-1][1]:
                pieces[-1][1].append(push)
            else:
                pieces.append((box, [push]))
    return pieces


def _moves(board: Board, boxes: int, player: int, sequence: list) -> int:
    """The moves of a sound plan given as (box, pushes) in order."""
    total = 0
    for _, run in sequence:
        moves, boxes, player = _play(board, boxes, player, run)
        total += moves
    return total


def _by_windows(
    board: Board, boxes: int, player: int, sequence: list, control: Control, knobs: InterleaveTuning = TUNING.interleave
) -> None:
    """Reorders `sequence` in place, a window of runs at a time, each window half over the last."""
    window = knobs.window
    start = 0
    while start < len(sequence) - 1:
        end = min(start + window, len(sequence))
        after = sequence[end][1][0] if end < len(sequence) else None
        better = _reordered(board, boxes, player, sequence[start:end], after, control, knobs)
        if better is not None:
            sequence[start:end] = better
        for _, run in sequence[start : start + window // 2]:
            _, boxes, player = _play(board, boxes, player, run)  # (a sound plan: always possible)
        start += window // 2


def _reordered(
    board: Board, boxes: int, player: int, sequence: list, after: Push | None, control: Control,
    knobs: InterleaveTuning = TUNING.interleave,
) -> list | None:
    """`sequence` ((box, run) from `boxes` and `player`) in the order with the fewest moves,
    counting the walk to the push `after` it if any; None past most_orders."""
    ids = sorted({box for box, _ in sequence})
    runs: list[list] = [[] for _ in ids]
    for box, run in sequence:
        runs[ids.index(box)].append(run)
    stand = None if after is None else after[0] - board.steps[after[1]]
    order = _best_order(board, boxes, player, runs, stand, control, knobs.most_orders)
    if order is None:
        return None
    return [(ids[box], runs[box][index]) for box, index in order]


def _best_order(
    board: Board, boxes: int, player: int, runs: list, stand: int | None, control: Control, most_orders: int
) -> list[tuple[int, int]] | None:
    """The (box, run index) order with the fewest moves, ending with the walk to `stand` if
    any (Dijkstra; a node is the runs done per box, packed into one int, and the player's
    cell); None past `most_orders` orders taken out."""
    bits = max(len(box_runs) for box_runs in runs).bit_length()
    shift = board.size.bit_length()
    done = sum(len(box_runs) << (box * bits) for box, box_runs in enumerate(runs))
    mask = (1 << bits) - 1
    boxes_after = {0: boxes}  # runs done -> the box cells then (the same whatever the order)
    # (runs done, box) -> its next run played from behind its first push (the same whatever
    # the player's cell: only the walk there differs), or None when it cannot be played then
    after_first: dict = {}
    bits_box = len(runs).bit_length()
    start = player  # (no run done: the packed count is 0)
    best = {start: 0}
    parent: dict = {start: None}
    queue = [(0, start)]
    taken = 0
    while queue:
        cost, key = heapq.heappop(queue)
        if best[key] != cost:
            continue
        progress, here = key >> shift, key & ((1 << shift) - 1)
        if progress == done:
            return _order_to(parent, key, shift, bits, mask)
        taken += 1
        if taken > most_orders:
            return None
        if taken % CHECK_EVERY == 1:  # (the first time too: a budget already spent)
            control.meter.stored = len(best) + len(after_first)  # (on shortest_interleaving's meter)
            control.check()
        cells = boxes_after[progress]
        around = None  # (the walks from here: worked out once, for every box's next run)
        for box, box_runs in enumerate(runs):
            index = (progress >> (box * bits)) & mask
            if index == len(box_runs):
                continue
            run_key = (progress << bits_box) | box
            played = after_first.get(run_key, UNKNOWN)
            if played is UNKNOWN:
                played = after_first[run_key] = _play_on(board, cells, box_runs[index])
            if played is None:
                continue
            behind, steps, after, last = played
            if here != behind:
                if around is None:
                    around = board.layers(here, board.floor & ~cells)[1]
                walk = steps_to(around, behind)
                if walk is None:
                    continue
                steps += walk
            following = progress + (1 << (box * bits))
            if following == done and stand is not None:  # and on to the plan's next push
                walk = board.distance(last, stand, board.floor & ~after)
                if walk is None:
                    continue
                steps += walk
            boxes_after.setdefault(following, after)
            child = (following << shift) | last
            total = cost + steps
            if total < best.get(child, total + 1):
                best[child] = total
                parent[child] = key
                heapq.heappush(queue, (total, child))
    raise AssertionError("the plan's own order is always possible")  # (it reaches `done`)


def _order_to(parent: dict, key: int, shift: int, bits: int, mask: int) -> list[tuple[int, int]]:
    """The (box, run index) steps from the start to `key`, following parents."""
    order = []
    while parent[key] is not None:
        before = parent[key]
        changed = (key >> shift) - (before >> shift)  # one box's count went up by one
        box = (changed.bit_length() - 1) // bits
        order.append((box, (before >> shift >> (box * bits)) & mask))
        key = before
    return order[::-1]


def _play_on(board: Board, boxes: int, run: list[Push]) -> tuple[int, int, int, int] | None:
    """A run from the cell behind its first push: that cell, and what `_play` gives from
    there (None: a push cannot be made)."""
    cell, d = run[0]
    behind = cell - board.steps[d]
    moved = _play(board, boxes, behind, run)  # (no walk to the first push)
    return None if moved is None else (behind, *moved)


def _play(board: Board, boxes: int, player: int, run: list[Push]) -> tuple[int, int, int] | None:
    """The moves a run takes from here (walks and pushes), the box cells and player cell
    after it; None when one of its pushes cannot be made now."""
    moves = 0
    for cell, d in run:
        step = board.steps[d]
        target = cell + step
        if (boxes >> target) & 1 or not (board.floor >> target) & 1:
            return None
        walk = board.distance(player, cell - step, board.floor & ~boxes)
        if walk is None:
            return None
        moves += walk + 1
        boxes ^= (1 << cell) | (1 << target)
        player = cell
    return moves, boxes, player
