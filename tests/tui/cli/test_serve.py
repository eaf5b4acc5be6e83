"""`fewest serve`: its usage errors (exit 2, one line), its safety, the command each tab
runs, stopping on a signal with no app left behind, and the other commands never loading it."""

from __future__ import annotations

import asyncio
import json
import re
import os
import signal
import socket
import subprocess
import sys
from urllib.parse import urlsplit

import aiohttp
import pytest

from fewest.tui.cli.main import main
from fewest.tui.cli.serve import app_command, exposure_warning, page_title
from tests.paths import ROOT
from tests.tui.cli.chromium import alive, descendants
from tests.tui.cli.serve_support import free_port, served

PACK = ROOT / "levels" / "packs" / "traffic_get_out.fewest"


@pytest.mark.parametrize("port", ["0", "65536", "-1", "eighty"])
def test_a_bad_port_is_a_usage_error(port, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["serve", "--port", port])
    assert stop.value.code == 2
    assert f"argument --port: '{port}' is not a port number (1 to 65535)" in capsys.readouterr().err


def test_a_port_in_use_is_one_line_and_exit_2(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    assert capsys.readouterr().err == f"fewest: error: port {port} is in use on 127.0.0.1 (give another with --port)\n"


@pytest.mark.parametrize("args, message", [
    (["nowhere.xsb"], "fewest: error: nowhere.xsb: cannot read: No such file or directory\n"),
    ([str(PACK), "--level", "99"], f"fewest: error: {PACK}: no level 99 (the file has 14)\n"),
    (["--level", "2"], "fewest: error: --level needs a level file to serve: fewest serve FILE --level N\n"),
    (["-"], "fewest: error: serve needs a level file's path, not - (each tab reads the file anew)\n"),
])
def test_a_missing_file_or_level_is_one_line_and_exit_2(args, message, capsys):
    assert main(["serve", "--port", str(free_port()), *args]) == 2
    assert capsys.readouterr().err == message


def test_only_a_host_others_can_reach_warns():
    for host in ("127.0.0.1", "localhost", "::1"):
        assert exposure_warning(host, 8000) is None
    warning = exposure_warning("0.0.0.0", 8000)
    assert warning is not None and "anyone who can reach port 8000 can play" in warning
    assert "never a shell" in warning and "\n" not in warning


def test_each_tab_runs_this_python_on_the_app_or_the_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert app_command(None, None, None) == f"exec {sys.executable} -m fewest.tui.cli.main"
    assert app_command("a b.xsb", 3, "sokoban") == (
        f"exec {sys.executable} -m fewest.tui.cli.main play '{tmp_path / 'a b.xsb'}' --level 3 --family sokoban")
    assert page_title("traffic") == "fewest: traffic"


@pytest.mark.parametrize("opened", [True, False])
def test_open_opens_the_address_once_it_listens(opened, monkeypatch, capsys):
    from fewest.tui.cli import web

    asked = []
    monkeypatch.setattr(web.webbrowser, "open", lambda url: asked.append(url) or opened)
    server = web.FewestServer("true", "127.0.0.1", 8123, "fewest: shift", "the app", "http://127.0.0.1:8123/", True)
    server._listening("(aiohttp's line)")
    out, err = capsys.readouterr()
    assert out == "fewest: serving the app at http://127.0.0.1:8123/  (Ctrl-C stops)\n"
    assert asked == ["http://127.0.0.1:8123/"]
    assert err == ("" if opened else "fewest: no browser to open here: open the address above in one\n")


def test_solve_and_the_app_never_import_textual_serve():
    # (the app, without a terminal, stops at "needs a terminal": after loading its modules)
    for args, loaded in ((["solve", str(PACK), "--level", "1"], "fewest.solvers.api"), ([], "fewest.tui.app.app")):
        done = subprocess.run([sys.executable, "-X", "importtime", "-m", "fewest.tui.cli.main", *args],
                              capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60)
        imported = {line.split("|")[-1].strip() for line in done.stderr.splitlines() if "|" in line}
        assert loaded in imported
        assert not {"textual_serve", "aiohttp"} & imported, args


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
async def test_a_signal_stops_the_server_and_every_tab_s_app(stop, tmp_path):
    with served(tmp_path, str(PACK), "--level", "2") as (server, url):
        async with aiohttp.ClientSession() as http:
            tabs = [await http.ws_connect(f"{url}ws?width=80&height=24")]
            for tab in tabs:  # (each app has drawn: it runs)
                assert (await tab.receive(timeout=20)).type == aiohttp.WSMsgType.BINARY
            apps = descendants(server.pid)
            assert apps
            # (read on, as a browser does: it answers the server's closing)
            readers = [asyncio.create_task(_drain(tab)) for tab in tabs]
            server.send_signal(stop)
            assert await asyncio.to_thread(server.wait, 15) == 0
            await asyncio.gather(*readers)
        assert not [pid for pid in apps if alive(pid)]


async def _shows(tab: aiohttp.ClientWebSocketResponse, text: bytes, seconds: float = 20) -> None:
    """Read the tab's output until it draws `text` (its styles' escape codes taken out)."""
    seen = b""
    async with asyncio.timeout(seconds):  # (the app's clock keeps drawing: a deadline, not a pause)
        while text not in re.sub(rb"\x1b\[[0-9;:?]*[A-Za-z]", b"", seen):
            message = await tab.receive()
            assert message.type == aiohttp.WSMsgType.BINARY, f"the tab closed before showing {text!r}"
            seen = seen[-4096:] + message.data


async def test_two_tabs_at_once_keep_each_other_s_progress(tmp_path):
    right, down, left = "\x1b[C", "\x1b[B", "\x1b[D"
    # each tab: the keys that open a level (the first, the second), then its plan (R, dL)
    keys = [(["\r"], [right]), ([down, "\r"], [down, left])]
    with served(tmp_path) as (server, url):
        async with aiohttp.ClientSession() as http:
            tabs = [await http.ws_connect(f"{url}ws?width=100&height=30") for _ in keys]
            for tab in tabs:
                await _shows(tab, b"choose a level")
            for tab, (opening, plan) in zip(tabs, keys):
                await _type(tab, opening)
                await _shows(tab, b"Moves 0")
                await _type(tab, plan)
            for tab in tabs:
                await _shows(tab, b"Solved in")
                await tab.close()
    levels = json.loads((tmp_path / "progress.json").read_text())["levels"].values()
    assert sorted(record["best_plan"] for record in levels if record["solved"]) == ["R", "dL"]


async def _type(tab: aiohttp.ClientWebSocketResponse, keys: list[str]) -> None:
    for key in keys:
        await tab.send_json(["stdin", key])
        await asyncio.sleep(0.2)  # (one key at a time, as typed)


async def _drain(tab: aiohttp.ClientWebSocketResponse) -> None:
    async for _ in tab:
        pass


async def test_only_this_server_s_pages_start_a_game_and_the_page_asks_no_other_site(tmp_path):
    with served(tmp_path) as (server, url):
        async with aiohttp.ClientSession() as http:
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await http.ws_connect(f"{url}ws", headers={"Origin": "http://example.com"})
            assert refused.value.status == 403
            async with http.get(url, headers={"Host": f"rebound.example:{urlsplit(url).port}"}) as page:
                assert page.status == 403  # (a name turned to 127.0.0.1: DNS rebinding)
            async with http.get(url, headers={"Host": '127.0.0.1"><script>'}) as page:
                assert page.status == 400  # (the page repeats the name it was asked by)
            async with http.get(url) as page:
                text = await page.text()
                assert page.status == 200 and "<title>fewest: sokoban, traffic" in text
            # (nothing from other sites: the font is the server's own)
            fetched = re.findall(r'(?:href=|src=|url\()"\s*(https?://[^/"]+)', text)  # (what the page loads)
            assert len(fetched) >= 3 and set(fetched) == {url.rstrip("/")}
            async with http.get(f"{url}static/fonts/RobotoMono-VariableFont_wght.ttf") as font:
                assert font.status == 200
        assert descendants(server.pid) == []
