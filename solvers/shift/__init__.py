"""Shift: the exact solver (solver.py), a matching bound met by a construction."""
