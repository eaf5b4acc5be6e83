"""Deterministic random generators: the same seed text gives the same numbers on every
machine and every Python (a SHA-256 of the parts, not Python's salted `hash`)."""

from __future__ import annotations

import datetime
import hashlib
import random


def rng_for(*parts: object) -> random.Random:
    """A generator seeded by the parts' text, joined (`rng_for(1, "traffic", "medium", 3)`)."""
    text = "\x1f".join(str(part) for part in parts)
    return random.Random(int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big"))


def daily_seed(date: datetime.date) -> str:
    """The seed of a day's puzzles: the same for everyone on that date."""
    return f"daily-{date.isoformat()}"
