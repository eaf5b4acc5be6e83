"""What a browser tab sends `fewest serve`, read safely: textual-serve's page speaks JSON
envelopes (["stdin", text], ["resize", {"width": W, "height": H}], ["ping", text], ["focus"],
["blur"]). Anything else, malformed or not, is ignored: a page is input, and input never ends
a session. A tab that sends nothing but pings for `idle_seconds` is ended."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService

MAX_MESSAGE_BYTES = 64 * 1024  # a larger message closes the socket (code 1009, "too big")
WIDTHS = range(1, 501)  # terminal sizes an app is asked to draw
HEIGHTS = range(1, 201)
ENDED = (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED, WSMsgType.ERROR)


def terminal_size(width: object, height: object) -> tuple[int, int] | None:
    """The width and height asked, when they are whole numbers in range."""
    if type(width) is int and type(height) is int and width in WIDTHS and height in HEIGHTS:
        return width, height
    return None


def browser_message(text: str) -> tuple[str, Any] | None:
    """The kind and data of one message from the page; None for anything malformed."""
    try:
        envelope = json.loads(text)
    except (ValueError, RecursionError):  # (RecursionError: nesting too deep for the parser)
        return None
    if not isinstance(envelope, list) or not envelope or not isinstance(envelope[0], str):
        return None
    kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
    if kind in ("stdin", "ping") and isinstance(data, str):
        try:
            data.encode("utf-8")
        except UnicodeEncodeError:  # (a lone surrogate, as "\ud800" in JSON gives)
            return None
        return kind, data
    if kind == "resize" and isinstance(data, dict):
        size = terminal_size(data.get("width"), data.get("height"))
        return (kind, size) if size else None
    if kind in ("focus", "blur"):
        return kind, None
    return None


async def relay(websocket: web.WebSocketResponse, app: AppService, idle_seconds: float | None) -> bool:
    """Pass the tab's keys and sizes to its app until the tab closes (False) or has sent no
    input for `idle_seconds` (True; None: never)."""
    clock = asyncio.get_running_loop().time
    last_input = clock()
    while True:
        wait = None if idle_seconds is None else max(0.001, last_input + idle_seconds - clock())
        try:
            message = await websocket.receive(timeout=wait)
        except TimeoutError:
            if clock() - last_input >= (idle_seconds or 0):
                return True
            continue
        if message.type in ENDED:
            return False
        parsed = browser_message(message.data) if message.type == WSMsgType.TEXT else None
        if parsed is None:
            continue
        kind, data = parsed
        if kind == "ping":  # (the page's own, at its start: not the player's input)
            await websocket.send_json(["pong", data])
            continue
        last_input = clock()
        if kind == "stdin":
            await app.send_bytes(data.encode("utf-8"))
        elif kind == "resize":
            await app.set_terminal_size(*data)
        elif kind == "blur":
            await app.blur()
        else:
            await app.focus()
