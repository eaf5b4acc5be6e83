"""PI-corral pruning: where the player is walled off from boxes that must move, push into there first.

A corral is floor the player cannot reach. Take a connected part A of the
cells off the player's region (free cells and the boxes between them), with
some free cell. Until a box of A moves, the player never enters A and no
other box does either (a box next to A's free floor would belong to A), so
the first push of a box of A in any plan is made by the player from outside.
Every floor cell next to A and not in it is the player's (anything else
there would belong to A), so each such push is open now and stays so until
then. When none of them lands outside A on live floor (the I of PI: they
all go in, or onto walls, boxes of A or dead squares) they are all open now
(the P holds by this choice of A), and that first push is one of them. A
plan that makes other pushes first can make it first instead: it lands
where nothing else went and only frees a cell for what follows; the same
pushes in all, in another order. So when A must change (a box of A off its
goal, or a goal of A free), the pushes into A are the only ones a position
needs for a plan with the fewest pushes. Not for the fewest moves: the
order changes the walks, so the pruning serves only a proof of the pushes
alone.
"""

from __future__ import annotations

from fewest.solvers.sokoban.board.board import Board

Pushes = list[tuple[int, int, int]]  # [(direction, step, boxes)], as open_pushes gives them


def _shift(cells: int, step: int) -> int:
    return cells << step if step > 0 else cells >> -step


def corral_pushes(board: Board, boxes: int, seen: int, live: int, stuck: int) -> Pushes | None:
    """The pushes into the PI-corral needing the fewest ([] when none is open: no plan
    from here), or None when no corral that must change is a PI-corral.

    `seen`: the player's region; `live`: floor a box may end a push on (no dead squares);
    `stuck`: boxes that never move again (on their goals).
    """
    floor, steps, goals = board.floor, board.steps, board.goals
    off = floor & ~seen  # boxes and the floor the player cannot reach
    unseen = off & ~boxes
    best, fewest = None, -1
    while unseen:
        area = board.reach((unseen & -unseen).bit_length() - 1, off)
        unseen &= ~area
        movers = area & boxes & ~stuck
        if not (movers & ~goals or area & goals & ~boxes):
            continue  # (all its boxes home, no goal empty: it may stay shut for good)
        outside = floor & ~area
        pushes, count = [], 0
        for d, step in enumerate(steps):
            pushed = movers & _shift(outside, step)  # the player's cell for it lies outside A
            lands = _shift(pushed, step)
            if lands & outside & live:
                break  # a box of A could go out: not an I-corral
            open_now = _shift(lands & area & ~boxes & live, -step)
            if open_now:
                pushes.append((d, step, open_now))
                count += open_now.bit_count()
        else:
            if best is None or count < fewest:
                best, fewest = pushes, count
    return best
