"""`fewest serve` played in a real headless Chromium: the page loads, the level browser
appears, keys open a level and make a move, the screen follows, and closing the tab ends
the tab's app process. (.ci/run installs chromium; elsewhere the test skips without it,
unless FEWEST_NEED_CHROMIUM is set, as .ci/run sets it.)"""

from __future__ import annotations

import asyncio
import json
import os
import signal

import pytest

from tests.tui.cli.chromium import CHROMIUM, Chromium, alive, descendants
from tests.tui.cli.serve_support import served

if CHROMIUM is None:
    if os.environ.get("FEWEST_NEED_CHROMIUM"):
        raise RuntimeError("FEWEST_NEED_CHROMIUM is set but chromium is not installed")
    pytest.skip("needs chromium (apt-get install chromium)", allow_module_level=True)


async def _until(condition, seconds: float = 10) -> None:
    for _ in range(int(seconds / 0.05)):
        if condition():
            return
        await asyncio.sleep(0.05)
    assert condition()


async def test_a_browser_plays_a_level_and_closing_the_tab_ends_its_app(tmp_path):
    with served(tmp_path) as (server, url):
        async with Chromium() as browser:
            tab = await browser.open(url)
            screen = await tab.wait_for("choose a level", seconds=20)
            assert "Learning to push" in screen and "Castlevania codes" in screen
            assert await tab.title() == "fewest: sokoban, traffic, rotation, shift, password"
            apps = descendants(server.pid)
            assert apps, "no app process for the tab"

            await tab.focus()
            await tab.press("enter")  # (the first level of the first pack: one push to the right)
            screen = await tab.wait_for("Moves 0")
            assert "First push" in screen
            await tab.press("right")
            screen = await tab.wait_for("Solved in 1 move")
            assert "Moves 1  Pushes 1" in screen

            # saved where the terminal app saves
            levels = json.loads((tmp_path / "progress.json").read_text())["levels"]
            assert [record["best_plan"] for record in levels.values() if record["solved"]] == ["R"]

            await tab.close()
            await _until(lambda: not any(alive(pid) for pid in apps))
        assert server.poll() is None  # (the server keeps serving)
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=10) == 0
