"""Password board: the rail of figures above a wrapping grid, with the code to key in beside it.

Every key is one command of the rules (and costs one move): arrows move the grid
cursor (wrapping), [ ] or , . move the rail cursor, space / enter places the rail's
figure under the grid cursor. Cells already showing the code's figure are green, the
others red; a legend under the board names the figures.
"""

from __future__ import annotations

from typing import Any

from textual.binding import Binding

from fewest.engine import password
from fewest.tui.app.boards.base import BoardView, Canvas

CELL_X = 4  # " H " plus a gap
NAMES = {"_": "blank", "H": "heart", "Y": "axe", "S": "sword"}
WORDS = {"u": "cursor up", "d": "cursor down", "l": "cursor left", "r": "cursor right",
         "<": "rail left", ">": "rail right", "*": "place"}
FRAME = ("┌┐└┘─│", "++++-|")
GRID = Binding.Group("Cursor", compact=True)
RAIL = Binding.Group("Rail", compact=True)


def _command(key: str, command: str, display: str | None = None, group: Binding.Group | None = None,
             show: bool = True, name: str = "") -> Binding:
    return Binding(key, f"command('{command}')", WORDS[command].capitalize(),
                   id=f"password-{name or WORDS[command].replace(' ', '-')}", group=group,
                   key_display=display, show=show)


class PasswordBoard(BoardView):
    FAMILY = "password"
    COMPONENT_CLASSES = {"board--figure", "board--right", "board--wrong", "board--rail",
                         "board--rail-active", "board--frame", "board--code"}
    BINDINGS = [
        _command("left", "l", "←", GRID),
        _command("up", "u", "↑", GRID),
        _command("right", "r", "→", GRID),
        _command("down", "d", "↓", GRID),
        _command("left_square_bracket", "<", "[", RAIL),
        _command("right_square_bracket", ">", "]", RAIL),
        _command("comma", "<", ",", show=False, name="rail-left-comma"),
        _command("full_stop", ">", ".", show=False, name="rail-right-period"),
        _command("space,enter", "*", "space", name="place"),
    ]
    HELP_NOTES = (
        "Every command costs one move, cursor steps included; both cursors wrap around.",
        "The code to key in is shown on the right; matching cells are green, the others red.",
        "H is the heart, Y the axe, S the sword, _ the blank (the legend under the board).",
    )

    def action_command(self, command: str) -> None:
        self.pick(password.parse_move(command))

    def describe(self, move: Any) -> str:
        return WORDS[str(move)]

    def _figure(self, index: int) -> str:
        return self.game.level.rail[index]

    def _legend(self) -> str:
        """What the figures on the rail are, and what the grid's colours say."""
        figures = "  ".join(f"{f} {NAMES.get(f, f)}" for f in dict.fromkeys(self.game.level.rail))
        return f"{figures}  ·  green right, red wrong" if not self.ascii_only else f"{figures}  -  green right, red wrong"

    def draw(self) -> Canvas:
        level, state = self.game.level, self.game.state
        grid_w = level.cols * CELL_X + 3
        rail_w = len(level.rail) * CELL_X + 6
        legend = self._legend()
        width = max(max(grid_w, rail_w) + 4 + grid_w, len(legend))
        height = level.rows * 2 + 5
        canvas = Canvas(width, height)
        canvas.put(0, height - 1, legend, self.style("dim"))
        hint = str(self.hint_move) if self.hint_move is not None else None
        # the rail
        canvas.put(0, 0, "Rail", self.style("dim"))
        for i in range(len(level.rail)):
            x = 5 + i * CELL_X
            active = i == state.rail
            style = self.style("rail-active" if active else "rail")
            if active and hint in ("<", ">"):
                style = self.style("hint")
            text = f"[{self._figure(i)}]" if active else f" {self._figure(i)} "
            canvas.put(x, 0, text, style)
        # the grid being keyed, then the code to match
        self._grid(canvas, 0, 2, state.grid, cursor=state.cursor, hint=hint)
        self._grid(canvas, width - grid_w, 2, level.code, cursor=None, hint=None)
        canvas.put(width - grid_w, 1, "Code", self.style("dim"))
        canvas.put(0, 1, "Grid", self.style("dim"))
        return canvas

    def _grid(self, canvas: Canvas, x0: int, y0: int, grid: tuple, cursor: int | None,
              hint: str | None) -> None:
        level = self.game.level
        tl, tr, bl, br, h, v = FRAME[self.ascii_only]
        right, bottom = level.cols * CELL_X + 2, level.rows * 2
        frame = self.style("frame")
        canvas.put(x0, y0, tl + h * (right - 1) + tr, frame)
        canvas.put(x0, y0 + bottom, bl + h * (right - 1) + br, frame)
        for y in range(1, bottom):
            canvas.put(x0, y0 + y, v, frame)
            canvas.put(x0 + right, y0 + y, v, frame)
        target = None
        if cursor is not None and hint in password.GRID_STEPS:
            target = password.apply(level, self.game.state, password.parse_move(hint)).cursor
        for cell, value in enumerate(grid):
            row, col = divmod(cell, level.cols)
            x, y = x0 + 2 + col * CELL_X, y0 + 1 + row * 2
            if cursor is None:
                kind = "code"
            else:
                kind = "right" if value == level.code[cell] else "wrong"
            if cell == target or (cell == cursor and hint == password.PLACE):
                kind = "hint"
            canvas.put(x, y, f" {self._figure(value)} ", self.style(kind))
            if cell == cursor:
                canvas.put(x, y, "[", self.style("cursor"))
                canvas.put(x + 2, y, "]", self.style("cursor"))
