"""`fewest serve` under load: a bounded number of apps (the rest told the server is full),
none left once their tabs close, malformed requests and messages answered without harm,
idle tabs ended, and an app that will not quit ended all the same."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import time
from urllib.parse import urlsplit

import aiohttp
import pytest

from fewest.tui.cli import web_app_process
from fewest.tui.cli.main import main
from fewest.tui.cli.web_app_process import AppProcess, send_or_drop
from fewest.tui.cli.web_browser import browser_message
from fewest.tui.cli.web_sessions import SessionCount, default_max_sessions
from tests.tui.cli.chromium import descendants, group_runs
from tests.tui.cli.serve_support import free_port, served
from textual_serve.download_manager import DownloadManager

FULL = 1013  # the websocket's "try again later"


async def _first(tab: aiohttp.ClientWebSocketResponse) -> aiohttp.WSMessage:
    return await tab.receive(timeout=30)


async def _gone(pid: int, seconds: float) -> float:
    """How long until no process is left below `pid` (fails after `seconds`)."""
    start = time.monotonic()
    while descendants(pid):
        assert time.monotonic() - start < seconds, f"still running: {descendants(pid)}"
        await asyncio.sleep(0.05)
    return time.monotonic() - start


async def test_twenty_tabs_at_once_start_at_most_the_limit_and_none_is_left_once_closed_or_idle(tmp_path):
    idle = 0.1  # minutes: 6 s (an app ended idle before its first draw is not "playing": under load one took 2 s)
    with served(tmp_path, "--max-sessions", "2", "--idle-minutes", str(idle)) as (server, url):
        async with aiohttp.ClientSession() as http:
            tabs = await asyncio.gather(*(http.ws_connect(f"{url}ws?width=80&height=24") for _ in range(20)))
            first = await asyncio.gather(*(_first(tab) for tab in tabs))
            playing = [tab for tab, message in zip(tabs, first) if message.type == aiohttp.WSMsgType.BINARY]
            refused = [message for message in first if message.type == aiohttp.WSMsgType.CLOSE]
            assert len(playing) == 2 and len(refused) == 18  # (two apps drew; the rest were refused)
            assert {(message.data, message.extra) for message in refused} == {
                (FULL, "The server is full: try again later.")}
            assert len(descendants(server.pid)) == 2
            async with http.get(url) as page:
                assert page.status == 503 and "The server is full: it runs 2 games at once" in await page.text()
            # One tab closes; the other types a key and then nothing: it is ended after the idle time.
            closing, idling = playing
            await closing.close()
            await idling.send_str(json.dumps(["stdin", "\x1b[B"]))
            typed = time.monotonic()
            while (message := await idling.receive(timeout=20)).type == aiohttp.WSMsgType.BINARY:
                pass
            assert time.monotonic() - typed >= idle * 60 - 0.1
            assert message.type == aiohttp.WSMsgType.CLOSE
            assert message.extra == "Session ended: no input for 0.1 minutes."
            await asyncio.gather(*(tab.close() for tab in tabs))
            await _gone(server.pid, 5)
            async with http.get(url) as page:  # (room again)
                assert page.status == 200


BAD_MESSAGES = [
    "", "{", "null", "[]", "{}", "[1]", '["stdin"]', '["stdin", 5]', '["resize", {"width": "x", "height": 3}]',
    '["resize", {"width": 10**9}]', '["resize", {"width": true, "height": true}]', '["resize", [80, 24]]',
    '["stdin", "\\ud800"]', '["quit"]', '["download", {"key": "../../etc"}]', "[" * 5000 + "]" * 5000,
]
BAD_REQUESTS = [b"GARBAGE \x00\x01\r\n\r\n", b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\n\r\n",
                b"\x16\x03\x01\x00\xa5\x01\x00", b"GET /ws HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"]


async def test_malformed_requests_and_messages_leave_the_server_answering(tmp_path):
    with served(tmp_path) as (server, url):
        port = urlsplit(url).port
        for request in BAD_REQUESTS:
            with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
                raw.sendall(request)
                assert raw.recv(100).startswith(b"HTTP/1.") or request.startswith(b"\x16")
        async with aiohttp.ClientSession() as http:
            tab = await http.ws_connect(f"{url}ws?width=80&height=24", max_msg_size=0)
            assert (await _first(tab)).type == aiohttp.WSMsgType.BINARY
            for message in BAD_MESSAGES:
                await tab.send_str(message)
            await tab.send_bytes(b"\xff\x00 not text")
            await tab.send_str(json.dumps(["ping", "still here"]))
            while (answer := await tab.receive(timeout=10)).type == aiohttp.WSMsgType.BINARY:
                pass  # (the app's drawing)
            assert answer.type == aiohttp.WSMsgType.TEXT and json.loads(answer.data) == ["pong", "still here"]
            await tab.send_str(json.dumps(["stdin", "x" * 70_000]))  # (over 64 KB)
            while (answer := await tab.receive(timeout=10)).type == aiohttp.WSMsgType.BINARY:
                pass
            assert answer.type == aiohttp.WSMsgType.CLOSE and answer.data == 1009
            await _gone(server.pid, 5)
            async with http.get(url) as page:
                assert page.status == 200
        server.send_signal(signal.SIGINT)
        assert server.wait(15) == 0
        assert server.stdout is not None
        log = server.stdout.read()  # (textual-serve's log goes to standard output)
    assert "Traceback" not in log and "╭" not in log
    said = " ".join(log.split())  # (the log's lines wrap at 80 columns)
    assert "Error handling request from 127.0.0.1 (answered 400): Invalid character in Content-Length " in said


async def test_an_app_that_will_not_quit_is_ended_with_its_whole_group(monkeypatch):
    monkeypatch.setattr(web_app_process, "QUIT_SECONDS", 0.3)
    monkeypatch.setattr(web_app_process, "TERM_SECONDS", 0.3)
    groups: set[int] = set()
    sent: list[bytes] = []

    async def keep(data: object) -> None:
        sent.append(data)  # type: ignore[arg-type]

    async def close() -> None:
        pass

    # (a shell and a child of it that ignore SIGTERM, and read no input: only SIGKILL ends them)
    app = AppProcess("trap '' TERM; sleep 30 & sleep 30", groups, write_bytes=keep, write_str=keep,
                     close=close, download_manager=DownloadManager())
    await app.start(80, 24)
    group = next(iter(groups))
    ready = time.monotonic() + 10  # (on a loaded machine the shell may take a while to start its sleeps)
    while len(descendants(group)) < 2 and time.monotonic() < ready:
        await asyncio.sleep(0.05)
    assert len(descendants(group)) == 2 and group_runs(group)  # (the shell and its two sleeps)
    start = time.monotonic()
    await app.stop()
    assert time.monotonic() - start < 5  # (the quit and the SIGTERM's 0.3 s each, then SIGKILL: not the 30 s)
    assert groups == set()
    assert not group_runs(group)


async def test_a_browser_that_stops_reading_is_dropped():
    dropped: list[str] = []

    async def stalled() -> None:
        await asyncio.sleep(60)

    async def reading() -> None:
        await asyncio.sleep(0.01)

    await send_or_drop(reading, 0.2, lambda: dropped.append("reading"))
    start = time.monotonic()
    await send_or_drop(stalled, 0.2, lambda: dropped.append("stalled"))
    assert dropped == ["stalled"] and 0.2 <= time.monotonic() - start < 1


def test_only_well_formed_messages_reach_the_app():
    assert [browser_message(text) for text in BAD_MESSAGES] == [None] * len(BAD_MESSAGES)
    assert browser_message('["stdin", "\\u00e9"]') == ("stdin", "é")
    assert browser_message('["resize", {"width": 100, "height": 30}]') == ("resize", (100, 30))
    assert browser_message('["focus"]') == ("focus", None)


def test_the_default_limit_is_four_a_core_within_half_the_memory():
    assert default_max_sessions(cores=2, memory_bytes=12 * 10**9) == 8  # (this kind of machine)
    assert default_max_sessions(cores=64, memory_bytes=4 * 10**9) == 20  # (200 MB each)
    assert default_max_sessions(cores=1, memory_bytes=10**8) == 1
    count = SessionCount(2)
    assert count.open() and count.open() and not count.open() and count.full()
    count.close()
    assert not count.full() and count.open()


@pytest.mark.parametrize("args, message", [
    (["--max-sessions", "0"], "argument --max-sessions: '0' is not a number of sessions (1 or more)"),
    (["--idle-minutes", "-1"], "argument --idle-minutes: '-1' is not a number of minutes (0 or more; 0: never)"),
    (["--idle-minutes", "nan"], "argument --idle-minutes: 'nan' is not a number of minutes"),
])
def test_bad_limits_are_usage_errors(args, message, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["serve", "--port", str(free_port()), *args])
    assert stop.value.code == 2
    assert message in capsys.readouterr().err
