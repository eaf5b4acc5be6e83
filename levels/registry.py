"""Every known level-file format, in sniffing order (most specific first)."""

from __future__ import annotations

from fewest.levels import password, rotation, shift, sokoban, traffic
from fewest.levels.base import Format

FORMATS: tuple[Format, ...] = (
    *sokoban.FORMATS,
    *traffic.FORMATS,
    *rotation.FORMATS,
    *shift.FORMATS,
    *password.FORMATS,
)
