"""Fewest moves (ties: fewest pushes) by breadth-first search from both ends.

The push search (sokoban/searches/push.py) needs its bound to climb all the way to
the answer, and under the moves metric that bound counts no walking. On a
crowded level whose plan is mostly walking around boxes (Microban #145 and
#146: about 15 pushes in 47 moves) that climb is exponential, while the
positions within half the plan's length of either end are few. This search
goes one single step at a time (a state: the boxes and the player's cell),
forwards from the start and backwards (steps undone, pulls for pushes) from
every solved position, always growing the smaller side by one whole layer.

Why the answer is proven: a state's layer on each side is its exact
distance from that end, and its pushes count is the fewest over the
shortest routes (a layer is complete before the next is made). When the two
sides first share states after layers a (forwards) and b (backwards), the
shortest plan has D = min(df + db) moves over the shared states, and every
plan of D moves passes a state that both sides hold (the one a steps from
the start, when D <= a + b), so the fewest pushes among D-move plans is
min(pf + pb) over the shared states with df + db = D.

Pruning keeps that true: a push onto a dead square (sokoban/board/tables.py) or
into a freeze off the goals (sokoban/pruning/deadlock.py), or a pull onto a cell no
start box (nor a mirror image of one) can be pushed to, leaves only states
no plan passes through.

Where a state fits 64 bits (Microban: every level but #155) both
sides hold their states in numpy arrays (sokoban/searches/meet_compact.py): some 12
bytes of table a state where a dict holds about 130, and a layer made a chunk
at a time. Microban #139 under moves is proven that way (335 moves, 15 s
alone, 18 s in the benchmark), where the dicts ran out of memory at a bound
of 285. The dicts below serve the other boards. Both are sides of one interface
(sokoban/searches/meet_side.py), grown by the same loop.

On a board with mirror symmetry (sokoban/board/symmetry.py) both sides keep one
entry for all images of a state: the distance to the goal is the same for
every image (the goals are symmetric), so the forward side may keep the
nearest image; the plan is then replayed from the real start through the
images.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from typing import Callable, Iterator

from fewest.solvers.common.control import Control, Stopped, collector_paused
from fewest.solvers.common.held_bytes import dict_bytes, int_bytes, resident_bytes
from fewest.solvers.sokoban.board.board import DIRECTIONS, Board, cells_of
from fewest.solvers.sokoban.pruning.deadlock import frozen_group
from fewest.solvers.sokoban.searches.meet_compact import CompactStates, Side, meet_compact_states
from fewest.solvers.sokoban.searches.meet_side import DEPTH, MeetSide, meet_in_the_middle
from fewest.solvers.sokoban.board.symmetry import Symmetry, board_symmetry
from fewest.solvers.sokoban.board.tables import Tables
from fewest.solvers.sokoban.tuning import TUNING, SokobanTuning

VALUE_BYTES = 32  # a stored value's int object
LIST_SLOT_BYTES = 9  # a state's place in a layer's list (with the list's spare room)
INSERTS_AHEAD = 2 * len(DIRECTIONS) * Control.CHECK_EVERY  # the most a side may add between memory checks, twice over


def meet_search(
    tables: Tables, boxes: int, player: int, control: Control, tuning: SokobanTuning = TUNING
) -> tuple[str, int, int] | None:
    """The plan (lurd letters, capitals push), its moves and its pushes; None when there is none.

    Raises `Stopped` when the control's budget runs out or it is cancelled; with no
    memory budget set, it stops ("memory") at the tuning's meet.unbudgeted_bytes."""
    budget = control.budget
    if budget.memory_bytes is None:
        budget = replace(budget, memory_bytes=tuning.meet.unbudgeted_bytes)
    with control.within(budget) as phase, phase.metered() as meter:
        try:
            with collector_paused():
                return _meet(tables, boxes, player, phase, tuning.meet.chunk)
        except Stopped as stop:
            reason = stop.reason  # leaving this block frees the traceback and both sides' states
        finally:
            meter.measure = None  # (and so does this: it counts them)
        raise Stopped(reason, meter.report()) from None


def _meet(tables: Tables, boxes: int, player: int, control: Control, chunk: int) -> tuple[str, int, int] | None:
    """(`chunk`: the packed states expanded at a time, where they fit.)"""
    board = tables.board
    goals = board.goals
    pack = CompactStates(board, tables, boxes, lambda after, cell: bool(frozen_group(tables, after, cell) & ~goals))
    if pack.fits and boxes:
        return _meet_compact(tables, pack, boxes, player, control, chunk)
    shift = board.size.bit_length()
    symmetry = board_symmetry(board)
    key = _keyer(symmetry, shift)
    start = (boxes << shift) | player
    forward = {key(start): 0}
    backward = {key((board.goals << shift) | cell): 0 for cell in cells_of(board.floor & ~board.goals)}
    if key(start) in backward:
        return "", 0, 0
    control.meter.measure = _held_bytes(forward, backward, int_bytes(start) + VALUE_BYTES + LIST_SLOT_BYTES)
    control.check()  # (the solved states alone, a state per floor cell, may not fit: 25 MiB on a 100 x 100 room)
    reachable = pack.reachable  # (its images added below)
    if symmetry is not None:
        for image in symmetry.images(reachable):
            reachable |= image
    forward_steps, backward_steps = _forward_steps(tables), _backward_steps(board, reachable)
    ahead = _DictSide(forward, _layer(symmetry, shift, forward_steps))
    behind = _DictSide(backward, _layer(symmetry, shift, backward_steps))
    middle = meet_in_the_middle(ahead, behind, control)
    if middle is None:
        return None
    sides = (forward.get, backward.get)
    return _plan_through(board, shift, key, start, middle, sides, (forward_steps, backward_steps))


class _DictSide(MeetSide):
    """One end's states in a dict (`seen`: state key -> depth * DEPTH + pushes) and its last
    layer in a list, the next made by `grow_layer` (as _layer makes it)."""

    def __init__(self, seen: dict, grow_layer: Callable) -> None:
        self.seen, self.grow_layer = seen, grow_layer
        self.layer = list(seen)
        self.depth = 0

    def __len__(self) -> int:
        return len(self.seen)

    @property
    def frontier(self) -> int:
        return len(self.layer)

    def grow(self, control: Control, other: _DictSide) -> None:
        self.depth += 1
        self.layer = self.grow_layer(self.layer, self.seen, self.depth, control, len(other))

    def meeting(self, other: _DictSide, control: Control) -> int | None:
        """Of the last layer's states that `other` holds, the one with the fewest pushes in
        all (ties: the least key), or None."""
        shared = [state for state in self.layer if state in other.seen]
        if not shared:
            return None
        return min((self.seen[s] + other.seen[s], s) for s in shared)[1]


def _meet_compact(
    tables: Tables, pack: CompactStates, boxes: int, player: int, control: Control, chunk: int
) -> tuple[str, int, int] | None:
    """The search on packed states (sokoban/searches/meet_compact.py), its plan made here."""
    board = tables.board
    met = meet_compact_states(pack, board, boxes, player, control, chunk)
    if met is None:
        return None
    middle_boxes, middle_player, forward, backward = met
    shift = board.size.bit_length()
    low_bits = (1 << shift) - 1

    def value_of(side: Side) -> Callable[[int], int | None]:
        return lambda state: side.value(pack, state >> shift, state & low_bits)

    steps = (_forward_steps(tables), _backward_steps(board, pack.reachable))
    start, middle = (boxes << shift) | player, (middle_boxes << shift) | middle_player
    return _plan_through(board, shift, int, start, middle, (value_of(forward), value_of(backward)), steps)


def _plan_through(
    board: Board, shift: int, key: Callable, start: int, middle: int, sides: tuple[Callable, Callable],
    steps_of: tuple[Callable, Callable],
) -> tuple[str, int, int]:
    """The plan from `start` through `middle`, a state both sides hold (`sides`: each side's
    state -> depth * DEPTH + pushes, or None), with (forward, backward) `steps_of`."""
    forward_steps, backward_steps = steps_of
    back = _to_the_end(sides[0], key, middle, _packed(shift, backward_steps))[::-1]
    keys = [state for state, _ in back[1:]] + [middle]  # after the start's, in turn
    steps = list(zip(keys, [pushed for _, pushed in back]))  # each with its step's pushes
    steps += _to_the_end(sides[1], key, middle, _packed(shift, forward_steps))
    return _replay(board, shift, key, start, steps, forward_steps)


def _held_bytes(forward: dict, backward: dict, per_state: int) -> Callable[[], int]:
    """The bytes both sides hold: each state's objects, and the two hash tables as CPython
    sizes and grows them. Where the process grew by more than that since it began, the
    difference is added: the count per state falls short on some boards (Sasquatch #49,
    9.1M states: the process grew by 1,301 MiB against a count of 1,094)."""
    resident0 = resident_bytes()

    def held() -> int:
        states = len(forward) + len(backward)
        now = states * per_state + sys.getsizeof(forward) + sys.getsizeof(backward)
        grown = resident_bytes() - resident0
        ahead = dict_bytes(forward, INSERTS_AHEAD) + dict_bytes(backward, INSERTS_AHEAD)
        return states * per_state + ahead + max(0, grown - now)

    return held


def _keyer(symmetry: Symmetry | None, shift: int) -> Callable[[int], int]:
    """state -> its table key: the state itself, or the least of its images."""
    if symmetry is None:
        return int
    low_bits = (1 << shift) - 1

    def key(state: int) -> int:
        boxes = state >> shift
        return symmetry.key(boxes, symmetry.images(boxes), shift, state & low_bits)

    return key


def _layer(symmetry: Symmetry | None, shift: int, steps_of: Callable):
    """grow(layer, seen, depth, control, held): the next layer from `layer` into `seen`
    (state -> depth * DEPTH + pushes), keeping the fewest pushes within the layer."""
    low_bits = (1 << shift) - 1

    def grow(layer: list[int], seen: dict, depth: int, control: Control, held: int) -> list[int]:
        base = depth * DEPTH
        meter = control.meter  # (meet_search's)
        made = []
        images = last = None  # a layer's states come in runs with the same boxes (walks)
        for state in layer:
            meter.stored = held + len(seen)  # (the memory check inside a long layer)
            control.tick()
            boxes, player = state >> shift, state & low_bits
            pushes = seen[state] % DEPTH
            if symmetry is not None and boxes != last:
                images, last = symmetry.images(boxes), boxes
            for child_boxes, moved, cell, pushed in steps_of(boxes, player):
                if images is None:
                    child = (child_boxes << shift) | cell
                elif moved is None:
                    child = symmetry.key(boxes, images, shift, cell)
                else:
                    child_images = symmetry.moved(images, *moved)
                    child = symmetry.key(child_boxes, child_images, shift, cell)
                value = base + pushes + pushed
                old = seen.get(child)
                if old is None:
                    seen[child] = value
                    made.append(child)
                elif old > value:
                    seen[child] = value
        return made

    return grow


def _stuck_both_ways(cell: int, boxes: int, blocked: int, width: int) -> bool:
    """Is `cell` walled or boxed in on both axes (the cheap test before a freeze check)?"""
    solid = blocked | boxes
    return bool(((solid >> (cell - 1)) | (solid >> (cell + 1))) & 1 and ((solid >> (cell - width)) | (solid >> (cell + width))) & 1)


def _forward_steps(tables: Tables) -> Callable:
    """steps(boxes, player): each step as (boxes after, (from, to) of the pushed box or
    None, player's cell after, pushes added); no push onto a dead square or into a freeze
    off the goals."""
    board, dead = tables.board, tables.dead
    floor, steps = board.floor, board.steps
    goals, width, blocked = board.goals, board.width, ~floor

    def steps_of(boxes: int, player: int) -> Iterator[tuple]:
        for step in steps:
            cell = player + step
            if not (floor >> cell) & 1:
                continue
            if (boxes >> cell) & 1:
                beyond = cell + step
                if (floor >> beyond) & 1 and not (boxes >> beyond) & 1 and not (dead >> beyond) & 1:
                    after = boxes ^ (1 << cell) ^ (1 << beyond)
                    if _stuck_both_ways(beyond, after, blocked, width):
                        if frozen_group(tables, after, beyond) & ~goals:
                            continue
                    yield after, (cell, beyond), cell, 1
            else:
                yield boxes, None, cell, 0

    return steps_of


def _backward_steps(board: Board, reachable: int) -> Callable:
    """steps(boxes, player): each step undone, as for `_forward_steps` (a push undone is a
    pull); no pull onto a cell outside `reachable`."""
    floor, steps = board.floor, board.steps

    def steps_of(boxes: int, player: int) -> Iterator[tuple]:
        for step in steps:
            cell = player + step  # where the player stood one step earlier
            if not (floor >> cell) & 1 or (boxes >> cell) & 1:
                continue
            yield boxes, None, cell, 0  # he walked from there
            behind = player - step  # or pushed from there the box now behind him
            if (boxes >> behind) & 1 and (reachable >> player) & 1:
                yield boxes ^ (1 << behind) ^ (1 << player), (behind, player), cell, 1

    return steps_of


def _packed(shift: int, steps_of: Callable) -> Callable:
    """state -> its steps as [(next state, pushes added)] (states packed as in the tables)."""
    low_bits = (1 << shift) - 1

    def steps(state: int) -> Iterator[tuple[int, int]]:
        for boxes, _, cell, pushed in steps_of(state >> shift, state & low_bits):
            yield (boxes << shift) | cell, pushed

    return steps


def _to_the_end(value_of: Callable, key: Callable, state: int, steps: Callable) -> list[tuple[int, int]]:
    """From `state` to its side's end (layer 0), one layer nearer each time with exactly
    the pushes left: [(key, pushes of the step between it and the one before)].
    `value_of`: a state's depth * DEPTH + pushes on that side (None: not held)."""
    out = []
    value = value_of(state)
    while value >= DEPTH:
        state, pushed = next(
            (key(other), pushed) for other, pushed in steps(state) if value_of(key(other)) == value - DEPTH - pushed
        )
        value -= DEPTH + pushed
        out.append((state, pushed))
    return out


def _replay(
    board: Board, shift: int, key: Callable, start: int, steps: list[tuple[int, int]], steps_of: Callable
) -> tuple[str, int, int]:
    """The real plan from `start` whose states after each step have the keys of `steps`
    in turn (with the pushes each step adds), made of the forward `steps_of`."""
    letters = []
    boxes, player = start >> shift, start & ((1 << shift) - 1)
    for want, pushed in steps:
        after, cell = next(
            (after, cell)
            for after, _, cell, adds in steps_of(boxes, player)
            if adds == pushed and key((after << shift) | cell) == want
        )
        letter = DIRECTIONS[board.steps.index(cell - player)]
        letters.append(letter.upper() if pushed else letter)
        boxes, player = after, cell
    plan = "".join(letters)
    return plan, len(plan), sum(letter.isupper() for letter in plan)
