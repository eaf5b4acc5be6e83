"""The fewest command line: argument parsing, solve and its terminal progress line."""
