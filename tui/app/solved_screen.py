"""The "Solved in N moves (par M)" card, with next / retry / back.

Par, best and the verdict count by the metric chosen (Sokoban: moves or pushes)."""

from __future__ import annotations

from dataclasses import dataclass

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from fewest.tui.app.status_bar import clock_text
from fewest.tui.services.level_summary import by_metric


@dataclass(frozen=True)
class SolvedFacts:
    moves: int
    pushes: int | None  # Sokoban only
    par: int | None  # by the metric, as the best before is
    best_before: int | None
    new_best: bool
    assisted: bool
    seconds: float | None  # None: timer hidden
    has_next: bool
    metric: str = "moves"  # "pushes": par, best and verdict count pushes
    share: str | None = None  # a daily puzzle's result line (c copies it), no spoilers in it
    more: bool = False  # a generated level: N makes another like it
    # with no par: the fewest by the metric of a solution known before this one (a plan the
    # solver found, a bundled pack's saved one, the player's best), which this solve may beat
    known: int | None = None

    @property
    def count(self) -> int:
        """The solve's count by the metric."""
        return self.pushes if self.metric == "pushes" and self.pushes is not None else self.moves

    def counted(self, count: int) -> str:
        """`count` with its unit under the metric ("7 pushes"), bare under the moves."""
        return by_metric(count, self.metric)


def headline(facts: SolvedFacts) -> str:
    count = f"{facts.moves} move{'s' if facts.moves != 1 else ''}"
    if facts.pushes is not None:
        count += f", {facts.pushes} push{'es' if facts.pushes != 1 else ''}"
    par = f" (par {facts.counted(facts.par)})" if facts.par is not None else ""
    return f"Solved in {count}{par}"


def verdict(facts: SolvedFacts) -> str:
    lines = []
    if facts.assisted:
        lines.append("Solved with help: marked assisted.")
    elif facts.par is not None and facts.count <= facts.par:
        lines.append("Perfect: as few pushes as there can be!" if facts.metric == "pushes"
                     else "Perfect: as short as it can be!")
    elif facts.par is not None:
        shorter = "a way with fewer pushes" if facts.metric == "pushes" else "a shorter way"
        lines.append(f"{facts.counted(facts.count - facts.par)} over par: can you find {shorter}?")
    elif facts.known is not None and facts.count < facts.known:
        lines.append(f"Shorter than any solution known before ({facts.counted(facts.known)}); no par is proven here.")
    elif facts.known is not None and facts.count == facts.known:
        lines.append(f"As short as the shortest solution known ({facts.counted(facts.known)}); no par is proven here.")
    elif facts.known is not None:
        lines.append(f"{facts.counted(facts.count - facts.known)} more than the shortest solution known "
                     f"({facts.counted(facts.known)}); no par is proven here.")
    if facts.new_best:
        before = f" (was {facts.counted(facts.best_before)})" if facts.best_before is not None else ""
        lines.append(f"New personal best{before}.")
    if facts.seconds is not None:
        lines.append(f"Time {clock_text(facts.seconds)}")
    if not facts.has_next:
        lines.append("That was the last level here.")
    return "\n".join(lines)


class SolvedScreen(ModalScreen[str]):
    """Dismissed with "next", "retry", "back" (to the levels) or "stay" (look at the board)."""

    BINDINGS = [
        Binding("n", "choose('next')", "Next level", id="solved-next"),
        Binding("r", "choose('retry')", "Retry", id="solved-retry"),
        Binding("q", "choose('back')", "Levels", id="solved-back"),
        Binding("escape", "choose('stay')", "Close", id="solved-close"),
        Binding("c", "copy_share", "Copy result", id="solved-share"),
        Binding("N", "choose('more')", "More like this", id="solved-more"),
    ]

    def __init__(self, facts: SolvedFacts) -> None:
        super().__init__()
        self.facts = facts

    def compose(self) -> ComposeResult:
        with Vertical(id="solved-card"):
            yield Static(headline(self.facts), id="solved-headline", markup=False)
            yield Static(verdict(self.facts), id="solved-verdict", markup=False)
            if self.facts.share is not None:
                yield Static(f"{self.facts.share}\n(c copies it)", id="solved-share", markup=False)
            with Horizontal(id="solved-buttons"):
                if self.facts.has_next:  # (none after the last level: the card says so)
                    yield Button("Next level  n", id="next", variant="success", compact=True)
                if self.facts.more:
                    yield Button("More like this  N", id="more", compact=True)
                yield Button("Retry  r", id="retry", compact=True)
                yield Button("Levels  q", id="back", compact=True)

    def on_mount(self) -> None:
        self.query_one("#next" if self.facts.has_next else "#retry", Button).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "choose" and parameters == ("next",) and not self.facts.has_next:
            return None
        if action == "choose" and parameters == ("more",) and not self.facts.more:
            return None
        if action == "copy_share" and self.facts.share is None:
            return None
        return True

    def action_copy_share(self) -> None:
        """The result line to the terminal's clipboard (OSC 52: some terminals ignore it)."""
        assert self.facts.share is not None
        self.app.copy_to_clipboard(self.facts.share)
        self.query_one("#solved-share", Static).update(f"{self.facts.share}\n(copied)")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id)

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)
