"""`?` on a board: every key of that family and the shared ones, read from the BINDINGS themselves."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from fewest.tui.app.boards.base import BoardView
from fewest.tui.app.frontends import family_title

# Keys that look alike but differ; checked by tests (no key is bound twice on a board).
SHARED_NOTES = (
    "Capitals are shift+letter and differ from the small letter: S solves, s is Sokoban's down;"
    " h is always hint, H is rotation H.",
    "Hints are graduated: h once tells how many moves remain, twice shows the next move,"
    " three times plays it. A hint asked on a try, or a solve, marks the level assisted.",
    "r restarts as an ordinary move: undo brings the position back.",
    "c copies your moves as text; pasting such text plays it from where you stand.",
)


def bindings_of(node_class: type) -> list[Binding]:
    """The class's own Binding objects (plain tuples converted), in declaration order."""
    found = []
    for item in getattr(node_class, "BINDINGS", []):
        found.append(item if isinstance(item, Binding) else Binding(*item))
    return found


class HelpScreen(ModalScreen[None]):
    BINDINGS = [
        Binding("escape,q,question_mark", "close", "Close", id="help-close"),
    ]

    def __init__(self, board_class: type[BoardView], board_screen: Screen) -> None:
        super().__init__()
        self.board_class = board_class
        self.board_screen = board_screen

    def _keys(self, binding: Binding) -> str:
        if binding.key_display and "," not in binding.key:
            return self.app.get_key_display(binding)  # (which says it in ASCII where it must)
        keys = [self.app.get_key_display(binding.with_key(k.strip())) for k in binding.key.split(",")]
        return " ".join(keys)

    def _table(self, title: str, bindings: list[Binding]) -> Table:
        table = Table(title=title, title_justify="left", show_header=False, box=None,
                      padding=(0, 1), title_style="bold")
        table.add_column(style="bold", no_wrap=True, min_width=10)
        table.add_column()
        rows: dict[str, tuple[list[str], str]] = {}  # action -> (keys, description), in order
        for binding in bindings:
            what = binding.tooltip or binding.description or binding.action
            keys, _ = rows.setdefault(binding.action, ([], what))
            keys.append(self._keys(binding))
        for keys, description in rows.values():
            table.add_row("  ".join(keys), description)
        return table

    def compose(self) -> ComposeResult:
        family = family_title(self.board_class.FAMILY)
        with VerticalScroll(id="help-card"):
            yield Static(f"{family}: keys", id="help-title")
            yield Static(self._table("Playing", bindings_of(self.board_class)), classes="help-table")
            shared = [b for b in bindings_of(type(self.board_screen))  # (less what this family lacks)
                      if self.board_screen.check_action(b.action, ()) is not False]
            yield Static(self._table("Every board", shared), classes="help-table")
            yield Static(self._table("Anywhere", bindings_of(type(self.app))), classes="help-table")
            metric = getattr(self.board_screen, "metric", "moves")
            then = {"pushes": " (then moves)"}.get(metric, "")
            counted = f"The par, your best and the counts hints give are in {metric}{then} here."
            notes = Text("\n".join(f"• {n}" for n in (*self.board_class.HELP_NOTES, counted, *SHARED_NOTES)))
            yield Static(notes, id="help-notes")
            yield Static("esc, q or ? closes this help", id="help-close-hint")

    def action_close(self) -> None:
        self.dismiss(None)
