"""Whether the app is on its way out: asked to exit, or closing.

A Ctrl-C (or a `kill`) in the app's first second ends it while its screens are still
being mounted: their mount handlers then run with no widgets composed (Textual composes
nothing once the app is exiting), and must not look for them."""

from __future__ import annotations

from textual.app import App


def ending(app: App) -> bool:
    return app.return_code is not None or not app.is_running
