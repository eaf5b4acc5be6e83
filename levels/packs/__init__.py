"""Bundled level packs (read through importlib.resources). Credits: CREDITS.md."""
