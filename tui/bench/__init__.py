"""fewest bench: the families' seeded workloads and the Sokoban collection runs."""
