"""The web server behind `fewest serve`: textual-serve's, with what fewest needs on top.

- The page has a title (fewest and the family), and reaches back to the server at the
  address the browser used, so a server on 0.0.0.0 works from other machines too. Its
  font comes from the server too (textual-serve ships it), not from Google's: the page
  asks nothing of any other site, and draws at once on a machine offline.
- The address prints once the port is listening (then, with --open, a browser opens it).
- Only pages of this server start apps: a websocket opened by another site's page (any
  page the player visits can try one) is refused, and so, on a local host, is a request
  naming another host (a site whose name was turned to 127.0.0.1: DNS rebinding).
- Stopping (Ctrl-C, SIGTERM) ends every tab's app process before the server exits: each
  is told to quit, as when its tab closes, so it saves its games (web_app_process.py says
  how it is made sure to end).
- Under load: at most `max_sessions` apps at once (web_sessions.py); beyond that the page is
  a 503 saying the server is full, and a websocket opened anyway is closed with 1013 ("try
  again later"). A tab with no input for `idle_seconds` is ended. What a tab sends is read
  by web_browser.py: malformed messages are ignored, one over 64 KB closes the socket (1009).
- A malformed HTTP request is answered 400 by aiohttp and logged in one line, not with
  a traceback.
"""

from __future__ import annotations

import asyncio
import html
import logging
import re
import signal
import sys
import webbrowser
from typing import Any
from urllib.parse import urlsplit

from aiohttp import WSCloseCode, web
from aiohttp.http_exceptions import HttpProcessingError
from textual_serve.server import Server, to_int

from fewest.tui.cli.web_app_process import QUIT_SECONDS, STALL_SECONDS, TERM_SECONDS, AppProcess, kill_group, send_or_drop
from fewest.tui.cli.web_browser import MAX_MESSAGE_BYTES, relay, terminal_size
from fewest.tui.cli.web_sessions import SessionCount

STOP_SECONDS = QUIT_SECONDS + TERM_SECONDS + 3  # how long stopping waits for the tabs' apps to end
LOCAL_NAMES = ("127.0.0.1", "localhost", "::1")
HOST = re.compile(r"[A-Za-z0-9.\-]+(:[0-9]+)?|\[[0-9A-Fa-f:.]+\](:[0-9]+)?")
FONT_LINK = re.compile(r"<link[^>]*fonts\.googleapis\.com[^>]*>")
FONT_FACE = ('<style>@font-face {{ font-family: "Roboto Mono"; '
             'src: url("{static}fonts/RobotoMono-VariableFont_wght.ttf") format("truetype"); }}</style>')
# The terminal measures its cells once, when it opens: it opens once the font is there.
FONT_FIRST = """<script>
      (() => {
        const open = window.onload;
        window.onload = (event) => document.fonts.load('16px "Roboto Mono"').finally(() => open(event));
      })();
    </script>
  </head>"""
# The page says why its session ended when the server gave a reason (full, idle).
SAY_WHY = """<script>
      (() => {
        const Native = window.WebSocket;
        window.WebSocket = class extends Native {
          constructor(...args) {
            super(...args);
            this.addEventListener("close", (event) => {
              const message = document.querySelector(".closed-dialog .message");
              if (event.reason && message) message.textContent = event.reason;
            });
          }
        };
      })();
    </script>
  </head>"""
FULL_PAGE = """<!DOCTYPE html>
<html><head><title>{title}: server full</title></head>
<body style="background: #0c181f; color: #eee; font-family: monospace; padding: 2em">
<p>The server is full: it runs {most} games at once, and all are taken.</p>
<p>Try again later (<a href="/" style="color: #ac5af4">reload</a>).</p>
</body></html>
"""


class FewestServer(Server):
    def __init__(self, command: str, host: str, port: int, title: str, what: str, shown: str,
                 open_page: bool, max_sessions: int = 1, idle_seconds: float | None = None) -> None:
        super().__init__(command, host=host, port=port, title=title)
        self.local = host in LOCAL_NAMES
        self.what = what  # what is served, as the address line says it
        self.shown = shown  # the address printed
        self.open_page = open_page
        self.sessions = SessionCount(max_sessions)
        self.idle_seconds = idle_seconds
        self._tabs: set[asyncio.Task[Any]] = set()
        self._groups: set[int] = set()  # the process group of every app running

    def run(self) -> None:
        """Serve until Ctrl-C or SIGTERM; no app of it runs on after."""
        self.initialize_logging()  # (textual-serve's log: an app that fails to start)
        logging.getLogger("aiohttp.server").addFilter(one_line_for_bad_requests)
        try:
            web.run_app(self._make_app(), host=self.host, port=self.port, print=self._listening,
                        handle_signals=True, shutdown_timeout=STOP_SECONDS, access_log=None)
        finally:
            for group in list(self._groups):  # (only if stopping itself was cut short)
                kill_group(group, signal.SIGKILL)

    def _listening(self, _: str) -> None:
        print(f"fewest: serving {self.what} at {self.shown}  (Ctrl-C stops)", flush=True)
        if self.open_page and not webbrowser.open(self.shown):
            print("fewest: no browser to open here: open the address above in one", file=sys.stderr)

    async def on_startup(self, app: web.Application) -> None:
        """(textual-serve prints its banner here, before the port is bound: fewest prints
        its address once it is)"""

    async def handle_index(self, request: web.Request) -> web.StreamResponse:  # type: ignore[override]
        # The page's websocket and files at the address this browser reached (no await in
        # between: no other request can see this one's address).
        self._check(request)
        if self.sessions.full():
            page = FULL_PAGE.format(title=html.escape(self.title), most=self.sessions.most)
            return web.Response(status=503, text=page, content_type="text/html", headers={"Retry-After": "60"})
        self.public_url = f"{request.scheme}://{request.host}"
        response = await super().handle_index(request)
        assert isinstance(response, web.Response) and response.text is not None
        text = response.text.replace("<head>", f"<head>\n    <title>{html.escape(self.title)}</title>", 1)
        font = FONT_FACE.format(static=html.escape(f"{self.public_url}/static/"))
        text, found = FONT_LINK.subn(lambda _: font, text, count=1)
        if found:
            text = text.replace("</head>", FONT_FIRST, 1)
        text = text.replace("</head>", SAY_WHY, 1)
        response.text = text
        return response

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """A tab: its app process lives as long as this task (textual-serve's, with the
        limits above)."""
        self._check(request)
        websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=MAX_MESSAGE_BYTES)
        await websocket.prepare(request)
        if not self.sessions.open():
            await websocket.close(code=WSCloseCode.TRY_AGAIN_LATER,
                                  message=b"The server is full: try again later.")
            return websocket
        task = asyncio.current_task()
        assert task is not None
        self._tabs.add(task)
        size = terminal_size(to_int(request.query.get("width", "80"), 80), to_int(request.query.get("height", "24"), 24))
        app = AppProcess(self.command, self._groups, download_manager=self.download_manager,
                         write_bytes=lambda data: send_or_drop(lambda: websocket.send_bytes(data), STALL_SECONDS, drop),
                         write_str=lambda text: send_or_drop(lambda: websocket.send_str(text), STALL_SECONDS, drop),
                         close=websocket.close)

        def drop() -> None:  # (a browser that stopped reading: its connection goes)
            if request.transport is not None:
                request.transport.abort()

        try:
            await app.start(*(size or (80, 24)))
            if await relay(websocket, app, self.idle_seconds):
                minutes = f"{self.idle_seconds / 60:g}"
                await websocket.close(message=f"Session ended: no input for {minutes} minutes.".encode())
        except asyncio.CancelledError:  # (the server stops)
            pass
        finally:
            try:
                await app.stop()
            finally:
                self.sessions.close()
                self._tabs.discard(task)
            await websocket.close()
        return websocket

    async def on_shutdown(self, app: web.Application) -> None:
        """Cancelling a tab's task tells its app to quit and waits for the process to end."""
        tabs = list(self._tabs)
        for task in tabs:
            task.cancel()
        if tabs:
            await asyncio.wait(tabs, timeout=STOP_SECONDS)

    def _check(self, request: web.Request) -> None:
        """Refuse a request from another site's page, or naming another host on a local server
        (or naming it in other characters than a host's: the page repeats the name)."""
        if not HOST.fullmatch(request.host):
            raise web.HTTPBadRequest(text="fewest: not a host name")
        origin = request.headers.get("Origin")
        if origin is not None and urlsplit(origin).netloc != request.host:
            raise web.HTTPForbidden(text="fewest: pages of other sites cannot start a game here")
        if self.local and urlsplit(f"//{request.host}").hostname not in LOCAL_NAMES:
            raise web.HTTPForbidden(text="fewest: open this server at its local address")


def one_line_for_bad_requests(record: logging.LogRecord) -> bool:
    """aiohttp logs a malformed request with its traceback: one line is what it is worth."""
    if record.exc_info and isinstance(record.exc_info[1], HttpProcessingError):
        error = record.exc_info[1]
        reason = str(error.message).strip().splitlines()[0].rstrip(":") if error.message else type(error).__name__
        record.msg, record.args = "%s (answered %s): %s", (record.getMessage(), error.code, reason)
        record.exc_info = record.exc_text = None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
    return True
