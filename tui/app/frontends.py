"""The frontend table: family name -> its board widget class (one module per family)."""

from __future__ import annotations

import importlib

from fewest.tui.app.boards.base import BoardView

_BOARDS = {
    "sokoban": ("fewest.tui.app.boards.sokoban", "SokobanBoard"),
    "traffic": ("fewest.tui.app.boards.traffic", "TrafficBoard"),
    "rotation": ("fewest.tui.app.boards.rotation", "RotationBoard"),
    "shift": ("fewest.tui.app.boards.shift", "ShiftBoard"),
    "password": ("fewest.tui.app.boards.password", "PasswordBoard"),
}

FAMILY_TITLES = {
    "sokoban": "Sokoban",
    "traffic": "Traffic",
    "rotation": "Rotation",
    "shift": "Shift",
    "password": "Password",
}


def board_class(family: str) -> type[BoardView]:
    try:
        module, name = _BOARDS[family]
    except KeyError:
        raise ValueError(f"no board for family {family!r}") from None
    return getattr(importlib.import_module(module), name)


def family_title(family: str | None) -> str:
    return FAMILY_TITLES.get(family or "", (family or "Files").title())
