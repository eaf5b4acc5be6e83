"""The child's finder (sokoban/anytime/beside.py's macro_finder): every box anywhere first,
then only the worst hotspot, each on its turn of the time."""

import pytest

from fewest.engine import sokoban as S
from fewest.solvers import Budget, Control
from fewest.solvers.common.control import Stopped
from fewest.solvers.sokoban.anytime import beside
from fewest.solvers.sokoban.board.board import compile_board
from fewest.solvers.sokoban.board.tables import build_tables
from fewest.solvers.sokoban.tuning import TUNING
from tests.sokoban_support import search_position, tuned
from tests.solvers.sokoban.test_advisors import replayed
from tests.solvers.sokoban.test_fess import microban


class Turns:
    """A fess_search that records each turn (hotspot only?, its time budget) and runs out of
    time in the first."""

    def __init__(self, first_stops: str = "time") -> None:
        self.calls: list[tuple[bool, float | None]] = []
        self.first_stops = first_stops

    def __call__(self, _tables, _boxes, _player, control, _orders, tuning):
        assert tuning.packing.macro
        self.calls.append((tuning.fess.macro_hotspot, control.budget.seconds))
        if len(self.calls) == 1:
            raise Stopped(self.first_stops)
        return ["plan"]


def test_when_every_box_anywhere_runs_out_of_its_turn_the_worst_hotspot_alone_goes_on(monkeypatch):
    turns = Turns()
    monkeypatch.setattr(beside, "fess_search", turns)
    control = Control(Budget(seconds=30))
    assert beside.macro_finder(None, 0, 0, {}, TUNING, control) == ["plan"]
    (first, first_until), (second, second_until) = turns.calls
    assert (first, second) == (False, True)
    assert first_until == pytest.approx(control.seconds + TUNING.anytime.beside_all_seconds, abs=0.5)
    assert second_until == 30


def test_a_cancel_in_the_first_turn_stops_the_finder(monkeypatch):
    turns = Turns(first_stops="cancelled")
    monkeypatch.setattr(beside, "fess_search", turns)
    with pytest.raises(Stopped):
        beside.macro_finder(None, 0, 0, {}, TUNING, Control(Budget(seconds=30)))
    assert len(turns.calls) == 1


def test_with_no_time_for_a_second_turn_the_first_has_it_all(monkeypatch):
    turns = Turns()
    monkeypatch.setattr(beside, "fess_search", turns)
    with pytest.raises(Stopped):
        beside.macro_finder(None, 0, 0, {}, TUNING, Control(Budget(seconds=1)))
    assert turns.calls == [(False, 1)]


@pytest.mark.parametrize("all_seconds", [0.0, 30.0], ids=["hotspot only", "every box"])
def test_either_turn_s_plan_solves_the_level(all_seconds):
    lvl = microban(16)
    board = compile_board(lvl)
    boxes, player = search_position(board, S.initial_state(lvl))
    tuning = tuned(anytime={"beside_all_seconds": all_seconds})
    plan = beside.macro_finder(build_tables(board), boxes, player, None, tuning, Control(Budget(seconds=30)))
    assert replayed(lvl, board, boxes, player, plan) == board.goals
