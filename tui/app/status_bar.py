"""The board's two lines under the board: the message line, and the status line (counters,
par, best, hints, timer; a spinner or meter on the right)."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.widgets import Static

from fewest.tui.services.level_summary import by_metric, par_text

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
ASCII_SPINNER = "|/-\\"


def clock_text(seconds: float) -> str:
    seconds = int(seconds)
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60:02d}:{rest % 60:02d}"


@dataclass(frozen=True)
class StatusFacts:
    moves: int
    pushes: int | None  # None: the family has no pushes
    par: int | None  # None: not known (counted by the metric, as the best is)
    best: int | None
    hints: int
    seconds: float | None  # None hides the timer
    unsolvable: bool = False  # proven: no plan solves the level (a par given is wrong)
    metric: str = "moves"  # what hints, solve, par and best go by (named when not the moves)
    bound: int | None = None  # where no par is known: the fewest of a solution known ("Par ≤656")
    ascii_only: bool = False  # (that sign as "<=")


class MessageLine(Static):
    """The message line: wrapped onto up to three lines in a narrow terminal, the layout
    redone only when its number of lines changes (not on every move). Never markup: titles
    and paths in it are the user's."""

    def __init__(self, **kwargs) -> None:
        super().__init__(markup=False, **kwargs)
        self._lines = 1

    def show(self, text: str) -> None:
        room = max(1, self.size.width - 2)  # (its padding)
        lines = min(3, max(1, -(-len(text) // room)))
        self.update(text, layout=lines != self._lines)
        self._lines = lines


class StatusBar(Static):
    """One line: the counters on the left, what the solver is doing on the right.

    Redrawn only when its text changes, and without a layout pass (its size never changes):
    the board ticks ten times a second while a solver runs.
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._shown: tuple | None = None

    def show(self, facts: StatusFacts, activity: str) -> None:
        key = (facts, activity, self.size.width)
        if key == self._shown:
            return
        self._shown = key
        width = self.content_region.width
        text = _counters(facts, best_unit=True)
        if activity and len(text) + 2 + len(_shortened(activity)[-1]) > width:
            text = _counters(facts, best_unit=False)  # (the Par's unit says it for both)
        if activity:
            room = width - len(text) - 2
            activity = next((short for short in _shortened(activity) if len(short) <= room), activity)
            gap = max(2, width - len(text) - len(activity))
            text.append(" " * gap)
            text.append(activity, style="bold")
        self.update(text, layout=False)


def _counters(facts: StatusFacts, best_unit: bool) -> Text:
    """The counters' part of the line; `best_unit`: the Best's unit too where the Par has
    one ("Par 7 pushes  Best 9 pushes"), else on the Par alone (a narrow line)."""
    text = Text(no_wrap=True, overflow="crop")

    def field(label: str, value: object) -> None:
        if text:
            text.append("  ")
        text.append(f"{label} ", style="dim")
        text.append(str(value), style="bold")

    field("Moves", facts.moves)
    if facts.pushes is not None:
        field("Pushes", facts.pushes)
    # ("Par 7 pushes": the unit says what M chose)
    par = par_text(facts.par, facts.bound, facts.ascii_only)
    field("Par", "none" if facts.unsolvable else by_metric(par, facts.metric))
    field("Best", "-" if facts.best is None else by_metric(facts.best, facts.metric if best_unit else "moves"))
    field("Hints", facts.hints)
    if facts.seconds is not None:
        field("Time", clock_text(facts.seconds))
    return text


def _shortened(activity: str) -> list[str]:
    """The activity, then shorter forms for a narrow line: the aside in brackets goes first,
    then each detail after a comma, then all but the first two words ("⠇ thinking")."""
    forms = [activity]
    if "  (" in activity:
        forms.append(activity[: activity.index("  (")])
    while ", " in forms[-1]:
        forms.append(forms[-1][: forms[-1].rindex(", ")])
    words = forms[-1].split(" ")
    if len(words) > 3:
        forms.append(" ".join(words[:2]))
    return forms
