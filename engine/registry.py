"""The backend table: family name -> rules module (Tatham's `gamelist`)."""

from __future__ import annotations

from types import MappingProxyType

from fewest.engine import password, rotation, shift, sokoban, traffic
from fewest.engine.base import Rules

FAMILIES: MappingProxyType = MappingProxyType(
    {m.NAME: m for m in (sokoban, traffic, rotation, shift, password)}
)


def family_names() -> tuple[str, ...]:
    return tuple(FAMILIES)


def rules_for(family: str) -> Rules:
    """The rules module of `family`; ValueError naming the known ones otherwise."""
    try:
        return FAMILIES[family]
    except KeyError:
        raise ValueError(
            f"unknown family {family!r} (known: {', '.join(FAMILIES)})"
        ) from None
