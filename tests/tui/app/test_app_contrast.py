"""Every glyph a board draws reads in both themes: its colour against what it sits on."""

from __future__ import annotations

import pytest
from rich.color import Color as RichColor
from rich.color import ColorSystem

from fewest.tui.app.app import THEMES
from fewest.tui.app.boards.base import BoardView
from tests.app_support import SIZE, board_screen, make_app

FAMILIES = ("sokoban", "traffic", "rotation", "shift", "password")
LEAST = 3.0  # WCAG's ratio for large or bold text (the boards' glyphs are bold or blocks)
FILLS = {("sokoban", "board--wall")}  # drawn in the colour of their own background on purpose


def _luminance(rgb: tuple[int, int, int]) -> float:
    def channel(value: int) -> float:
        x = value / 255
        return x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4

    r, g, b = map(channel, rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _in_256(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    """The colour a 256-colour terminal shows for `rgb` (tmux's default, without COLORTERM)."""
    rounded = RichColor.from_rgb(*rgb).downgrade(ColorSystem.EIGHT_BIT)
    return tuple(rounded.get_truecolor())


def test_contrast_is_the_wcag_ratio():
    assert contrast((0, 0, 0), (255, 255, 255)) == pytest.approx(21.0)
    assert contrast((119, 119, 119), (255, 255, 255)) == pytest.approx(4.48, abs=0.01)


@pytest.mark.parametrize("family", FAMILIES)
async def test_board_glyphs_read_in_both_themes(tmp_path, family):
    app = make_app(tmp_path, family)
    async with app.run_test(size=SIZE) as pilot:
        board = board_screen(app).board
        names = set(BoardView.COMPONENT_CLASSES) | set(type(board).COMPONENT_CLASSES)
        poor = []
        for theme in THEMES:
            app.theme = theme
            await pilot.pause()
            ground = tuple(board.background_colors[1].rgb)
            for name in sorted(names - {n for f, n in FILLS if f == family}):
                style = board.get_component_rich_style(name)
                if style.color is None:
                    continue  # (no glyph colour of its own: the board's text colour)
                fg = tuple(style.color.get_truecolor())
                bg = tuple(style.bgcolor.get_truecolor()) if style.bgcolor else ground
                # (in true colour, and as a 256-colour terminal rounds them)
                worst = min(contrast(fg, bg), contrast(_in_256(fg), _in_256(bg)))
                if worst < LEAST:
                    poor.append(f"{theme} {name}: {worst:.2f}")
        assert not poor, poor


async def test_sokoban_walls_stand_out_from_the_floor_without_colour(tmp_path, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")  # (colours turn to greys: the wall's was the floor's)
    app = make_app(tmp_path, "sokoban")
    async with app.run_test(size=SIZE):
        board = board_screen(app).board
        wall = board.get_component_rich_style("board--wall").color.get_truecolor()
        floor = board.get_component_rich_style("board--floor").bgcolor.get_truecolor()
        assert app.no_color and contrast(tuple(wall), tuple(floor)) >= LEAST


async def test_in_16_colours_the_digits_and_box_and_goal_keep_apart(tmp_path, monkeypatch):
    monkeypatch.setenv("TERM", "xterm")  # (tints quantise to grey there, and orange to red)
    monkeypatch.delenv("COLORTERM")
    for family, names, layer in (("rotation", ("board--d1", "board--d2", "board--d3"), "bgcolor"),
                                 ("sokoban", ("board--goal",), "color")):
        app = make_app(tmp_path, family)
        async with app.run_test(size=SIZE):
            board = board_screen(app).board
            assert app.has_class("-few-colours")
            colours = [getattr(board.get_component_rich_style(name), layer) for name in names]
            # the terminal's own palette (ANSI numbers below 16), each a different colour
            assert all(c.number is not None and c.number < 16 for c in colours), colours
            assert len({c.number for c in colours}) == len(names)


async def test_footer_keys_read_in_both_themes(tmp_path):
    from textual.widgets._footer import FooterKey

    app = make_app(tmp_path, "sokoban")
    async with app.run_test(size=SIZE) as pilot:
        for theme in THEMES:
            app.theme = theme
            await pilot.pause()
            key = app.screen.query(FooterKey).first()
            style = key.get_component_rich_style("footer-key--key")
            fg = tuple(style.color.get_truecolor())
            bg = tuple(style.bgcolor.get_truecolor()) if style.bgcolor else tuple(key.background_colors[1].rgb)
            assert min(contrast(fg, bg), contrast(_in_256(fg), _in_256(bg))) >= LEAST, theme
