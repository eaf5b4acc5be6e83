"""Rotation board: the `#` of 24 digits, with the eight moves labelled at the ends of their lines.

A line moves towards the label you press: A (top) pulls its column up, F (bottom)
pushes it down, C/D (right) move rows right, H/G (left) move them left. Keys A-H
(shift+letter; lowercase too, but for b, c and h, the screen's), 1-8, or click a label.
"""

from __future__ import annotations

from typing import Any

from textual.binding import Binding

from fewest.engine import rotation
from fewest.tui.app.boards.base import BoardView, Canvas

# (row, column) of cells 1..24 on the 7x7 grid of the `#`.
POSITIONS = (
    (0, 2), (0, 4), (1, 2), (1, 4),
    *((2, c) for c in range(7)),
    (3, 2), (3, 4),
    *((4, c) for c in range(7)),
    (5, 2), (5, 4), (6, 2), (6, 4),
)
CENTRE = frozenset(rotation.CENTRE)
DIGIT_KEYS = {letter: str(i) for i, letter in enumerate(rotation.LETTERS, 1)}
# Where each move's label sits: side of the board and the grid row/column of its line.
LABELS = {
    "A": ("top", 2), "B": ("top", 4), "F": ("bottom", 2), "E": ("bottom", 4),
    "H": ("left", 2), "G": ("left", 4), "C": ("right", 2), "D": ("right", 4),
}
WORDS = {"A": "column up", "B": "column up", "E": "column down", "F": "column down",
         "C": "row right", "D": "row right", "G": "row left", "H": "row left"}
ROTATE = Binding.Group("Rotate", compact=True)

CELL_W, PITCH_X, PITCH_Y = 5, 6, 2  # characters per cell, per column, lines per row
MARGIN_X, MARGIN_Y = 4, 2


# Lowercase letters rotate too, but for the board screen's own b (best), c (copy), h (hint).
TAKEN_LOWERCASE = frozenset("bch")


def _rotate_binding(letter: str) -> Binding:
    lower = "" if letter.lower() in TAKEN_LOWERCASE else f"{letter.lower()},"
    return Binding(f"{letter},{lower}{DIGIT_KEYS[letter]}", f"rotate('{letter}')",
                   f"Rotate {letter}: {WORDS[letter]}", id=f"rotate-{letter.lower()}", group=ROTATE)


class RotationBoard(BoardView):
    FAMILY = "rotation"
    COMPONENT_CLASSES = {"board--d1", "board--d2", "board--d3", "board--centre-mark"}
    BINDINGS = [_rotate_binding(letter) for letter in rotation.LETTERS]
    HELP_NOTES = (
        "A line moves towards the label you press; 1-8 are the same moves as A-H, and so are"
        " a, d, e, f, g (b, c, h are Best, Copy, Hint: use B, C, H or 2, 3, 8).",
        "Click a label to rotate its line.",
        "Goal: the eight centre cells (in brackets) all show one digit.",
    )

    def action_rotate(self, letter: str) -> None:
        self.pick(rotation.parse_move(letter))

    def describe(self, move: Any) -> str:
        letter = str(move)
        return f"{letter} (key {DIGIT_KEYS[letter]}): {WORDS[letter]}"

    def clicked(self, tag: Any) -> None:
        if isinstance(tag, rotation.Move):
            self.pick(tag)

    def draw(self) -> Canvas:
        state, hint = self.game.state, self.hint_move
        hint_cells = set(rotation.LINES[str(hint)]) if hint is not None else set()
        width = MARGIN_X * 2 + PITCH_X * 6 + CELL_W
        height = MARGIN_Y * 2 + PITCH_Y * 6 + 1
        canvas = Canvas(width, height + 1)
        solved = rotation.is_solved(self.game.level, state)
        for index, (row, col) in enumerate(POSITIONS):
            x, y = MARGIN_X + col * PITCH_X, MARGIN_Y + row * PITCH_Y
            digit = state.cells[index]
            centre = index in CENTRE
            text = f"[{digit:^3}]" if centre else f"{digit:^{CELL_W}}"
            style = self.style(f"d{digit}")
            if centre and solved:
                style = self.style("good")
            elif index in hint_cells:
                style = style + self.style("hint")
            canvas.put(x, y, text, style)
        for letter, (side, line) in LABELS.items():
            self._label(canvas, letter, side, line, width, height)
        digit = rotation.centre_digit(state)
        note = f"centre: {digit}" if digit is not None else "make the bracketed centre one digit"
        canvas.put((width - len(note)) // 2, height, note, self.style("good" if solved else "dim"))
        return canvas

    def _label(self, canvas: Canvas, letter: str, side: str, line: int, width: int, height: int) -> None:
        move = rotation.parse_move(letter)
        text = f"{letter}{DIGIT_KEYS[letter]}"
        style = self.style("hint" if move == self.hint_move else "label")
        if side in ("top", "bottom"):
            x = MARGIN_X + line * PITCH_X + (CELL_W - len(text)) // 2
            y = 0 if side == "top" else height - 1
        else:
            y = MARGIN_Y + line * PITCH_Y
            x = 0 if side == "left" else width - len(text)
        canvas.put(x, y, text, style, tag=move)
