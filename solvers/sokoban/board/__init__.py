"""The level compiled for search: padded cells and bitboards, push-distance tables, symmetry, regions."""
