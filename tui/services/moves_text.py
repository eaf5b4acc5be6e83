"""Moves as text, as the player copies them off a board and pastes them onto one (plain Python)."""

from __future__ import annotations

from typing import Any

from fewest.engine.base import parse_plan

COPY_SHOWN = 40  # characters of copied moves echoed in the message line


def copied_note(text: str, counted: int) -> str:
    """What the message line says of the moves `text` copied: `counted` of them, as the move
    counter counts them (traffic's runs of one car are one)."""
    shown = text if len(text) <= COPY_SHOWN else text[: COPY_SHOWN - 1] + "…"
    count = "your move" if counted == 1 else f"your {counted} moves"
    return f"Copied {count} to the clipboard: {shown}"


def pasted_plan(rules: Any, level: Any, state: Any, text: str) -> list:
    """The moves of pasted `text` (what `c` copies; a LURD string off a web page), each legal
    in turn from `state`; ValueError, saying which and why, if not."""
    text = text if rules.PLAN_SEPARATOR else "".join(text.split())
    try:
        plan = parse_plan(rules, text)
    except ValueError as exc:
        raise ValueError(f"The pasted text is not moves of this game: {exc}") from None
    for number, move in enumerate(plan, 1):
        try:
            state = rules.apply(level, state, move)
        except ValueError as exc:
            raise ValueError(f"Pasted move {number} cannot be played from here: {exc}") from None
    return plan
