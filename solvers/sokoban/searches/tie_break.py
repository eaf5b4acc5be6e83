"""The pushes metric's tie-break: the fewest moves among the plans of the fewest pushes.

When the proof of (pushes, moves) runs out, the pushes alone may still be
proven (PI-corral pruning, sokoban/pruning/corrals.py): N pushes, no fewer. Here the
moves among N-push plans are proven fewest another way. Every position on
such a plan lies k pushes from the start and exactly N - k from the goal, so
the plans are the paths of a graph in N layers. From the start, layer by
layer, a position's children (any push that is not a certain deadlock) are
kept when they can still finish within the pushes left: a depth-first
search of the pushes alone answers that, with PI-corral pruning (it keeps a
plan of the fewest pushes from any position), the box-to-goal matching, the
goal rooms' bounds (sokoban/bounds/rooms.py: the order a room must be filled in,
which the matching does not see) and the pull table's exact pushes near the
goal (sokoban/pulls/table.py, grown first with the N-push plan known, on from the
one the pushes alone grew if any) for bounds. Its answers hold whatever the
way there ("no plan within b pushes from here", "one within b"), so each is
kept and serves again. The pushes kept are kept as the graph's edges. Then
the fewest moves over them: each box set with the player's exact cell, the
walk to each push counted, one breadth-first search per position from all
its player cells at once.

The layers are small where a proof of (pushes, moves) sinks in positions
whose bound is too low (Microban #153: 1,012 positions in its first 100
layers). What it costs is the searches that turn a child away, on a level
whose bound is far below its pushes. The pull table ends them early, so it
gets up to the tuning's tie_break.table_share first, grown as deep as that
allows (Microban II #104: its layers took 138 s after a table 49 pulls deep,
45 s after 55, 20 s after 60, 10 s after 65), then grows on as the questions
go, a layer each
time they have taken as long as it is foreseen to (_GrowOn). Where the table
is exact for the pushes left, a child's look-up in it is the whole answer.

Measured, `fewest solve --metric pushes --timeout 60 --memory 2` (2026-12-02,
with the rooms' bounds), where the proof of (pushes, moves) ran out:
Sasquatch #6 133 moves (43 pushes) in 51 s; Microban II #104 304 (82) in 54
and 56 s in two runs of four, found (310) in the other two (before the rooms
never in the minute: its layers after a table 50 pulls deep took 191 s, with
them 17.7 s; in the product its tie-break starts 9-10 s into the 42.5 s it
gets and grows the table from 41 pulls to 52 by 24.6 s); #120 and Sasquatch
#16 not in time (#16, proven in 52 s in an earlier session, came back found,
209, today before the rooms as after them).
Microban #153 (336 pushes) is out of reach. Run to the end with no time
limit (2026-12-02, the table first grown 110 pulls deep in 33 s): its layers
hold 2,174,070 positions, found with 11.4M expansions in 856 s (layer 0's
one question 85 s, layers 1-110 127 s, 110-226 611 s, 226-336 in the table's
exact zone 32 s), and the fewest moves over them took 52 s: 800 moves, 15
fewer than the plan of the pushes alone reordered. Those figures are from
before the rooms' bounds; with them (the table 90 pulls deep) the first 110
layers take 14 s and all of them 688 s with 5.3M expansions: the cost is
the layers past 110, up to 26,319 positions each. Tried there and dropped:
each question searched best-first (exact pushes from it, so every failure
kept at its most) took as many expansions as depth-first (2.48M against
2.52M through layer 84); the expansions are the bound's slack (18 pushes at
the start, 4 to 6 until layer 86), not searches done twice. Nor would the
moves thin the layers out: with the walk bound (sokoban/bounds/walks.py),
5.30M of their 5.47M player cells have their fewest moves so far, the
pushes left and the walk bound under 800, so an A* by moves over the same
graph would open 97% of it.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator
from operator import itemgetter

from fewest.solvers.common.control import Control
from fewest.solvers.common.held_bytes import resident_bytes
from fewest.solvers.common.assignment import assign, matching_cost
from fewest.solvers.sokoban.board.board import cells_of, open_pushes
from fewest.solvers.sokoban.pruning.corrals import corral_pushes
from fewest.solvers.sokoban.pruning.deadlock import frozen_group
from fewest.solvers.sokoban.pulls.interface import PullTableLike
from fewest.solvers.sokoban.pulls.table import pull_table
from fewest.solvers.sokoban.searches.push import Matching, pushed_matching, rooms_in_step
from fewest.solvers.sokoban.board.tables import Tables, side_row
from fewest.solvers.sokoban.tuning import TUNING, SokobanTuning

Push = tuple[int, int]  # (cell the box leaves, direction index 0..3 = l u r d)
Edge = tuple[int, int, int, int]  # a push kept: (the child's key, its box set, the box's cell before, after)
ENTRY_BYTES = 200  # a remembered answer or layer position, about, until measured


def fewest_moves_of_fewest_pushes(
    tables: Tables, boxes: int, player: int, pushes: int, control: Control,
    table: PullTableLike | None = None, tuning: SokobanTuning = TUNING,
) -> list[Push]:
    """The plan with the fewest moves among those of `pushes` pushes, which must be proven
    the fewest, as pushes (the box's cell, direction). `table`: a pull table of this start
    still able to grow, to grow on (the proof of the pushes alone grew one: on Microban II
    #104, 5 s of the 31 left). Raises Stopped when the budget runs out or it is cancelled."""
    # (the table's arrays and all kept count against the memory)
    before = resident_bytes() - (0 if table is None else table.nbytes())
    share, release = tuning.tie_break.table_share, tuning.push.release_seconds
    with control.metered():  # (what is held, told by _held)
        table, took = _near_table(tables, boxes, pushes, control, table, share)
        grow_on = _GrowOn(table, took, pushes, control, share) if took else None
        within = _Within(tables, table, control, before, grow_on, tuning)
        del table  # (held by `within` alone from here, so let go of with it)
        start, edges = _plan_layers(tables, boxes, player, pushes, within, control)
        within.near.stop_growing()
        del within  # (its answers and the table: not needed for the moves)
        return _fewest_moves(tables, boxes, player, start, edges, pushes, control, before, release)


def _held(control: Control, entries: int, before: int, release_seconds: float) -> None:
    """Tell the tie-break's meter what is held: `entries` (answers, positions), as many bytes
    in all as the process has grown by since `before` (`release_seconds` to let go of each)."""
    meter = control.meter  # (fewest_moves_of_fewest_pushes opened it)
    meter.stored = entries
    meter.release_seconds = entries * release_seconds  # (letting go of them, when stopped)
    meter.bytes_per_entry = max(ENTRY_BYTES, (resident_bytes() - before) // max(1, entries))


def _near_table(
    tables: Tables, boxes: int, pushes: int, control: Control, table: PullTableLike | None,
    table_share: float = TUNING.tie_break.table_share,
) -> tuple[PullTableLike, list[float]]:
    """The pull table (`table`, or a new one), grown on `table_share` of what is left of the
    time and memory, or until it reaches `pushes` (then every answer is a look-up), and the
    seconds of each layer grown here: none when it is not to grow on (then let go of its
    frontier). A layer at a time, each on the memory it leaves (`most_within`): the table's
    own estimate for a search, every entry counted as frontier too, stopped Microban II
    #104's at 49 pulls (2.4M entries, 100 MiB held) where its share would hold the whole
    (82 pulls, 6.2M entries, 122 MiB), and the layers took 138 s after it against 10 s
    after one 65 deep."""
    if table is None:
        table = pull_table(tables.board, boxes)
    budget = control.budget
    ends = None
    if budget.seconds is not None:
        ends = control.seconds + max(0.0, budget.seconds - control.seconds) * table_share
    share = None if budget.memory_bytes is None else int(budget.memory_bytes * table_share)
    took: list[float] = []  # (the seconds of each layer grown here)
    while not table.complete and table.radius < pushes:
        if ends is not None and took and control.seconds + _next_layer_seconds(took) > ends:
            return table, took  # (it would stop midway: the time and memory a part layer takes are lost)
        most = 1 << 40 if share is None else table.most_within(share)
        if not _grow_layer(table, control, None if ends is None else max(0.0, ends - control.seconds),
                           most, pushes, took):
            if took and ends is not None and control.seconds >= ends:
                return table, took  # (out of its time midway: the rest of the layer may come later)
            break  # (out of its memory, or of its time with no layer's seconds to foresee by)
    table.stop_growing()
    return table, []


def _grow_layer(
    table: PullTableLike, control: Control, seconds: float | None, most: int, pushes: int,
    took: list[float],
) -> bool:
    """One more pull layer, within `seconds` and `most` entries, leaving out positions on no
    plan of `pushes`: was it had whole? If so its seconds go on the end of `took`."""
    radius, began = table.radius, control.seconds
    table.grow(control, seconds, most, until=radius + 1, limit=lambda: pushes)
    if table.radius == radius:
        return False
    took.append(control.seconds - began)
    return True


def _next_layer_seconds(took: list[float]) -> float:
    """The next pull layer's seconds, foreseen from those before it (`took`, one at least):
    as much more again as the last took over the one before. Sasquatch #6's went 3.0 s,
    8.2 s, then a part of the next for the 5.7 s left of the share (foreseen: 22 s)."""
    last = took[-1]
    if len(took) < 2 or took[-2] <= 0:
        return last
    return last * max(1.0, last / took[-2])


class _GrowOn:
    """The pull table grown on while the questions run, a layer at a time: whenever the
    questions have taken, since the last one, the seconds the next is foreseen to take. So
    the two sides get about even time, as a bidirectional search keeps its two frontiers'
    work even: the questions' time cannot be foreseen, and no more than it goes to a table
    that may not pay. Where the bound is far below the pushes, it pays: Microban II #104's
    first layer alone took 27.5 s after a table 56 pulls deep; grown on so, to 64 pulls,
    its layers took 26.5 s in all, table included, against 49.4 s. The answers kept still
    hold: the table only gets deeper."""

    def __init__(
        self, table: PullTableLike, took: list[float], pushes: int, control: Control,
        table_share: float = TUNING.tie_break.table_share,
    ) -> None:
        self.table, self.took, self.pushes, self.control = table, list(took), pushes, control
        memory = control.budget.memory_bytes
        self.share = None if memory is None else int(memory * table_share)
        self.since = control.seconds  # (when the questions began, or the last layer ended)

    def __call__(self) -> None:
        """Grow a layer, if the questions have taken its time since the last one."""
        table, control = self.table, self.control
        if not self.took or table.complete or table.radius >= self.pushes or not table.can_grow:
            return
        now, foreseen = control.seconds, _next_layer_seconds(self.took)
        if now - self.since < foreseen:
            return
        end = control.budget.seconds
        if end is not None:
            end -= control.meter.release_seconds  # (the time kept to let go of the answers, when stopped)
            if now + foreseen > end:
                self._stop()  # (time only shrinks from here)
                return
        most = 1 << 40
        if self.share is not None:  # (half of what the answers leave, at most: they go on growing too)
            left = control.budget.memory_bytes - control.memory_used()
            most = table.most_within(min(self.share, table.nbytes() + max(0, left) // 2))
        if not _grow_layer(table, control, None if end is None else end - now, most, self.pushes, self.took):
            self._stop()  # (out of its memory, or of the time)
            return
        self.since = control.seconds

    def _stop(self) -> None:
        self.took = []
        self.table.stop_growing()


class _Within:
    """Is there a plan within b pushes from a position? Depth-first over the pushes alone,
    its answers kept by position (box set and the player's region): `failed[key]` the most
    pushes known too few, `done[key]` the fewest known enough. A child's matching comes
    from its parent's, one row changed (sokoban/searches/push.py pushed_matching): worked out afresh,
    the matching took over half the time on Sasquatch #6 (13 boxes).

    Every question comes with b no more than the N-push plan leaves after the pushes
    already made to get there; the pull table, which leaves out positions no N-push plan
    goes through, is then right to say there is none."""

    def __init__(
        self, tables: Tables, near: PullTableLike, control: Control, before: int,
        grow_on: _GrowOn | None = None, tuning: SokobanTuning = TUNING,
    ) -> None:
        """`grow_on`: the table grown on as the questions go, if it is to be; `tuning`: when the
        goal rooms' tables are built (tie_break.room_after) and grown (push, rooms)."""
        self.tables, self.near, self.control, self.grow_on = tables, near, control, grow_on
        self.tuning = tuning
        board = tables.board
        self.shift = board.size.bit_length()
        self.cell_code = "H" if board.size <= 1 << 16 else "L"
        self.failed: dict[int, int] = {}
        self.done: dict[int, int] = {}
        self.matched: dict[int, Matching] = {}  # (the questions the layers ask: their children's come from them)
        self.before = before  # (the process's size before the table)
        self.laid = 0  # positions in the layers so far
        self.rooms: list = []  # the goal rooms' bounds (sokoban/bounds/rooms.py), once built
        self.room_due = tuning.tie_break.room_after  # (the control's expansions when they are next built on)

    def held(self) -> None:
        """Tell the control what is held: the answers kept and the layers' positions."""
        held = len(self.failed) + len(self.done) + len(self.matched) + self.laid
        _held(self.control, held, self.before, self.tuning.push.release_seconds)

    def region(self, boxes: int, player: int) -> int:
        board = self.tables.board
        return board.reach(player, board.floor & ~boxes)

    def pushed_region(self, seen: int, after: int, cell: int, target: int) -> int:
        """The region after a push from the region `seen`, as `region` gives it."""
        board = self.tables.board
        return board.pushed_region(seen, board.floor & ~after, cell, target)

    def __call__(self, boxes: int, player: int, budget: int, seen: int | None = None) -> bool:
        """`seen`: the player's region, when the caller has it."""
        if boxes == self.tables.board.goals:
            return True
        if seen is None:
            seen = self.region(boxes, player)
        key = _key(boxes, seen, self.shift)
        answer = self._known(key, boxes, player, seen, budget, None)
        if answer is not None:
            return answer
        stack = [self._open(key, boxes, seen, budget, self.matched[key])]
        found = False
        while stack:
            frame = stack[-1]
            key, budget, children = frame[0], frame[1], frame[2]
            if not found:
                while frame[3] < len(children):
                    left, after, cell, target, matching = children[frame[3]]
                    frame[3] += 1
                    if after == self.tables.board.goals:
                        found = True
                        break
                    if left >= budget:  # (nor can the children after it, sorted so: none looked up)
                        frame[3] = len(children)
                        continue
                    child_seen = self.pushed_region(frame[4], after, cell, target)  # (only for a child looked at)
                    child_key = _key(after, child_seen, self.shift)
                    answer = self._known(child_key, after, cell, child_seen, budget - 1, left)
                    if answer is None:
                        stack.append(self._open(child_key, after, child_seen, budget - 1, matching))
                        break
                    if answer:
                        found = True
                        break
                else:
                    self.failed[key] = max(self.failed.get(key, -1), budget)
                    stack.pop()
                    continue
                if not found:
                    continue  # (a child opened: it answers first)
            done = self.done.get(key)
            self.done[key] = budget if done is None else min(done, budget)
            stack.pop()
        return found

    def _known(self, key: int, boxes: int, player: int, seen: int, budget: int, left: int | None) -> bool | None:
        """The answer without a search, when there is one (`seen`: the player's region;
        `left`: the matching; None: worked out here, when the table does not answer, and
        kept; failures on a bound are kept)."""
        if self.failed.get(key, -1) >= budget:
            return False
        done = self.done.get(key)
        if done is not None and done <= budget:
            return True
        near = self.near.bound(boxes, player, seen)
        if near <= self.near.radius:  # (exact there)
            return near <= budget
        if near <= budget:  # (else no matching is worked out: on a complete table, a third of the time)
            if left is None:
                matching = self.matched.get(key)
                if matching is None:
                    matching = self.matched[key] = self._matching(boxes, player)
                left = matching.cost
            if left <= budget:
                for room in self.rooms:
                    if room(boxes, player) > budget:
                        break
                else:
                    return None
        self.failed[key] = max(self.failed.get(key, -1), budget)
        return False

    def _build_rooms(self) -> None:
        """The goal rooms' bounds, their tables grown in step with the questions' work as the
        push search grows them (the pushes alone, searched first here, may have built them
        already). Where the bound's slack is a room filled in the wrong order, they end
        questions the matching cannot: Microban II #104's layers after a pull table 50
        pulls deep took 17.7 s with them against 191 s."""
        box_count = bin(self.tables.board.goals).count("1")
        self.rooms, self.room_due = rooms_in_step(self.tables, box_count, self.control, self.tuning)

    def _matching(self, boxes: int, player: int) -> Matching:
        """The box-to-goal matching (the player's side of each box counted), afresh, as
        pushed_matching takes it (no box stuck: the tables' own walls)."""
        order = array(self.cell_code, cells_of(boxes))
        rows = [side_row(self.tables, box, player) for box in order]
        u, v, p = assign(rows)
        cost = matching_cost(rows, (u, v, p))
        return Matching(order, rows, array("i", u), array("i", v), array("i", p), 0, self.tables, cost)

    def _open(self, key: int, boxes: int, seen: int, budget: int, matching: Matching) -> list:
        """A position to search (`seen`: the player's region): [key, pushes left, its
        children to try (PI-corral pushes only, where a PI-corral must change) nearest the
        goal first, the next one's index, `seen`]. A child is (its matching's cost, box set,
        player's cell, the box's new cell, matching); its region is worked out when it is
        tried (some are not: a child tried before it answers, or one before it is already
        too far)."""
        control = self.control
        control.tick()
        if self.room_due and control.expanded >= self.room_due:
            self._build_rooms()
        if not control.expanded & 255:
            if not control.expanded & 1023:
                self.held()
            if self.grow_on is not None:
                self.grow_on()
        tables = self.tables
        board = tables.board
        p = matching.p
        column = [0] * len(matching.order)  # column[row] = goal column (1-based) matched to that row
        for j in range(1, len(p)):
            column[p[j] - 1] = j
        children = []
        for after, cell, target in _children(tables, boxes, seen, corral_pushes(board, boxes, seen, tables.live, 0)):
            row = side_row(tables, target, cell)  # (the player stays on the same side of the other boxes)
            child = pushed_matching(tables.rows, row, matching, column, cell, target)
            children.append((child.cost, after, cell, target, child))
        children.sort(key=itemgetter(0))  # (a plan within the pushes left, when there is one, comes sooner)
        return [key, budget, children, 0, seen]


def _key(boxes: int, seen: int, shift: int) -> int:
    """A position's key: its box set above the lowest cell of the player's region `seen`."""
    return (boxes << shift) | ((seen & -seen).bit_length() - 1)


def _children(tables: Tables, boxes: int, seen: int, pushes: list | None = None) -> Iterator[tuple[int, int, int]]:
    """(box set, player's cell, the box's new cell) after each push from the player's region
    `seen` (`pushes`: only those, as corral_pushes gives them), bar pushes onto dead squares
    and freezes off the goals."""
    goals = tables.board.goals
    for after, cell, target in _pushed(tables, boxes, seen, pushes):
        if not frozen_group(tables, after, target) & ~goals:
            yield after, cell, target


def _pushed(tables: Tables, boxes: int, seen: int, pushes: list | None = None) -> Iterator[tuple[int, int, int]]:
    """As _children, freezes not yet ruled out."""
    board = tables.board
    if pushes is None:
        pushes = open_pushes(board.steps, boxes, seen, tables.live & ~boxes)[0]
    for _, step, movers in pushes:
        for cell in cells_of(movers):
            target = cell + step
            yield boxes ^ (1 << cell) ^ (1 << target), cell, target


def _plan_layers(
    tables: Tables, boxes: int, player: int, pushes: int, within: _Within, control: Control
) -> tuple[int, dict[int, list[Edge]]]:
    """Every position on some plan of `pushes` pushes, a layer at a time from the start
    (layer k: k pushes from it), as the pushes between them: the start's key, and by key
    (box set and region) the pushes kept from there, each (the child's key, its box set,
    the box's cell before and after the push). A child laid in an earlier layer is dropped
    unasked; one laid in this layer already is kept without its freeze checked again."""
    board = tables.board
    goals = board.goals
    seen = within.region(boxes, player)
    start = _key(boxes, seen, within.shift)
    layer = {start: (boxes, seen)}  # (by key, its box set and the player's region)
    edges: dict[int, list[Edge]] = {}
    near = within.near
    for k in range(pushes):
        left = pushes - k - 1
        exact = left <= near.radius  # (the table alone answers: it holds no freeze)
        made: dict[int, tuple[int, int]] = {}
        for parent, (here, seen) in layer.items():
            kept = edges[parent] = []
            for after, pushed_from, target in _pushed(tables, here, seen):
                region = within.pushed_region(seen, after, pushed_from, target)
                key = _key(after, region, within.shift)
                if key in made:  # (its box set was found not frozen, and it goes on)
                    kept.append((key, after, pushed_from, target))
                elif key in edges:
                    continue  # (fewer pushes reach it, so no plan of `pushes` has it k + 1 pushes in)
                elif (near.bound(after, pushed_from, region) <= left if exact else
                      not frozen_group(tables, after, target) & ~goals and within(after, pushed_from, left, region)):
                    made[key] = (after, region)
                    kept.append((key, after, pushed_from, target))
        assert made, f"no plan of {pushes} pushes goes on from layer {k}"
        layer = made
        within.laid += len(made)
        within.held()
        control.check()
    return start, edges


def _fewest_moves(
    tables: Tables, boxes: int, player: int, start: int, edges: dict[int, list[Edge]], pushes: int,
    control: Control, before: int, release_seconds: float = TUNING.push.release_seconds,
) -> list[Push]:
    """The fewest moves over the pushes kept (`edges`, from the start's key `start`), a
    layer at a time: by key, (box set, {the player's cell: (moves so far, the key before)}).
    A position's walks are one breadth-first search from all its player cells at once,
    each joining at its moves, to the cells its pushes stand on (the children's regions
    came with the edges: worked out again, they took 40% of this pass; a search from each
    cell alone, half as many again). The plan is read back from the last layer's best."""
    board = tables.board
    floor, direction = board.floor, {step: d for d, step in enumerate(board.steps)}
    reached: dict[int, tuple[int, dict[int, tuple[int, int | None]]]] = {start: (boxes, {player: (0, None)})}
    history = [reached]
    held = sum(map(len, edges.values()))
    for _ in range(pushes):
        made: dict[int, tuple[int, dict[int, tuple[int, int | None]]]] = {}
        for key, (here, cells) in reached.items():
            wanted: dict[int, list[Edge]] = {}
            for edge in edges[key]:
                wanted.setdefault(2 * edge[2] - edge[3], []).append(edge)  # (the player stands behind the box)
            targets = 0
            for stand in wanted:
                targets |= 1 << stand
            starts = {cell: entry[0] for cell, entry in cells.items()}
            for stand, walked in board.distances_from(starts, targets, floor & ~here):
                cost = walked + 1
                for child_key, after, box, _ in wanted[stand]:
                    child = made.get(child_key)
                    if child is None:
                        child = made[child_key] = (after, {})
                    old = child[1].get(box)
                    if old is None or old[0] > cost:
                        child[1][box] = (cost, key)
            control.tick(len(cells))
        history.append(made)
        reached = made
        held += len(made)
        _held(control, held, before, release_seconds)
    goals = board.goals
    best = min((entry[0], key, cell) for key, (after, cells) in reached.items() if after == goals
               for cell, entry in cells.items())
    cost, key, cell = best
    plan: list[Push] = []
    for k in range(len(history) - 1, 0, -1):
        after, cells = history[k][key]
        parent = cells[cell][1]
        here, before_cells = history[k - 1][parent]
        target = ((after & ~here) & -(after & ~here)).bit_length() - 1  # (the box's cell after the push)
        plan.append((cell, direction[target - cell]))
        stand = 2 * cell - target
        mask = 0
        for c in before_cells:
            mask |= 1 << c
        walks = dict(board.distances(stand, mask, floor & ~here))  # (walks are the same both ways)
        cost -= 1
        cell = next(c for c, (moves, _) in before_cells.items() if c in walks and moves + walks[c] == cost)
        cost = before_cells[cell][0]
        key = parent
    return plan[::-1]
