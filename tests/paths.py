"""Where the tests' files are, for test modules at any depth under tests/."""

from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
DATA_DIR = TESTS / "data"
