"""A cache of what the Sokoban solver builds for a board, whose build a search may stop.

`functools.lru_cache` keys on every argument, so a builder's `check` (the search's
own, which raises Stopped on a cancel or when a budget runs out) would have every
search build its tables again. Here the key is the positional arguments alone. A
build that raises leaves nothing behind: the next caller builds from the start.
"""

from __future__ import annotations

from collections import OrderedDict
from contextlib import suppress
from functools import wraps
from typing import Any, Callable, TypeVar

from fewest.solvers.common.control import Check, no_check

Built = TypeVar("Built")
_MISSING = object()


def cached_per_board(most: int) -> Callable[[Callable[..., Built]], Callable[..., Built]]:
    """Keep the `most` latest results of a builder `build(*key, check=...)` by key."""

    def decorate(build: Callable[..., Built]) -> Callable[..., Built]:
        # No lock: the search forks its helpers, and a lock some other thread held at that
        # moment would stay held in the child for ever. Each OrderedDict call is atomic.
        kept: OrderedDict[tuple, Any] = OrderedDict()

        @wraps(build)
        def cached(*key: Any, check: Check = no_check) -> Built:
            value = kept.get(key, _MISSING)
            if value is not _MISSING:
                with suppress(KeyError):  # (another thread may have dropped it just now)
                    kept.move_to_end(key)
                return value
            value = build(*key, check=check)  # (two threads may both build it: the same tables)
            kept[key] = value
            with suppress(KeyError):
                while len(kept) > most:
                    kept.popitem(last=False)
            return value

        cached.cache_clear = kept.clear  # type: ignore[attr-defined]
        return cached

    return decorate
