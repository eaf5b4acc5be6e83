"""Small levels (as level-file text) and pilot helpers shared by the app tests."""

from __future__ import annotations

import time
from typing import Callable

from fewest.levels import read_text
from fewest.levels.base import LevelEntry
from fewest.tui.app.app import FewestApp

SIZE = (100, 30)

SOKOBAN = """\
Title: Small room
######
#    #
# $$ #
#.@ .#
######

Title: One push
#####
#@$.#
#####
"""

TRAFFIC = """\
Family: traffic
Title: Test traffic

Title: Short jam
goal: exit A
......
......
AA..B.
....B.
..CC..
......

Title: Free road
goal: exit A
......
......
AA....
......
......
......
"""

ROTATION = """\
Family: rotation
Title: Test rotation

Title: Two moves
Par: 2
1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3

Title: Eight moves
Par: 8
1 1 3 2 1 3 3 1 3 1 2 1 3 2 2 3 1 2 2 3 1 3 3 2
"""

SHIFT = """\
Family: shift
Title: Test shift

Title: Four moves
1111 1010
0000 0101
1110 1010
0010 0101
"""

PASSWORD = """\
Family: password
Title: Test password

Title: Corner sword
____
____
____
___S

Title: Hearts
_H__
_Y__
_Y__
_SH_
"""

TEXTS = {"sokoban": (SOKOBAN, "small.xsb"), "traffic": (TRAFFIC, "jam.fewest"),
         "rotation": (ROTATION, "rot.fewest"), "shift": (SHIFT, "shift.fewest"),
         "password": (PASSWORD, "code.fewest")}


def entries(family: str) -> list[LevelEntry]:
    text, name = TEXTS[family]
    return read_text(text, name)


def write_levels(tmp_path, family: str) -> str:
    """The family's test levels as a file on disk (for `fewest play` style opening)."""
    text, name = TEXTS[family]
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def quiet_app(app: FewestApp) -> FewestApp:
    """Deterministic knobs: frozen clock, fast animation, no background par search."""
    app.clock = lambda: 0.0
    app.animation_speed = 0.05
    app.learn_par = False
    return app


def make_app(tmp_path, family: str | None = None, index: int = 0, data: str = "data") -> FewestApp:
    levels = entries(family) if family else None
    return quiet_app(FewestApp(levels, index, data_dir=str(tmp_path / data)))


def app_on_text(tmp_path, text: str, name: str) -> FewestApp:
    """An app on the first level of `text`, read as a file called `name`."""
    return quiet_app(FewestApp(read_text(text, name), 0, data_dir=str(tmp_path / "data")))


async def wait_for(pilot, condition: Callable[[], bool], timeout: float = 10.0) -> None:
    """Let the app run until `condition()` holds (AssertionError after `timeout` seconds)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting for the app"
        await pilot.pause(0.02)
    await pilot.pause()


def board_screen(app: FewestApp):
    from fewest.tui.app.boards.screen import BoardScreen

    screens = [s for s in app.screen_stack if isinstance(s, BoardScreen)]
    return screens[-1] if screens else None


async def idle(pilot) -> None:
    """Wait until no solver worker of the board is running."""
    screen = board_screen(pilot.app)
    await wait_for(pilot, lambda: screen is None or not screen.thinker.busy)

