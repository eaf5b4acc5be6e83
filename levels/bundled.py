"""The packs that ship inside the package (levels/packs/), read with importlib.resources.

A pack is one file; its name is the file's stem (`sokoban_learning`), its family and
title come from its contents. Credits for every pack: levels/packs/CREDITS.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from fewest.levels.base import LevelEntry, text_lines
from fewest.levels.files import read_text

PACK_SUFFIXES = (".xsb", ".fewest")
FAMILY_ORDER = ("sokoban", "traffic", "rotation", "shift", "password")
# Within a family, packs for newcomers come first; the rest follow by name.
FIRST_PACKS = ("sokoban_learning", "traffic_rush_hour")

SOURCE_PREFIX = "pack:"  # the source of a bundled level: "pack:<file name>"


def is_bundled(entry: LevelEntry) -> bool:
    """Does the level come with fewest (its par checked by the tests), not from a user's file?"""
    return entry.source.startswith(SOURCE_PREFIX)


@dataclass(frozen=True)
class Pack:
    name: str  # file stem, stable: progress is keyed by it
    family: str
    title: str
    entries: tuple[LevelEntry, ...]


def pack_title(text: str, fallback: str) -> str:
    """The first `Title:` line before any level body, else a title made from the file name."""
    for raw in text_lines(text):
        line = raw.strip()
        if not line or line.startswith(";") or line.lower().startswith("family:"):
            continue
        if line.lower().startswith("title:"):
            return line.split(":", 1)[1].strip()
        break
    return fallback.replace("_", " ").split(" ", 1)[-1].title()


@lru_cache(maxsize=None)
def bundled_packs() -> tuple[Pack, ...]:
    """Every bundled pack, by family (rule-book order) then name."""
    packs = []
    folder = resources.files("fewest.levels.packs")
    for item in folder.iterdir():
        if not item.name.endswith(PACK_SUFFIXES):
            continue
        stem = item.name.rsplit(".", 1)[0]
        text = item.read_text(encoding="utf-8")
        entries = read_text(text, source=f"{SOURCE_PREFIX}{item.name}")
        packs.append(Pack(stem, entries[0].family, pack_title(text, stem), tuple(entries)))
    order = {family: i for i, family in enumerate(FAMILY_ORDER)}
    first = {name: i for i, name in enumerate(FIRST_PACKS)}
    return tuple(
        sorted(packs, key=lambda p: (order.get(p.family, 99), first.get(p.name, len(first)), p.name))
    )


def find_pack(name: str) -> Pack:
    for pack in bundled_packs():
        if pack.name == name:
            return pack
    raise KeyError(name)
