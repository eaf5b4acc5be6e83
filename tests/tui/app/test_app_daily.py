"""The Daily shelf, the solved card's share line and "more like this" (Textual pilot)."""

from __future__ import annotations

import datetime

from textual.widgets import Tree

from fewest.levels import read_file, write_entries
from fewest.solvers import api
from fewest.tui.app import browser as browser_module
from fewest.tui.app.app import FewestApp
from fewest.tui.app.solved_screen import SolvedScreen
from fewest.tui.services.generated import (
    FAMILIES, GENERATED_KEY, Recipe, daily_path, daily_recipes, keep_more, kept_like, more_path, next_recipe,
    recipe_of,
)
from fewest.tui.services.catalog import MAKE_DAILY
from tests.app_support import SIZE, board_screen, entries, quiet_app, wait_for

TODAY = datetime.date.today()


def keep_daily(data_dir: str, date: datetime.date) -> list:
    """Stand-ins for the day's puzzles, quick to solve: the test levels, each with its
    daily recipe (making the real ones takes seconds; tests/tui/cli checks those)."""
    made = []
    for recipe in daily_recipes(date):
        entry = entries(recipe.family)[0] if recipe.family != "traffic" else entries("traffic")[1]
        entry = type(entry)(**{**entry.__dict__, "metadata": {GENERATED_KEY: recipe.text()}})
        path = daily_path(data_dir, date, recipe.family)
        import os

        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(write_entries([entry]))
        made.extend(read_file(path))
    return made


def _group(browser, label):
    return next(node for node in browser.query_one("#shelves", Tree).root.children if str(node.label) == label)


async def test_the_daily_shelf_is_made_on_first_open_and_lists_the_days_levels(tmp_path, monkeypatch):
    data = str(tmp_path / "data")
    calls = []
    monkeypatch.setattr(browser_module, "make_daily", lambda d, date, control: calls.append(date) or keep_daily(d, date))
    app = quiet_app(FewestApp(data_dir=data))
    async with app.run_test(size=SIZE) as pilot:
        browser = app.screen
        daily = _group(browser, "Daily")
        (leaf,) = daily.children
        assert browser.shelves[leaf.data].title == MAKE_DAILY
        tree = browser.query_one("#shelves", Tree)
        tree.focus()
        tree.move_cursor(leaf)
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(_group(browser, "Daily").children) == len(FAMILIES))
        assert calls == [TODAY]
        shelves = [browser.shelves[node.data] for node in _group(browser, "Daily").children]
        assert [s.family for s in shelves] == list(FAMILIES)
        assert all(recipe_of(s.entries[0]).seed == f"daily-{TODAY}" for s in shelves)
        assert browser.current_shelf is shelves[0]


async def test_a_solved_daily_puzzle_shares_its_count_and_par_with_c(tmp_path):
    data = str(tmp_path / "data")
    levels = keep_daily(data, TODAY)
    rotation = next(e for e in levels if e.family == "rotation")
    copied = []
    app = quiet_app(FewestApp([rotation], 0, data_dir=data))
    app.copy_to_clipboard = copied.append
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: board_screen(app) is not None)
        for move in api.solve("rotation", rotation.level).moves:
            await pilot.press(str(move))
        await wait_for(pilot, lambda: isinstance(app.screen, SolvedScreen))
        await pilot.press("c")
        line = f"fewest daily {TODAY} rotation: {rotation.par} moves (par {rotation.par})"
        assert copied == [line]


async def test_more_like_this_makes_the_next_level_of_the_recipe(tmp_path):
    from fewest.tui.services.generated import generated_entry
    from fewest.solvers.common.control import Control

    first = generated_entry(Recipe("shift", "easy", seed="7"), Control())
    data = str(tmp_path / "data")
    app = quiet_app(FewestApp([first], 0, data_dir=data))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: board_screen(app) is not None)
        screen = board_screen(app)
        await pilot.press("N")
        await wait_for(pilot, lambda: len(screen.entries) == 2 and screen.index == 1)
        made = screen.entry
        assert recipe_of(made) == Recipe("shift", "easy", seed="7", number=2)
        assert made.level == generated_entry(Recipe("shift", "easy", seed="7", number=2), Control()).level
        assert api.solve("shift", made.level).length == made.par
    # kept in the data directory: the browser lists it under "More like this", and the next
    # N, even from the first level again, goes on after the levels kept
    path = more_path(data, recipe_of(made))
    assert made.source == path and [e.level for e in read_file(path)] == [made.level]
    app = quiet_app(FewestApp(data_dir=data))
    async with app.run_test(size=SIZE) as pilot:
        browser = app.screen
        (leaf,) = _group(browser, "More like this").children
        assert [e.key for e in browser.shelves[leaf.data].entries] == [made.key]
    assert next_recipe(first, [first, *kept_like(data, first)]).number == 3
    third = generated_entry(Recipe("shift", "easy", seed="7", number=3), Control())
    keep_more(data, third)
    keep_more(data, made)  # (kept once: made again, it replaces itself)
    assert [recipe_of(e).number for e in read_file(path)] == [2, 3]


async def test_more_like_this_on_a_level_not_generated_says_so(tmp_path):
    app = quiet_app(FewestApp(entries("shift"), 0, data_dir=str(tmp_path / "data")))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: board_screen(app) is not None)
        await pilot.press("N")
        await pilot.pause()
        assert "was not generated" in board_screen(app).message
