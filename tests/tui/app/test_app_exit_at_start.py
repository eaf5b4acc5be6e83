"""An app told to end while it starts (a Ctrl-C or a `kill` in its first second) ends
quietly: its screens' mount handlers may run after the way out has pruned their widgets."""

from __future__ import annotations

import signal

import pytest

from fewest.tui.app.app import FewestApp
from tests.app_support import SIZE, entries, quiet_app


@pytest.mark.parametrize("family", [None, "sokoban"])  # (the browser alone; a level on it)
async def test_an_app_ended_as_it_mounts_its_screens_ends_with_its_code_and_no_error(tmp_path, monkeypatch, family):
    # (the last step of the app's mount: here it is a SIGINT's, the screens' mounts still to come)
    monkeypatch.setattr(FewestApp, "_end_on_signals", lambda app: app._terminated(signal.SIGINT))
    app = quiet_app(FewestApp(entries(family) if family else None, 0, data_dir=str(tmp_path / "data")))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
    assert app.return_code == 130 and app._exception is None
