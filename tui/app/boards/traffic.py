"""Traffic board: cars as coloured blocks, tab / click selects one, arrows slide it a cell.

Single-cell slides are ordinary engine moves of distance 1; the engine's tally
counts a run of one car's slides as one move, as the rules say. The exit (or the
row to clear) is marked on the frame.
"""

from __future__ import annotations

from typing import Any

from textual.binding import Binding

from fewest.engine import traffic
from fewest.tui.app.boards.base import BoardView, Canvas, arrow_bindings

CELL_X, CELL_Y = 4, 2  # characters per cell across and down (one of each is the gap between cars)
CAR_COLOURS = 7  # board.tcss's car0..car6
WORDS = {"L": "left", "R": "right", "U": "up", "D": "down"}
ARROWS = {"L": ("◀", "<"), "R": ("▶", ">"), "U": ("▲", "^"), "D": ("▼", "v")}
FRAME = ("┌┐└┘─│", "++++-|")
SLIDE = Binding.Group("Slide", compact=True)


class TrafficBoard(BoardView):
    FAMILY = "traffic"
    COMPONENT_CLASSES = {"board--empty", "board--wall", "board--target-car", "board--selected",
                         "board--frame", "board--exit", *(f"board--car{i}" for i in range(CAR_COLOURS))}
    BINDINGS = [
        Binding("tab", "select(1)", "Car", id="traffic-next-car", tooltip="Select the next car"),
        Binding("shift+tab", "select(-1)", "Prev car", id="traffic-previous-car", show=False,
                tooltip="Select the previous car"),
        *arrow_bindings("slide", "LURD", "Slide the car", "traffic-", SLIDE),
    ]
    HELP_NOTES = (
        "Click a car to select it; click an empty cell in its lane to slide it there.",
        "Steps of the same car in a row count as one move, like one long slide.",
    )

    def reset_ui(self) -> None:
        level = self.game.level
        kind, target = level.goal
        self.selected = target if kind == traffic.EXIT else (level.cars[0].name if level.cars else None)

    # ----- keys and clicks --------------------------------------------------
    def action_select(self, step: int) -> None:
        names = [car.name for car in self.game.level.cars]
        if not names:
            return
        at = names.index(self.selected) if self.selected in names else -step
        self.selected = names[(at + step) % len(names)]
        self.show()

    def action_slide(self, direction: str) -> None:
        car = self._car(self.selected)
        if car is None:
            return
        if (direction in "LR") != car.horizontal:
            self.say(f"Car {car.name} slides {'left/right' if car.horizontal else 'up/down'} only (tab picks another).")
            return
        self.try_moves([traffic.Move(car.name, direction, 1)], f"Car {car.name} is blocked that way.")

    def clicked(self, tag: Any) -> None:
        row, col = tag
        level, state = self.game.level, self.game.state
        n = level.n
        for car, offset in zip(level.cars, state.offsets):
            if row * n + col in car.cells(n, offset):
                self.selected = car.name
                self.show()
                return
        car = self._car(self.selected)
        if car is None:
            return
        offset = state.offsets[level.index[car.name]]
        along, lane = (col, row) if car.horizontal else (row, col)
        if lane != car.line:
            self.say(f"Click a cell in car {car.name}'s lane to slide it there.")
            return
        forward = along >= offset + car.length
        distance = along - (offset + car.length - 1) if forward else offset - along
        direction = ("R" if forward else "L") if car.horizontal else ("D" if forward else "U")
        self.try_moves([traffic.Move(car.name, direction, distance)], f"Car {car.name} can't get there.")

    def describe(self, move: Any) -> str:
        cells = f"{move.distance} cell{'s' if move.distance != 1 else ''}"
        return f"slide car {move.car} {WORDS[move.direction]} {cells}"

    def focus_point(self) -> tuple[int, int] | None:
        """The selected car's first cell (a board larger than the screen scrolls to it)."""
        level = self.game.level
        car = self._car(self.selected)
        if car is None:
            return None
        offset = self.game.state.offsets[level.index[car.name]]
        return _body(car.cells(level.n, offset)[0], level.n)  # (where _car_block draws it)

    def _colours(self) -> dict[str, int]:
        level = self.game.level
        if getattr(self, "_coloured", None) is not level:
            self._coloured, self._colour_of = level, car_colours(level)
        return self._colour_of

    def _car(self, name: str | None) -> traffic.Car | None:
        level = self.game.level
        return level.cars[level.index[name]] if name in level.index else None

    # ----- drawing ---------------------------------------------------------
    # Cell (row, col) has its body at x = 2 + col * CELL_X (3 chars), y = 2 + row * CELL_Y (1 line);
    # the character and line before each body are the gaps that keep neighbouring cars apart.
    def draw(self) -> Canvas:
        level, state = self.game.level, self.game.state
        n = level.n
        goal = self._goal_text()
        width = n * CELL_X + 3
        canvas = Canvas(max(width, len(goal)), n * CELL_Y + 4)  # (the goal's line under the frame)
        self._frame(canvas, n)
        canvas.put(max(0, (width - len(goal)) // 2), n * CELL_Y + 3, goal, self.style("dim"))
        wall, dot = ("x" * (CELL_X - 1), ".") if self.ascii_only else ("▓" * (CELL_X - 1), "·")
        for cell in range(n * n):
            row, col = divmod(cell, n)
            x, y = _body(cell, n)
            if cell in level.walls:
                canvas.put(x, y, wall, self.style("wall"))
            else:
                canvas.put(x + 1, y, dot, self.style("empty"))
            for dy in (-1, 0):
                for dx in range(-1, CELL_X - 1):
                    canvas.tags[(x + dx, y + dy)] = (row, col)
        for i, (car, offset) in enumerate(zip(level.cars, state.offsets)):
            self._car_block(canvas, i, car, offset, n)
        return canvas

    def _goal_text(self) -> str:
        """What to do, under the board: Rush Hour and "Get out" look alike but for it."""
        kind, target = self.game.level.goal
        if kind == traffic.EXIT:
            return f"get car {target} out at {ARROWS['R'][self.ascii_only]}"
        return f"empty the row between {ARROWS['R'][self.ascii_only]} and {ARROWS['L'][self.ascii_only]}"

    def _frame(self, canvas: Canvas, n: int) -> None:
        tl, tr, bl, br, h, v = FRAME[self.ascii_only]
        style, right, bottom = self.style("frame"), n * CELL_X + 2, n * CELL_Y + 2
        canvas.put(0, 0, tl + h * (right - 1) + tr, style)
        canvas.put(0, bottom, bl + h * (right - 1) + br, style)
        for y in range(1, bottom):
            canvas.put(0, y, v, style)
            canvas.put(right, y, v, style)
        kind, target = self.game.level.goal
        arrow = ARROWS["R"][self.ascii_only]
        if kind == traffic.EXIT:
            car = self._car(str(target))
            if car is not None:
                canvas.put(right, 2 + car.line * CELL_Y, arrow, self.style("exit"))
        else:
            y = 2 + int(target) * CELL_Y
            canvas.put(0, y, arrow, self.style("exit"))
            canvas.put(right, y, ARROWS["L"][self.ascii_only], self.style("exit"))

    def _car_block(self, canvas: Canvas, i: int, car: traffic.Car, offset: int, n: int) -> None:
        kind, target = self.game.level.goal
        hint = self.hint_move if self.hint_move is not None and self.hint_move.car == car.name else None
        if hint is not None:
            style = self.style("hint")
        elif car.name == self.selected:
            style = self.style("selected")
        elif kind == traffic.EXIT and car.name == target:
            style = self.style("target-car")
        else:
            style = self.style(f"car{self._colours().get(car.name, i) % CAR_COLOURS}")
        width = (car.length if car.horizontal else 1) * CELL_X - 1
        height = (1 if car.horizontal else car.length) * CELL_Y - 1
        x, y = _body(car.cells(n, offset)[0], n)
        for dy in range(height):
            canvas.put(x, y + dy, " " * width, style)
        label = car.name
        if hint is not None:
            arrow = ARROWS[hint.direction][self.ascii_only]
            label = f"{arrow}{car.name}{arrow}"
        elif car.name == self.selected:
            label = f"[{car.name}]"
        canvas.put(x + (width - len(label) + 1) // 2, y + (height - 1) // 2, label, style)


def _reach(level: traffic.Level, car: traffic.Car) -> set[int]:
    """Every cell `car` could ever cover (walls stop it; other cars move)."""
    cells: set[int] = set()
    for offset in range(level.n - car.length + 1):
        span = car.cells(level.n, offset)
        if not level.walls.intersection(span):
            cells.update(span)
    return cells


def _beside(cells: set[int], n: int) -> set[int]:
    """The cells that share an edge with one of `cells` on an n x n board."""
    return ({c + d for c in cells for d in (-n, n)}
            | {c + d for c in cells for d in (-1, 1) if (c + d) // n == c // n and c + d >= 0})


def car_colours(level: traffic.Level) -> dict[str, int]:
    """A colour number per car such that two cars that could ever touch (a cell of one's
    reach beside a cell of the other's) differ, where CAR_COLOURS allow: greedy colouring,
    busiest car first. (The target car has its own red and is left out.)"""
    kind, target = level.goal
    cars = [car for car in level.cars if not (kind == traffic.EXIT and car.name == target)]
    reach = [_reach(level, car) for car in cars]
    near = [_beside(cells, level.n) for cells in reach]
    touching = {i: {j for j in range(len(cars)) if j != i and near[i] & reach[j]} for i in range(len(cars))}
    colour: dict[int, int] = {}
    for i in sorted(touching, key=lambda i: (-len(touching[i]), i)):
        taken = [colour[j] for j in touching[i] if j in colour]
        free = [k for k in range(CAR_COLOURS) if k not in taken]
        colour[i] = free[0] if free else min(range(CAR_COLOURS), key=taken.count)
    return {cars[i].name: colour[i] for i in colour}


def _body(cell: int, n: int) -> tuple[int, int]:
    """Where cell `cell` of an n x n board has its body on the canvas (x, y)."""
    row, col = divmod(cell, n)
    return 2 + col * CELL_X, 2 + row * CELL_Y
