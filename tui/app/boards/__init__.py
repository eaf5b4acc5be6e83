"""The board screen and one view per family."""
