"""Sokoban board: the warehouse drawn as large as the room allows, arrows / w a s d to walk and push.

A click on a floor cell walks there by the shortest path (engine.sokoban.walk_path).
A click on a box picks it up; a click on a cell then takes it there with the fewest
pushes, then moves, no other box moving (solvers.sokoban_box_route), as in the best
Sokoban programs. Cells are drawn as large as the board's area allows (up to 6x3
characters; one character where even two columns do not fit); + / - choose, 0 fits again.
"""

from __future__ import annotations

from typing import Any

from textual import work
from textual.binding import Binding
from textual.worker import get_current_worker

from fewest.engine import sokoban
from fewest.solvers.sokoban.plans.box_route import box_route
from fewest.tui.app.boards.base import BoardView, Canvas

# glyph sets: (unicode, ascii) per kind, each two characters wide
GLYPHS = {
    "wall": ("██", "##"),
    "floor": ("  ", "  "),
    "goal": ("<>", "<>"),
    "box": ("[]", "[]"),
    "box-on-goal": ("[]", "**"),
    "player": ("◖◗", "@@"),
    "player-on-goal": ("◖◗", "++"),
    "outside": ("  ", "  "),
}
NARROW = {"wall": "#", "floor": " ", "goal": ".", "box": "$", "box-on-goal": "*",
          "player": "@", "player-on-goal": "+", "outside": " "}
ARROWS = {"l": ("←", "<"), "u": ("↑", "^"), "r": ("→", ">"), "d": ("↓", "v")}
WORDS = {"l": "left", "u": "up", "r": "right", "d": "down"}
MOVE = Binding.Group("Move", compact=True)
SIZES = ((1, 1), (2, 1), (4, 2), (6, 3))  # columns and lines a cell, smallest first (1: NARROW)
TILED = frozenset({"wall", "box", "box-on-goal"})  # glyphs that fill a large cell; others sit in its middle


def _step(key: str, direction: str, show: bool) -> Binding:
    return Binding(key, f"step('{direction}')", f"Walk or push {WORDS[direction]}",
                   id=f"sokoban-{WORDS[direction]}-{key}", show=show, group=MOVE,
                   key_display={"left": "←", "up": "↑", "right": "→", "down": "↓"}.get(key))


class SokobanBoard(BoardView):
    FAMILY = "sokoban"
    METER = False  # an exact distance can take long here: no live meter
    DEADLOCKS = True  # a box pushed into a corner never comes out
    COUNTS_PUSHES = True  # moves and pushes, each shown and proven fewest by its metric
    COMPONENT_CLASSES = {f"board--{kind}" for kind in GLYPHS} | {"board--stuck"}
    BINDINGS = [
        *(_step(key, d, True) for key, d in (("left", "l"), ("up", "u"), ("right", "r"), ("down", "d"))),
        *(_step(key, d, False) for key, d in (("a", "l"), ("w", "u"), ("d", "r"), ("s", "d"))),
        Binding("plus,equals_sign", "zoom(1)", "Bigger", id="sokoban-bigger", show=False, key_display="+",
                tooltip="Draw the cells larger"),
        Binding("minus", "zoom(-1)", "Smaller", id="sokoban-smaller", show=False, key_display="-",
                tooltip="Draw the cells smaller (down to one column a cell)"),
        Binding("0", "zoom(0)", "Fit", id="sokoban-fit", show=False,
                tooltip="Cells as large as the window allows again"),
    ]
    HELP_NOTES = (
        "Click a floor cell to walk there by the shortest path. Click a box to pick it up, then a"
        " cell to push it there (fewest pushes, then moves); click the box again to let go.",
        "Goals are drawn <>, boxes [], a box on a goal turns green.",
        "s is down and S is solve; h is hint, so walking left is a or the arrow.",
        "A push that leaves a box where it can never reach a goal is flagged at once, the box"
        " at fault in red; undo takes it back, or h twice.",
        "M switches hints and solve between the fewest moves (then pushes) and the fewest"
        " pushes (then moves), for every level, and the par and your best with them.",
    )

    zoom: int | None = None  # the SIZES index + and - chose (None: the largest that fits)
    _fit_index = 1  # the SIZES index that fits the room the layout last gave

    def reset_ui(self) -> None:
        self.picked: int | None = None  # the box a click picked up (its cell)
        self._picked_in: Any = None  # the position it was picked up in

    def action_step(self, direction: str) -> None:
        level, state = self.game.level, self.game.state
        target = sokoban.neighbour(level, state.player, direction)
        self.pick(sokoban.Move(direction, target is not None and target in state.boxes))

    def describe(self, move: Any) -> str:
        word = WORDS[move.direction]
        return f"push {word}" if move.push else f"step {word}"

    def clicked(self, tag: Any) -> None:
        level, state = self.game.level, self.game.state
        if tag in state.boxes:
            self.on_select()  # (a solution playing out would move on and drop the pick)
            self.picked = None if tag == self._picked_box() else tag
            self._picked_in = state
            if self.picked is not None:
                self.say("Click where this box should go (click it again to let go).")
            self.refresh()
            return
        if self._picked_box() is not None:
            self._route(level, state, self.picked, tag)
            return
        path = sokoban.walk_path(level, state, tag)
        if path is None:
            self.say("You can't get there from here.")
        for move in path or ():
            self.pick(move)

    @work(thread=True, exclusive=True, group="box-route", exit_on_error=False)
    def _route(self, level: sokoban.Level, state: sokoban.State, box: int, target: int) -> None:
        """The picked box's route, in a worker: on a board of thousands of cells it can take
        seconds (a few milliseconds on XSokoban's), and the keys keep working meanwhile."""
        route = box_route(level, state, box, target)
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._follow, level, state, route)

    def _follow(self, level: sokoban.Level, state: sokoban.State, route: list | None) -> None:
        if self.game.level is not level or self.game.state != state:
            return  # the player moved meanwhile, or went to another level
        if route is None:
            self.say("That box can't get there from here.")
            return
        self.picked = None
        for move in route:
            self.pick(move)

    def focus_point(self) -> tuple[int, int] | None:
        return self.cell_origin(self.game.state.player)

    def _kind(self, cell: int) -> str:
        level, state = self.game.level, self.game.state
        if cell in level.walls:
            return "wall"
        goal = cell in level.goals
        if cell in state.boxes:
            return "box-on-goal" if goal else "box"
        if cell == state.player:
            return "player-on-goal" if goal else "player"
        if goal:
            return "goal"
        return "outside" if cell in level.outside else "floor"

    # ----- the size of a cell ------------------------------------------------
    def _cell_size(self) -> tuple[int, int]:
        """Columns and lines a cell takes now: the player's choice (+ / -), else the largest
        that fits the board's area (one column a cell where even two do not)."""
        return SIZES[self._fit_index if self.zoom is None else self.zoom]

    def _fitting(self, room: Any) -> int:
        level = self.game.level
        for index in range(len(SIZES) - 1, 0, -1):
            across, down = SIZES[index]
            if level.width * across + 2 <= room.width and level.height * down <= room.height:
                return index
        return 0

    def get_content_width(self, container: Any, viewport: Any) -> int:
        self._fit_index = self._fitting(container)  # (the layout asks first, with the room there is)
        return super().get_content_width(container, viewport)

    def action_zoom(self, step: int) -> None:
        """+ draws cells larger, - smaller; 0 fits them to the window again."""
        at = self._fit_index if self.zoom is None else self.zoom
        self.zoom = None if step == 0 else min(max(at + step, 0), len(SIZES) - 1)
        across, down = self._cell_size()
        fit = "fitted to the window" if self.zoom is None else "+ / - change it, 0 fits the window"
        self.say(f"Cells of {across}x{down} characters ({fit}).")
        self.refresh(layout=True)
        self.call_after_refresh(self.keep_in_view)

    def cell_origin(self, cell: int) -> tuple[int, int]:
        """Where `cell` starts on the canvas (x, y)."""
        across, down = self._cell_size()
        row, col = divmod(cell, self.game.level.width)
        return col * across, row * down

    def draw(self) -> Canvas:
        level = self.game.level
        across, down = self._cell_size()
        canvas = Canvas(level.width * across, level.height * down)
        hinted = self._hinted_cell()
        picked = self._picked_box()
        at, stuck = self.blamed
        stuck = stuck if at == self.game.state else frozenset()  # (marked while the position stands)
        for cell in range(level.width * level.height):
            kind = self._kind(cell)
            glyph = NARROW[kind] if across == 1 else GLYPHS[kind][self.ascii_only]
            style = self.style("cursor" if cell == picked else "stuck" if cell in stuck else kind)
            if cell == hinted:  # a step shows its direction; a push lights up the box
                if not self.hint_move.push:
                    arrow = ARROWS[self.hint_move.direction][self.ascii_only]
                    glyph = arrow * len(glyph)
                style = self.style("hint")
            tag = None if kind in ("wall", "outside") else cell
            x, y = self.cell_origin(cell)
            for line in range(down):  # walls and boxes fill their cell; the rest sit in its middle
                if kind in TILED and cell != hinted:
                    text = glyph * (across // len(glyph))
                else:
                    text = " " * across
                canvas.put(x, y + line, text, style, tag=tag)
            if kind not in TILED or cell == hinted:
                canvas.put(x + (across - len(glyph)) // 2, y + (down - 1) // 2, glyph, style, tag=tag)
        return canvas

    def _picked_box(self) -> int | None:
        """The box picked up, until a move is made (a key, undo or a hint lets it go)."""
        if self.picked is not None and self.game.state != self._picked_in:
            self.picked = None
        return self.picked

    def _hinted_cell(self) -> int | None:
        if self.hint_move is None:
            return None
        return sokoban.neighbour(self.game.level, self.game.state.player, self.hint_move.direction)
