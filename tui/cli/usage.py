"""The command line's one error of its own: bad input or usage (one line, exit code 2)."""


class UsageError(Exception):
    """Bad input or usage: printed as one line, exit code 2."""
