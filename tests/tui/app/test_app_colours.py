"""Pieces a player must tell apart keep apart in colour, as terminals with fewer colours
show them (256: tmux's default; 16), in both themes; touching cars never share a colour."""

from __future__ import annotations

from rich.color import ColorSystem
from rich.style import Style

from fewest.levels.bundled import bundled_packs
from fewest.tui.app.app import FewestApp, THEMES
from fewest.tui.app.boards.traffic import CAR_COLOURS, _beside, _reach, car_colours
from tests.app_support import SIZE, board_screen, entries, quiet_app

SYSTEMS = (ColorSystem.EIGHT_BIT, ColorSystem.STANDARD)
# per family: groups of component classes whose looks must all differ, and in which systems
APART = {
    "rotation": [(("d1", "d2", "d3"), SYSTEMS), (("d1", "hint"), SYSTEMS)],
    "password": [(("right", "wrong"), SYSTEMS), (("rail-active", "hint"), SYSTEMS),
                 (("cursor", "hint"), SYSTEMS)],
    "traffic": [(("selected", "hint", "target-car"), SYSTEMS),
                (("selected", "hint", "target-car", *(f"car{i}" for i in range(CAR_COLOURS))),
                 (ColorSystem.EIGHT_BIT,))],
    "shift": [(("held", "hint"), SYSTEMS), (("cursor", "hint"), SYSTEMS),
              (("target", "empty"), (ColorSystem.EIGHT_BIT,))],
    "sokoban": [(("cursor", "hint"), SYSTEMS)],
}


def _look(style: Style, ground: Style, system: ColorSystem) -> tuple:
    """What a terminal of `system` shows: the glyph's and the cell's colour numbers."""
    fg = style.color or ground.color
    bg = style.bgcolor or ground.bgcolor
    return tuple(None if c is None else c.downgrade(system).number for c in (fg, bg))


async def test_pieces_stay_apart_in_256_and_16_colours(tmp_path):
    levels = [entries(family)[0] for family in APART]
    app = quiet_app(FewestApp(levels, 0, data_dir=str(tmp_path / "data")))
    async with app.run_test(size=SIZE) as pilot:
        alike = []
        for family, groups in APART.items():
            board = board_screen(app).board
            assert board.FAMILY == family
            for theme in THEMES:
                app.theme = theme
                await pilot.pause()
                ground = Style(color=board.rich_style.color, bgcolor=board.background_colors[1].rich_color)
                for names, systems in groups:
                    styles = [board.get_component_rich_style(f"board--{name}") for name in names]
                    for system in systems:
                        looks = [_look(style, ground, system) for style in styles]
                        if len(set(looks)) < len(looks):
                            alike.append(f"{family} {theme} {system.name}: {dict(zip(names, looks))}")
            await pilot.press("n")
        assert not alike, alike


def test_cars_that_could_ever_touch_differ_in_colour():
    levels = [e for pack in bundled_packs() if pack.family == "traffic" for e in pack.entries]
    assert len(levels) > 30
    for entry in levels:
        level = entry.level
        colours = car_colours(level)
        cars = [car for car in level.cars if car.name in colours]
        for a in cars:
            near = _beside(_reach(level, a), level.n)
            for b in cars:
                if b is not a and near & _reach(level, b):
                    assert colours[a.name] != colours[b.name], (entry.display_title(), a.name, b.name)


def test_expert_6s_touching_cars_no_longer_share_a_colour():
    expert = next(e for p in bundled_packs() if p.name == "traffic_rush_hour"
                  for e in p.entries if e.display_title().startswith("Expert 6"))
    colours = car_colours(expert.level)
    # (K and E touch at the start: both navy before, as the issue saw; F, G, H lie stacked)
    for a, b in (("K", "E"), ("F", "G"), ("G", "H"), ("I", "B")):
        assert colours[a] != colours[b]
