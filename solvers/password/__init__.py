"""The password puzzle: the exact solver (solver.py): the cheapest write order (Held-Karp or A*) turned into commands."""
