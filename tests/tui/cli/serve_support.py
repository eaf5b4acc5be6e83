"""`fewest serve` in a process of its own, on a free local port, for the serve tests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def served(data_dir: Path, *args: str) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """The server (this Python's `fewest serve ARGS`, progress in `data_dir`) and its address,
    once the page answers. Ended on the way out if the test did not end it."""
    port = free_port()
    env = {**os.environ, "FEWEST_DATA_DIR": str(data_dir)}
    server = subprocess.Popen([sys.executable, "-m", "fewest.tui.cli.main", "serve", "--port", str(port), *args],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        url = f"http://127.0.0.1:{port}/"
        assert url in line, f"no address printed: {line!r} {server.stderr.read() if server.stderr else ''}"
        _answers(url)
        yield server, url
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


def _answers(url: str, seconds: float = 10) -> None:
    """Wait until the page answers."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as reply:
                assert reply.status == 200
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)
