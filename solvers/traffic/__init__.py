"""Rush Hour and Get out: the exact solver (solver.py), breadth-first and A* over car lines, the relaxed bound, tables, random levels."""
