"""How much time and memory a search gets: `fewest solve`'s default, and the app's hint, meter and par.

Plain Python (no Textual): the command line and the app both read it.
"""

from __future__ import annotations

import os

from fewest.solvers.common.control import Budget


def default_memory_bytes() -> int:
    """Half the machine's memory (2 GiB where the system does not say)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2
    except (AttributeError, ValueError, OSError):
        return 2 * 2**30


# A hint gets what `fewest bench sokoban` gives a level: a minute and 2 GiB (at most half
# the machine), on two cores where there are (helpers come from a server process, as the
# worker is a thread). Microban's hints are then proven as its bench (#123: 19 s, against
# 74 s in one process with no time cap), and on the hardest levels the last tenth finds a
# plan not proven shortest (Grigoriev 2001 #41: at 60 s, against 92 s on memory alone).
HINT_BUDGET = Budget(seconds=60.0, memory_bytes=min(2 * 2**30, default_memory_bytes()))
# h again where the hint's search ran out of time with no plan searches again, twice as long
# each time, up to this; the memory stays HINT_BUDGET's (Sokoban's finders keep ~900 bytes a
# position, 2 GiB some 2.3 million: Grigr 2001 #1's first plan came at 1.69 million, 496 s).
LONGEST_HINT_SECONDS = 8 * 60.0
METER_BUDGET = Budget(seconds=2.0, memory_bytes=500_000_000)  # the live meter's, after each move
PAR_BUDGET = Budget(seconds=3.0, memory_bytes=500_000_000)  # the par's, proven as a level opens
