"""How many browser sessions `fewest serve` runs at once: each is an app process, so the
server holds a bounded number and says "full" beyond it."""

from __future__ import annotations

SESSIONS_PER_CORE = 4
# What one tab's app may come to (it starts near 60 MB; a hint's search takes more), against
# half the machine's memory: the other half is left to everything else.
SESSION_BYTES = 200_000_000


def default_max_sessions(cores: int | None = None, memory_bytes: int | None = None) -> int:
    """4 sessions a core, and at most one for each 200 MB of half the machine's memory
    (at least one)."""
    if cores is None:
        from fewest.solvers.common.processes import usable_cores

        cores = usable_cores()
    if memory_bytes is None:
        from fewest.tui.services.budgets import default_memory_bytes  # (half the machine's)

        memory_bytes = default_memory_bytes()
    return max(1, min(SESSIONS_PER_CORE * cores, memory_bytes // SESSION_BYTES))


class SessionCount:
    """The sessions running against the most allowed: one is counted from its websocket's
    opening until its app process has ended."""

    def __init__(self, most: int) -> None:
        if most < 1:
            raise ValueError(f"at least one session must be allowed, not {most}")
        self.most = most
        self.running = 0

    def full(self) -> bool:
        return self.running >= self.most

    def open(self) -> bool:
        """Count one more session if there is room; False when the server is full."""
        if self.full():
            return False
        self.running += 1
        return True

    def close(self) -> None:
        if self.running <= 0:
            raise RuntimeError("a session closed that was never opened")
        self.running -= 1
