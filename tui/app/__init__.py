"""The Textual app: screens, boards and widgets; rendering and keys only."""
