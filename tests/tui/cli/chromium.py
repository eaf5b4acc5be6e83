"""A real headless Chromium, driven over the DevTools protocol with aiohttp's websocket client
(aiohttp comes with textual-serve: no selenium, no driver binary).

The page draws its terminal on a canvas (xterm.js, WebGL or 2D), so the text is read from
xterm.js's own buffer: a script run before the page's own catches the Terminal object as
textual-serve's page stores it (`this.terminal = new Terminal(...)`).
"""

from __future__ import annotations

import asyncio
import base64
import itertools
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--remote-debugging-port=0", "--window-size=1000,700"]

# Runs before the page's scripts: the first object stored as some `.terminal` that has a
# buffer (xterm.js's Terminal) is kept as window.__terminal.
CATCH_TERMINAL = """
Object.defineProperty(Object.prototype, "terminal", {
  configurable: true,
  set(value) {
    Object.defineProperty(this, "terminal", {value, writable: true, configurable: true, enumerable: true});
    if (value && value.buffer && !window.__terminal) window.__terminal = value;
  },
});
"""
SCREEN_TEXT = """
(() => {
  const t = window.__terminal;
  if (!t) return null;
  const b = t.buffer.active, rows = [];
  for (let i = 0; i < t.rows; i++) { const line = b.getLine(b.viewportY + i); rows.push(line ? line.translateToString(true) : ""); }
  return rows.join("\\n");
})()
"""
# key name -> (key, code, Windows key code, text it types)
KEYS = {
    "enter": ("Enter", "Enter", 13, "\r"), "escape": ("Escape", "Escape", 27, ""),
    "tab": ("Tab", "Tab", 9, "\t"),
    "left": ("ArrowLeft", "ArrowLeft", 37, ""), "up": ("ArrowUp", "ArrowUp", 38, ""),
    "right": ("ArrowRight", "ArrowRight", 39, ""), "down": ("ArrowDown", "ArrowDown", 40, ""),
    "backspace": ("Backspace", "Backspace", 8, ""), "space": (" ", "Space", 32, " "),
}
# punctuation -> (code, Windows key code): xterm.js reads some keys by their code number
PUNCTUATION = {".": ("Period", 190), ",": ("Comma", 188), "[": ("BracketLeft", 219), "]": ("BracketRight", 221),
               "/": ("Slash", 191), "?": ("Slash", 191)}


class Chromium:
    """One headless browser with a fresh profile; `async with` starts and ends it."""

    def __init__(self) -> None:
        assert CHROMIUM is not None, "chromium is not installed"
        self.profile = tempfile.mkdtemp(prefix="fewest-chromium-")
        self.process: subprocess.Popen[bytes] | None = None
        self.http: aiohttp.ClientSession | None = None
        self.socket: aiohttp.ClientWebSocketResponse | None = None
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[Any]] = {}
        self._reader: asyncio.Task[None] | None = None

    async def __aenter__(self) -> "Chromium":
        self.process = subprocess.Popen([CHROMIUM, *FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        endpoint = await self._endpoint()
        self.http = aiohttp.ClientSession()
        self.socket = await self.http.ws_connect(endpoint, max_msg_size=0)
        self._reader = asyncio.create_task(self._read())
        return self

    async def __aexit__(self, *_: object) -> None:
        if self._reader is not None:
            self._reader.cancel()
        if self.http is not None:
            await self.http.close()
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)

    async def _endpoint(self) -> str:
        """The browser's DevTools websocket, from the file Chromium writes once it listens."""
        active = Path(self.profile) / "DevToolsActivePort"
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            assert self.process is not None and self.process.poll() is None, "chromium ended at start"
            lines = active.read_text().split("\n") if active.exists() else []
            if len(lines) >= 2 and lines[1]:
                return f"ws://127.0.0.1:{lines[0]}{lines[1]}"
            await asyncio.sleep(0.05)
        raise TimeoutError("chromium did not open its DevTools port")

    async def _read(self) -> None:
        assert self.socket is not None
        async for message in self.socket:
            reply = json.loads(message.data)
            future = self._waiting.pop(reply.get("id", -1), None)
            if future is not None and not future.done():
                if "error" in reply:
                    future.set_exception(RuntimeError(f"DevTools: {reply['error']}"))
                else:
                    future.set_result(reply.get("result", {}))

    async def send(self, method: str, session: str | None = None, **params: Any) -> Any:
        """A DevTools command (to the page of `session`, or the browser) and its result."""
        assert self.socket is not None
        number = next(self._ids)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting[number] = future
        message: dict[str, Any] = {"id": number, "method": method, "params": params}
        if session is not None:
            message["sessionId"] = session
        await self.socket.send_str(json.dumps(message))
        return await asyncio.wait_for(future, 10)

    async def open(self, url: str) -> "Tab":
        """A new tab at `url`, with the terminal catcher in place before the page's scripts."""
        target = (await self.send("Target.createTarget", url="about:blank"))["targetId"]
        session = (await self.send("Target.attachToTarget", targetId=target, flatten=True))["sessionId"]
        tab = Tab(self, target, session)
        await tab.send("Page.enable")
        await tab.send("Emulation.setFocusEmulationEnabled", enabled=True)  # (headless: no window has focus)
        await tab.send("Page.addScriptToEvaluateOnNewDocument", source=CATCH_TERMINAL)
        await tab.send("Page.navigate", url=url)
        return tab


class Tab:
    def __init__(self, browser: Chromium, target: str, session: str) -> None:
        self.browser, self.target, self.session = browser, target, session

    async def send(self, method: str, **params: Any) -> Any:
        return await self.browser.send(method, self.session, **params)

    async def evaluate(self, expression: str) -> Any:
        reply = await self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        return reply["result"].get("value")

    async def screen(self) -> str:
        """The terminal's text as the page holds it, row by row ("" before it exists)."""
        return await self.evaluate(SCREEN_TEXT) or ""

    async def wait_for(self, text: str, seconds: float = 10) -> str:
        """The screen, once it shows `text`."""
        deadline = time.monotonic() + seconds
        screen = ""
        while time.monotonic() < deadline:
            screen = await self.screen()
            if text in screen:
                return screen
            await asyncio.sleep(0.1)
        raise AssertionError(f"the page never showed {text!r}; it shows:\n{screen}")

    async def focus(self) -> None:
        """Keys to the terminal, as a click on it would give them."""
        await self.evaluate("window.__terminal.focus()")

    async def press(self, key: str, shift: bool = False, ctrl: bool = False) -> None:
        """A key as the keyboard sends it: a name of KEYS, or one character (with shift or ctrl held)."""
        if key in KEYS:
            name, code, number, text = KEYS[key]
        else:
            name, text = key, key
            code, number = PUNCTUATION.get(key) or (f"Key{key.upper()}" if key.isalpha() else f"Digit{key}", ord(key.upper()))
        if ctrl:
            text = ""  # (xterm.js makes the control character itself)
        down = {"key": name, "code": code, "windowsVirtualKeyCode": number, "modifiers": 8 * shift + 2 * ctrl}
        await self.send("Input.dispatchKeyEvent", type="keyDown" if text else "rawKeyDown", text=text, **down)
        await self.send("Input.dispatchKeyEvent", type="keyUp", **down)

    async def title(self) -> str:
        return await self.evaluate("document.title")

    async def screenshot(self, path: str) -> None:
        data = (await self.send("Page.captureScreenshot", format="png"))["data"]
        Path(path).write_bytes(base64.b64decode(data))

    async def close(self) -> None:
        await self.browser.send("Target.closeTarget", targetId=self.target)


def descendants(pid: int) -> list[int]:
    """The live processes below `pid`, children and theirs (Linux: from /proc)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rpartition(")")[2].split()
            except OSError:
                continue
            if fields[0] != "Z":  # (a zombie has ended; only its parent's wait is missing)
                parents[int(entry)] = int(fields[1])
    found, frontier = [], [pid]
    while frontier:
        below = [child for child, parent in parents.items() if parent in frontier]
        found += below
        frontier = below
    return found


def alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


def group_runs(group: int) -> bool:
    """Whether a live process is in the process group `group` (a zombie is not: a killed
    process reparented to init may wait a moment to be reaped)."""
    for entry in os.listdir("/proc"):
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if int(fields[2]) == group and fields[0] != "Z":
            return True
    return False
