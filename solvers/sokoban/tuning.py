"""The Sokoban solver's knobs, one frozen record passed in (tests pass their own with
`dataclasses.replace` instead of patching module globals): a part for each piece of the
solver that reads them. Each comment keeps what was measured to choose the value.

Values derived from two knobs are worked out where they are used (the pushes alone's
waking: the pull table child's share plus `AloneTuning.after_margin`, solver.py).
Facts rather than choices (the folded cost's MAJOR, byte sizes of structures, how often
a loop looks at its budget) stay constants of their modules, and the sizes of data
structures (the compact pull table's spans and blocks) are their constructors' own
parameters (sokoban/pulls/compact.py, sokoban/pulls/sorted_blocks.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class PushTuning:
    """The push search (sokoban/searches/push.py)."""

    room_after: int = 2_000  # expansions before a goal room's table is worth building
    # The room tables' positions, at most, per expansion so far: they then cost about what the
    # search has (~15-20 us a position, 50-100 us an expansion); a room not done by then goes
    # on when the expansions have doubled. (Built whole at 2,000 expansions, a table took
    # 0.7-1.7 s on Grigoriev 2001 #9, #31 and #57, searches of a fraction of a second, and was
    # mostly thrown away as too large. Grigoriev 2001 pushes at 10 s: median 2.1 -> 1.0 s.)
    room_per_expansion: int = 4
    near_matching: int = 3  # the pull bound's lead on the matching beyond which the other bounds are skipped
    # The time to let go of a stored or queued node when the search ends (measured: 1.26M of
    # them in 1.09 s, Sasquatch #49 under pushes after 30 s), kept back from the time budget
    # (the tie-break's answers too, sokoban/searches/tie_break.py).
    release_seconds: float = 1e-6
    never_cache: int = 200_000  # entries kept of the immovable-boxes answers before starting afresh


@dataclass(frozen=True)
class PullsTuning:
    """When and on what the push search's pull table is grown (sokoban/pulls/policy.py, whose
    docstring has the measurements behind the shares), and the child that grows it beside
    the search (sokoban/pulls/apart.py)."""

    after: int = 20_000  # expansions before the pull table is worth building
    apart_after: int = 2_000  # the same, when a second process grows it
    share: float = 0.25  # of the time budget, grown at once (in two halves)
    apart_share: float = 0.5  # of the time budget, grown by a child beside the search
    growth: float = 0.5  # in step: this much of the search's time since the table last grew
    memory: float = 0.4  # of the memory budget, for the pull table
    most_bytes: int = 1_000_000_000  # the pull table's memory at most
    send_growth: float = 1.5  # the child sends a table again once it holds this many times the entries


@dataclass(frozen=True)
class RoomsTuning:
    """The goal rooms' bounds (sokoban/bounds/rooms.py)."""

    max_states: int = 100_000  # (room boxes, player's region) pairs; a larger room gets no table
    hopeless: int = 50  # times max_states: box sets of the room's live cells beyond which the build is not tried
    nested_pairs: int = 10_000  # pairs of cells tried as the doors of a room within a one-doorway room (~0.4 s)
    # Pairs of cells tried as two doors where no room has one: the real collections' most is
    # 23,005 (Microban II #132, 0.25 s); an open 30 x 30 hall has 400,000, which would cost
    # more than most searches there.
    door_pairs: int = 25_000


@dataclass(frozen=True)
class TieBreakTuning:
    """The pushes metric's tie-break (sokoban/searches/tie_break.py)."""

    table_share: float = 0.5  # of the time and memory left, at most, for the pull table first
    room_after: int = 2_000  # its expansions before the goal rooms' tables are built (as the push search's)


@dataclass(frozen=True)
class MeetTuning:
    """The search from both ends (sokoban/searches/meet.py, meet_compact.py), and its share
    under the moves metric (solver.py)."""

    # Moves: the proof's time and memory shares of the search from both ends, which goes first;
    # the push search gets the rest. Measured on Microban and Microban II (290 levels), no
    # level the push search proved was lost to the meet search running out first, and 9 more
    # levels were proven, so it gets more than half the time. Side by side (a spare core) each
    # gets all of the time, and memory is split the same way. Memory: with the states in dicts,
    # Microban #144's proof from both ends peaked at 1.10 GB (9.7M states), over half of 2 GB;
    # with 0.6 the push search keeps 0.8 GB. Packed in numpy (sokoban/searches/meet_compact.py), the
    # proofs of #144 (123 moves) and #139 (335) peak at 1626 and 960 MiB in all. At 0.6 of
    # 2 GiB, Grigoriev 2001 #100's search from both ends stopped on memory 4 moves short (386
    # of 390; it needs 1.3 GiB), while its push search's bound sat at 174: at 0.65 it is proven
    # in 53 s (1512 MiB in all). Microban under moves keeps its 154 proofs at the same
    # expansions, and Microban II's ten hardest lost none.
    share: float = 0.6
    memory_share: float = 0.65
    unbudgeted_bytes: int = 1 << 30  # where it stops when the caller set no memory budget
    chunk: int = 1 << 14  # packed states expanded at a time (between looks at the budgets)


@dataclass(frozen=True)
class BesideTuning:
    """A second proof in a child process beside the push search (solver.py,
    sokoban/searches/apart.py)."""

    apart_after: float = 0.05  # seconds of push search before the child is forked beside it
    # Of the memory budget, kept back from the push search's share beside a child: what its
    # process may add after its last check (Sasquatch #49: 5 MiB past its share, at 2 GiB)
    check_room: float = 0.01
    held_floor: float = 0.5  # of the push search's share, the least left once check_room and its process's size are off


@dataclass(frozen=True)
class AloneTuning:
    """Pushes: the proof of the pushes alone and its tie-break (solver.py)."""

    # The last of the proofs' time and node budgets, for a proof of the pushes alone
    # when (pushes, moves) ran out. Microban #153: 336 pushes in 5 s that way; the proof of
    # (pushes, moves) never got past 336 in 1,050 s (5.1M expansions). The first proof keeps
    # 51 of 60 s (#144's takes 26-28 s, 39-48 s with another busy process beside it).
    share: float = 0.15
    # Of the pushes alone's time (the child's own, from its waking), kept from the tie-break
    # for reordering the plan should it run out: reordered first, the plan took time the
    # tie-break proved Microban II #120 without (1.7 s of the 2 s it was short); Sasquatch
    # #49's 902 moves are 520 after 3 s of reordering (its child has 40-46 s).
    reorder_share: float = 0.07
    # With a spare core the pushes alone run beside the first proof instead, in a child forked
    # early (while this process is small: a child's resident size starts at its parent's) that
    # waits until the pull table's child is done (at most pulls.apart_share of the time; often
    # half that, when the table is dropped), then searches until the proofs' time is up, on a
    # share of the memory the first proof then gives up (Microban #144, whose pull table needs
    # all of it, is proven before the child wakes). It wakes at pulls.apart_share + after_margin
    # of the proofs' time at the latest.
    after_margin: float = 0.05
    memory_share: float = 0.25
    room: float = 0.75  # of its memory left, the most the first proof may hold when the child wakes
    # Seconds the child stops before the solve's time is up, for this process to read its word,
    # replay its plan and close it (Sasquatch #49 with no best effort after: 60.04 s, its
    # reordering having used the child's time to the end)
    handoff: float = 0.25


@dataclass(frozen=True)
class BestEffortTuning:
    """The searches for some plan once the proof ran out (solver.py `_best_effort`)."""

    share: float = 0.1  # of the time and node budgets, kept for a plan when the proof runs out
    weight: int = 5  # the weighted search's factor on the bound
    first_memory: float = 0.5  # of the memory, for the weighted search under the metric
    # Of the best effort's time and nodes, at most, for the packing search on a goal-room level.
    # XSokoban, the child's part alone at 6 s a level: plans for 23 levels at 0.6, 22 at 0.4
    # (#6 needs 3.3 s); the pushes alone after it still found #38, the one level it adds. With
    # the packing advisor, 30 levels at either share.
    packing_share: float = 0.6
    backward_share: float = 0.35  # of the best effort's budgets, for the search backwards (first)
    backward_weight: int = 3  # its factor on the matching


@dataclass(frozen=True)
class PackingTuning:
    """The packing search on goal-room levels (sokoban/plans/packing_order.py)."""

    cell_turn: int = 2  # every cell_turn-th position expanded comes from the cells (0: none do)
    advise: bool = True  # a position from the cells also gets the packing advisor's children
    # The packing advisor's children per order, at most: the boxes nearest the order's next goal
    # that can go there alone. Every third XSokoban level at 12,000 positions and Sasquatch's odd
    # levels at 6,000: the same plans for 2 as for every box (21 and 5 levels, positions within
    # 3% level by level but #64, 1,590 -> 425), in 8% and 7-19% less time; 1 lost #31.
    advice_boxes: int = 2
    # In the cells, positions come by their weight first (see packing_order.py's enqueue), then
    # as newest_first says; False: by that alone (the FESS-like finder turns it on).
    weighted: bool = False
    # On a level with packing orders, positions of one weight in a cell come newest first (the
    # search goes on from what it just made, as a depth-first one), not by the matching: the
    # finders' first plan at 12,000 positions a level (anytime_plans), XSokoban's 90 levels in
    # three thirds: 47 levels -> 52 (+#20, #43, #71, #75, #81; none lost); Sasquatch's 50: 15 -> 15
    # (-#15, +#24). (Measured with the cells' turn first; with the greedy queue's first, as
    # before packing_order.py counted its own turns: XSokoban 47 -> 52, 600 k positions in all
    # -> 572 k, Sasquatch 15 -> 14; and so the variants dropped: newest first everywhere, also
    # with no orders, where the cells' weights are all 0 and it would replace the matching,
    # Sasquatch 12 (-#6, #13, #15, #23, +#7); on weighted searches alone, XSokoban 51 (#37
    # lost), Sasquatch 15.)
    newest_first: bool = True
    # A position from the cells gets, for each box that can move, a child for every place it
    # can go alone (the others in place), as FESS's moves, in place of its single pushes (the
    # greedy queue's positions keep those). Off in the finders' line: there, at 10 s a level,
    # XSokoban's first plans went 54 -> 38 (+#33), and with ties in a cell by the matching, not
    # the newest, 42 (+#26). The FESS-like finder in the child beside them turns it on
    # (sokoban/anytime/beside.py).
    macro: bool = False
    # States of the lone box's search per box that macro takes out, at most.
    macro_states: int = 200


@dataclass(frozen=True)
class InterleaveTuning:
    """A plan's pushes reordered between boxes (sokoban/plans/interleave.py)."""

    # Orders taken out at most (Microban II #120 takes 97,608): a hint with a memory budget only
    # would otherwise wait on a plan of many boxes for as long as that lasts. XSokoban #4's packed
    # plan (37 runs), whole: 244k out of the queue at 17,800 a second on a machine where playing
    # each run afresh from every order gave 9,300.
    most_orders: int = 200_000
    # Runs reordered at a time before the whole plan: Microban #153 843 moves in 0.06 s (the whole
    # plan: 831 in 0.6 s), Microban II #120 434 (412 in 3.5 s), Sasquatch #49 566 in 1.7 s (the
    # whole plan takes more than most_orders orders; 902 moves before). 24 runs were up to 10
    # times slower for little (#120 416; #49 594, some windows past most_orders).
    window: int = 16


@dataclass(frozen=True)
class FessTuning:
    """The FESS-like finder (sokoban/anytime/fess.py)."""

    # Every cell_turn-th position expanded comes from its feature cells (1: all do). XSokoban
    # every third level (30), 8 s a level on a loaded machine, levels with a plan: 1 gives
    # #1, #4, #7, #34, #37, #64, #67, #79; 2 (as the packing search) #1, #4, #7, #58, #64, #67,
    # #73, #79; the packing search's own features at 2: #1, #4, #7, #34, #58, #64, #67, #73,
    # #79, #82. At 1 it finds the most the packing search does not (#37).
    cell_turn: int = 1
    # Positions in a cell by FESS's weights (moves advised or bettering a feature cost nothing,
    # others one), then by the matching, not by the matching alone. XSokoban every third level
    # (30), 6,000 positions a level: plans for 18 (9 without: #4, #10, #19, #31, #46, #55, #58,
    # #61, #70 and #76 gained, #34 lost). Weight 0 for advised moves alone: 17.
    weighted: bool = True
    # FESS's others (sokoban/anytime/hotspots.py, opener.py), measured on every third
    # XSokoban level (30), 12,000 positions a level: the 19 levels with a plan before (and
    # #22, by the packing orders to edges boxes reach) took 27,906 positions in all on the
    # 13 that need over 150; with both advisors 21,838 (#73 2,010 -> 91, #64 1,693 -> 376,
    # #34 9,889 -> 3,473; #76 4,389 -> 7,501, #70 89 -> 859) and #13 is found (4,406; the
    # opener alone 5,637). Their children are weighed as any push, and come only where the
    # packing advisor has none: free, or beside its children, they cost #31 and slowed
    # #19, #37, #61 10 to 50 times.
    hotspot_advisor: bool = True  # the hotspot advisor's child (alone: as many positions as none)
    # The opener's (alone: #43 from no box packed to 7 of 9 in 6,000 positions, no plan)
    opener: bool = True
    # With packing.macro on, only the hotspot blocking the most others moves anywhere in one
    # child (the other boxes by single pushes). The child's finder alone (sokoban/anytime/
    # beside.py), 24 s a level on one core, on the levels the finders in line miss (XSokoban 36,
    # Sasquatch 30): every box anywhere finds XSokoban #26 (20.0 s), #33 (2.9 s), Sasquatch
    # #16 (22.5 s), #17 (7.3 s); the worst hotspot alone XSokoban #26 (3.1 s), #35 (11.8 s),
    # Sasquatch #10 (22.2 s), #17 (4.4 s); every box for anytime.beside_all_seconds (6) then
    # the hotspot alone, as the child does: XSokoban #26 (8.1 s), #33 (3.0 s), #35 (13.6 s),
    # Sasquatch #17 (11.2 s).
    macro_hotspot: bool = False


@dataclass(frozen=True)
class ImproveTuning:
    """A found plan made shorter (sokoban/anytime/improve.py)."""

    # For k = 1, 2, ...: the steps each of k boxes displaced may be from where the plan has
    # it (the search goes from one box to as many as there are entries, each while it gains)
    distances: tuple[int, ...] = (6, 3)
    # Pushes searched at a time on a longer plan (stretches half a window apart, each ending
    # where the plan's does): the vicinity of a whole 400-push plan of 20 boxes is too large
    # to search in a hint's seconds (XSokoban #58 and #67 at 20 s: not one gain).
    window: int = 60


@dataclass(frozen=True)
class AnytimeTuning:
    """A plan first, then shorter ones, then the proof (solver.py, sokoban/anytime/anytime.py)."""

    # Seconds of the proof alone before anything else: a level proven by then (most of
    # Microban) gets its proof as before, with no plan found and improved first.
    quick_seconds: float = 1.0
    # Of the time and node budgets, the most the finders and the improver take before the proof
    # goes on (with no time budget: unbudgeted_seconds): the improver `share` from the first
    # plan; the finders, with no plan yet, up to `find_most` from their start. On XSokoban the improver
    # still gains after 10 s (#7: 391 -> 261 moves in 17 s); the finders' first plans came in
    # 0.01-1.4 s of CPU, but at 20 s a level on a loaded machine, 3 s was too little for #34
    # and #37 (found in 8 s). With more for the finders, no more plans: at 48 s (0.8 of a 60 s
    # budget, the child beside them too) the XSokoban levels they miss at 24 s got the same 4
    # (#12, #26, #33, #35, all within 14.3 s), of 35 tried.
    share: float = 0.15
    find_most: float = 0.4
    unbudgeted_seconds: float = 10.0
    # With a plan from them, the proof stops this much of the time and node budgets early (in
    # place of the best effort's searches) and the improver goes on with the plan on the rest.
    improve_tail: float = 0.2
    # Of that tail, the best effort's searches go first on this much (their plan kept when
    # shorter): XSokoban #79's weighted search gave a shorter plan than the finder's improved.
    tail_effort: float = 0.5
    memory_share: float = 0.5  # of the memory budget, for them
    # Of the finders' time, where the packing search (a goal-room level) stops (then the
    # FESS-like finder has the rest). Most of the packing search's plans come in under 0.4 s.
    # With its weights the finder finds all but one (#34) of the packing search's plans on
    # every third XSokoban level, and more (#31 and #46 need it for 3-15 s): 0.3 -> 0.1.
    packed_share: float = 0.1
    # Of the finders' time, the search backwards' (after the packing search; from the start on a
    # level with no goal room). The bench at 60 s a level (--jobs 2) had plans for XSokoban #12
    # and #86 and Sasquatch #49 only from the best effort's search backwards, at 60 s; alone it
    # finds them in 0.67, 0.09 and 0.02 s. Most levels it cannot: its share is what they lose.
    backward_share: float = 0.05
    # Where the FESS-like finder with the orders found backwards (sokoban/plans/retrograde_order.py)
    # stops, then it goes on with the goal-room orders alone. Finder alone, 8 s a level, Sasquatch:
    # with them, plans for the same 10 odd levels, most sooner (#9 1.5 s -> 0.2, #21 1.1 -> 0.1),
    # #7 and #23 later (2.4 -> 7.4, 2.0 -> 7.1); on the even levels 5 against 6 (#6 lost, 0.8 s
    # without them): each finds plans the other misses soon. The bench at 20 s (--anytime, with
    # the hotspot and opener advisors): at 0.4, Sasquatch #6, #7, #9, #21, #23 all get a plan, at
    # 1.0 (the orders found backwards all the time) #6 and #23 none and #7 at 16.6 s; XSokoban #49
    # gets one at 1.0 only (5.8 s).
    part_orders_share: float = 0.4
    # Seconds the finder in the child beside them (sokoban/anytime/beside.py) moves every box
    # anywhere; after them only the worst hotspot does (fess.macro_hotspot). Each finds plans
    # the other misses (see FessTuning.macro_hotspot); every box's came within 3 s on XSokoban.
    beside_all_seconds: float = 6.0


@dataclass(frozen=True)
class SokobanTuning:
    """Every part's knobs. A frozen record of numbers: it pickles to a child process."""

    push: PushTuning = field(default_factory=PushTuning)
    pulls: PullsTuning = field(default_factory=PullsTuning)
    rooms: RoomsTuning = field(default_factory=RoomsTuning)
    tie_break: TieBreakTuning = field(default_factory=TieBreakTuning)
    meet: MeetTuning = field(default_factory=MeetTuning)
    beside: BesideTuning = field(default_factory=BesideTuning)
    alone: AloneTuning = field(default_factory=AloneTuning)
    best_effort: BestEffortTuning = field(default_factory=BestEffortTuning)
    packing: PackingTuning = field(default_factory=PackingTuning)
    interleave: InterleaveTuning = field(default_factory=InterleaveTuning)
    fess: FessTuning = field(default_factory=FessTuning)
    improve: ImproveTuning = field(default_factory=ImproveTuning)
    anytime: AnytimeTuning = field(default_factory=AnytimeTuning)


TUNING = SokobanTuning()
