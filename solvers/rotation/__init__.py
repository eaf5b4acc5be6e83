"""The rotation game: the exact solver (solver.py) on distance tables of 24-bit cell masks, built with numpy and cached on disk."""
