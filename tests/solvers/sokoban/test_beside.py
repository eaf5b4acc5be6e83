"""The macro finder in a child beside the finders in line (sokoban/anytime/beside.py)."""

import multiprocessing
import time

import pytest

from fewest.engine import sokoban as S
from fewest.solvers import Budget, Control
from fewest.solvers.common.control import Stopped
from fewest.solvers.common.processes import spare_core
from fewest.solvers.sokoban.anytime import anytime
from fewest.solvers.sokoban.anytime.anytime import FOUND, anytime_plans
from fewest.solvers.sokoban.board.board import compile_board
from fewest.solvers.sokoban.board.tables import build_tables
from tests.sokoban_support import search_position
from tests.solvers.sokoban.test_advisors import replayed
from tests.solvers.sokoban.test_fess import microban

pytestmark = pytest.mark.skipif(not spare_core(), reason="needs a spare core")


def spin(_tables, _boxes, _player, control, *_rest):
    """A finder in line that finds nothing until its share ends."""
    while True:
        control.tick()


@pytest.fixture
def finders_find_nothing(monkeypatch):
    for name in ("packed_search", "_pulled", "fess_search"):
        monkeypatch.setattr(anytime, name, spin)


def start_of(number):
    lvl = microban(number)
    board = compile_board(lvl)
    return lvl, board, *search_position(board, S.initial_state(lvl))


def test_the_child_s_plan_comes_when_the_finders_in_line_have_none(finders_find_nothing):
    lvl, board, boxes, player = start_of(90)
    control = Control(Budget(seconds=30, memory_bytes=1 << 30))
    stage, plan = next(anytime_plans(build_tables(board), boxes, player, control))
    assert stage == FOUND
    assert replayed(lvl, board, boxes, player, plan) == board.goals
    assert control.expanded > 0  # (the child's positions counted in)
    assert not multiprocessing.active_children()


def test_when_the_finders_in_line_are_through_with_none_the_child_is_waited_for(monkeypatch):
    for name in ("packed_search", "_pulled", "fess_search"):
        monkeypatch.setattr(anytime, name, lambda *_args: None)  # (through at once, no plan)
    lvl, board, boxes, player = start_of(90)
    control = Control(Budget(seconds=30, memory_bytes=1 << 30))
    stage, plan = next(anytime_plans(build_tables(board), boxes, player, control))
    assert stage == FOUND
    assert replayed(lvl, board, boxes, player, plan) == board.goals
    assert not multiprocessing.active_children()


def test_a_cancel_still_stops_the_finders_and_ends_the_child(finders_find_nothing, monkeypatch):
    from fewest.solvers.sokoban.anytime import beside

    found, forked = [], []
    monkeypatch.setattr(beside, "macro_finder", lambda *args: spin(None, None, None, args[-1]))
    start = beside.SearchApart.start
    monkeypatch.setattr(beside.SearchApart, "start", lambda child, *args: forked.append(start(child, *args)))
    lvl, board, boxes, player = start_of(90)
    started = time.perf_counter()
    control = Control(Budget(seconds=30), should_stop=lambda: time.perf_counter() > started + 1.5)
    with pytest.raises(Stopped) as stopped:
        for stage_plan in anytime_plans(build_tables(board), boxes, player, control):
            found.append(stage_plan)
    assert stopped.value.reason == "cancelled" and not found and forked
    assert not multiprocessing.active_children()
