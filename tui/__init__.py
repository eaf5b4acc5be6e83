"""The Textual app and the `fewest` command line (rendering and keys only)."""
