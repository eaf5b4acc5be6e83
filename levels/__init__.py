"""Level files: every format in the rule book, located errors, bundled packs."""

from fewest.levels.base import Collection, LevelEntry, LevelFormatError, Unreadable

__all__ = [
    "Collection", "LevelEntry", "LevelFormatError", "Unreadable",
    "detect", "read_file", "read_file_each", "read_text", "read_text_each", "write_entries",
]


def __getattr__(name: str):
    # The readers import every family's formats; load them only when asked for.
    if name in ("detect", "read_file", "read_file_each", "read_text", "read_text_each", "write_entries"):
        from fewest.levels import files

        return getattr(files, name)
    raise AttributeError(name)
