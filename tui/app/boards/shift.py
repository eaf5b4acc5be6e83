"""Shift board: pieces over the target pattern; a cursor picks a piece up and drops it next door.

Target cells are tinted under the pieces, so a piece on a target reads at a glance.
Arrows move the cursor; space / enter picks up the piece under it, then each arrow
moves it a cell (one engine move a press) until space puts it down. Clicks pick a
piece up and drop it on an empty neighbour.
"""

from __future__ import annotations

from typing import Any

from textual.binding import Binding

from fewest.engine import shift
from fewest.tui.app.boards.base import BoardView, Canvas, arrow_bindings

CELL_X, CELL_Y = 4, 2
WORDS = {"u": "up", "d": "down", "l": "left", "r": "right"}
ARROWS = {"u": ("↑", "^"), "d": ("↓", "v"), "l": ("←", "<"), "r": ("→", ">")}
FRAME = ("┌┐└┘─│", "++++-|")
GLYPHS = {"piece": ("●", "O"), "empty": ("·", "."), "target": ("○", "o")}
CURSOR = Binding.Group("Cursor", compact=True)


class ShiftBoard(BoardView):
    FAMILY = "shift"
    COMPONENT_CLASSES = {"board--piece", "board--piece-home", "board--target", "board--empty",
                         "board--held", "board--frame"}
    BINDINGS = [
        *arrow_bindings("cursor", "lurd", "Cursor", "shift-cursor-", CURSOR),
        Binding("space,enter", "grab", "Grab/drop", id="shift-grab", key_display="space",
                tooltip="Pick up the piece under the cursor; again, drop it on an empty neighbour"),
    ]
    HELP_NOTES = (
        "Tinted cells are the target pattern; a piece on a target turns green.",
        "Columns are lettered along the top and rows numbered down the left, as hints name them.",
        "Pick a piece up (space), then each arrow moves it a cell, one move a press; space puts it down.",
        "Click a piece to pick it up, then click an empty neighbour to move it there.",
    )

    def reset_ui(self) -> None:
        self.cursor = 0
        self.held: int | None = None  # the cell of the picked-up piece

    def _has_piece(self, cell: int) -> bool:
        return bool(self.game.state.pieces >> cell & 1)

    def action_cursor(self, direction: str) -> None:
        """The cursor steps (wrapping); a piece held moves instead, one move a press."""
        if self.held is not None and self._has_piece(self.held):
            self._slide(direction)
            return
        level = self.game.level
        row, col = divmod(self.cursor, level.cols)
        dr, dc = shift.STEPS[direction]
        self.cursor = (row + dr) % level.rows * level.cols + (col + dc) % level.cols
        self.show()

    def _slide(self, direction: str) -> None:
        """Move the held piece a cell `direction` (it stays held, the cursor on it)."""
        cols = self.game.level.cols
        row, col = divmod(self.held, cols)
        move = shift.Move(row, col, direction)
        if move not in set(self.game.legal_moves()):
            self.say(f"The piece can't move {WORDS[direction]}: space puts it down.")
            return
        dr, dc = shift.STEPS[direction]
        self.held = self.cursor = (row + dr) * cols + col + dc
        self.pick(move)

    def focus_point(self) -> tuple[int, int] | None:
        """The cursor's cell (a board larger than the screen scrolls to it)."""
        return _body(self.cursor, self.game.level.cols)

    def action_grab(self) -> None:
        self._at(self.cursor)

    def clicked(self, tag: Any) -> None:
        self.cursor = tag
        self._at(tag)

    def _at(self, cell: int) -> None:
        """Pick up, put back, or drop onto `cell`."""
        if self.held is not None and not self._has_piece(self.held):
            self.held = None  # undo moved it away
        if self.held is None:
            if self._has_piece(cell):
                self.held = cell
                self.say("Picked up: an arrow moves it a cell (one move a press); space puts it down.")
            else:
                self.say("No piece here to pick up.")
        elif cell == self.held:
            self.held = None
            self.say("Put down.")
        else:
            move = self._step(self.held, cell)
            if move is None:
                self.say("Drop it on an empty cell next to the piece.")
            else:
                self.held = None
                self.pick(move)
        self.show()

    def _step(self, source: int, target: int) -> shift.Move | None:
        cols = self.game.level.cols
        (r0, c0), (r1, c1) = divmod(source, cols), divmod(target, cols)
        for direction, (dr, dc) in shift.STEPS.items():
            if (r0 + dr, c0 + dc) == (r1, c1) and not self._has_piece(target):
                return shift.Move(r0, c0, direction)
        return None

    def describe(self, move: Any) -> str:
        return f"move the piece at {str(move)[:-1]} {WORDS[move.direction]}"

    def draw(self) -> Canvas:
        level = self.game.level
        width, height = level.cols * CELL_X + 3, level.rows * CELL_Y + 3
        legend = f"{GLYPHS['piece'][self.ascii_only]} piece  {GLYPHS['target'][self.ascii_only]} target"
        canvas = Canvas(max(width, len(legend)), height + 1)  # (a narrow board's legend is wider)
        self._frame(canvas, width - 1, height - 1)
        self._coordinates(canvas, level)
        hint = self.hint_move
        hint_from = hint_to = None
        if hint is not None:
            hint_from = hint.row * level.cols + hint.col
            dr, dc = shift.STEPS[hint.direction]
            hint_to = (hint.row + dr) * level.cols + hint.col + dc
        if self.held is not None and not self._has_piece(self.held):
            self.held = None
        for cell in range(level.cells):
            x, y = _body(cell, level.cols)
            target = bool(level.target >> cell & 1)
            if self._has_piece(cell):
                glyph = GLYPHS["piece"][self.ascii_only]
                kind = "held" if cell == self.held else ("piece-home" if target else "piece")
            else:
                glyph = GLYPHS["target" if target else "empty"][self.ascii_only]
                kind = "target" if target else "empty"
            if cell == hint_to:
                glyph, kind = ARROWS[hint.direction][self.ascii_only], "hint"
            elif cell == hint_from:
                kind = "hint"
            style = self.style(kind)
            canvas.put(x, y, f" {glyph} ", style)
            if cell == self.cursor:
                cursor = self.style("cursor")
                canvas.put(x, y, "[", cursor)
                canvas.put(x + 2, y, "]", cursor)
            for dy in (-1, 0):
                for dx in range(-1, CELL_X - 1):
                    canvas.tags[(x + dx, y + dy)] = cell
        canvas.put(max(0, (width - len(legend)) // 2), height, legend, self.style("dim"))
        return canvas

    def _coordinates(self, canvas: Canvas, level: Any) -> None:
        """Column letters on the top edge, row numbers on the left one: the squares hints
        name ("the piece at b2")."""
        style = self.style("label")
        for col in range(level.cols):
            canvas.put(_body(col, level.cols)[0] + 1, 0, shift.COLUMN_LETTERS[col], style)
        for row in range(level.rows):
            canvas.put(0, _body(row * level.cols, level.cols)[1], str(row + 1), style)

    def _frame(self, canvas: Canvas, right: int, bottom: int) -> None:
        tl, tr, bl, br, h, v = FRAME[self.ascii_only]
        style = self.style("frame")
        canvas.put(0, 0, tl + h * (right - 1) + tr, style)
        canvas.put(0, bottom, bl + h * (right - 1) + br, style)
        for y in range(1, bottom):
            canvas.put(0, y, v, style)
            canvas.put(right, y, v, style)


def _body(cell: int, cols: int) -> tuple[int, int]:
    """Where cell `cell` has its body on the canvas (x, y), `cols` cells to a row."""
    row, col = divmod(cell, cols)
    return 2 + col * CELL_X, 2 + row * CELL_Y
