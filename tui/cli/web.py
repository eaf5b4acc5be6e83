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
  is told to quit, as when its tab closes, so it saves its games.
"""

from __future__ import annotations

import asyncio
import html
import re
import sys
import webbrowser
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web
from textual_serve.server import Server

QUIT_SECONDS = 10.0  # how long stopping waits for the tabs' apps to save and end
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


class FewestServer(Server):
    def __init__(self, command: str, host: str, port: int, title: str, what: str, shown: str,
                 open_page: bool) -> None:
        super().__init__(command, host=host, port=port, title=title)
        self.local = host in LOCAL_NAMES
        self.what = what  # what is served, as the address line says it
        self.shown = shown  # the address printed
        self.open_page = open_page
        self._tabs: set[asyncio.Task[Any]] = set()

    def run(self) -> None:
        """Serve until Ctrl-C or SIGTERM."""
        self.initialize_logging()  # (textual-serve's log: an app that fails to start)
        web.run_app(self._make_app(), host=self.host, port=self.port, print=self._listening,
                    handle_signals=True, shutdown_timeout=QUIT_SECONDS, access_log=None)

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
        self.public_url = f"{request.scheme}://{request.host}"
        response = await super().handle_index(request)
        assert isinstance(response, web.Response) and response.text is not None
        text = response.text.replace("<head>", f"<head>\n    <title>{html.escape(self.title)}</title>", 1)
        font = FONT_FACE.format(static=html.escape(f"{self.public_url}/static/"))
        text, found = FONT_LINK.subn(lambda _: font, text, count=1)
        if found:
            text = text.replace("</head>", FONT_FIRST, 1)
        response.text = text
        return response

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """A tab: its app process lives as long as this task."""
        self._check(request)
        task = asyncio.current_task()
        assert task is not None
        self._tabs.add(task)
        try:
            return await super().handle_websocket(request)
        finally:
            self._tabs.discard(task)

    async def on_shutdown(self, app: web.Application) -> None:
        """Cancelling a tab's task tells its app to quit and waits for the process to end."""
        tabs = list(self._tabs)
        for task in tabs:
            task.cancel()
        if tabs:
            await asyncio.wait(tabs, timeout=QUIT_SECONDS)

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
