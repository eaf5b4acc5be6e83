"""One browser session's app process, as textual-serve runs it, made sure to end.

- The app starts in a process group of its own (a new session): Ctrl-C at the server's
  terminal reaches the server only, and ending the group ends whatever the app started.
- Ending it: the quit message (the app saves and exits, as when its tab closes), up to
  QUIT_SECONDS for that, then SIGTERM to the group, then SIGKILL. The group is swept even
  when the app ended by itself, so no helper of it runs on.
- An app that ends by itself (quit, or crashed) closes its tab's connection: the page says
  the session ended rather than showing a screen that no longer answers.
- What the app draws goes to the browser through `send_or_drop`: a browser that has stopped
  reading holds the app back (its output waits in the pipe), so after STALL_SECONDS of
  backlog the connection is dropped, and the session ends as if the tab had closed.
"""

from __future__ import annotations

import asyncio
import os
import signal
from asyncio.subprocess import Process
from typing import Awaitable, Callable

from textual_serve.app_service import AppService

QUIT_SECONDS = 10.0  # for the app to save and end after the quit message
TERM_SECONDS = 2.0  # for the group to end after SIGTERM, before SIGKILL
STALL_SECONDS = 30.0  # a browser this long behind in reading is dropped


async def send_or_drop(send: Callable[[], Awaitable[object]], seconds: float, drop: Callable[[], None]) -> None:
    """Send, unless the send waits over `seconds` (the reader is that far behind): then drop."""
    try:
        await asyncio.wait_for(send(), seconds)
    except TimeoutError:
        drop()
    except ConnectionError:  # (the connection went first: the session ends through it)
        pass


class AppProcess(AppService):
    """textual-serve's AppService in its own process group, ended for sure by `stop`.
    `groups` keeps the group of every app this server started until it has ended."""

    def __init__(self, command: str, groups: set[int], **kwargs: object) -> None:
        super().__init__(command, **kwargs)  # type: ignore[arg-type]
        self.groups = groups

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Process:
        environment = self._build_environment(width=width, height=height)
        self._process = process = await asyncio.create_subprocess_shell(
            self.command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, env=environment, start_new_session=True)
        self.groups.add(process.pid)  # (the leader of a new session: its group's id is its pid)
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    async def run(self) -> None:
        """Relay the app's output; when the app ends (quit, or crashed), its session ends too."""
        await super().run()
        await self.remote_close()

    async def stop(self) -> None:
        """Quit the app: the quit message, then SIGTERM, then SIGKILL to its group."""
        process, task = self._process, self._task
        self._task = None
        if process is None:
            return
        if task is not None:
            await self._download_manager.cancel_app_downloads(app_service_id=self.app_service_id)
            try:  # (an app that reads no more input would hold the message back)
                await asyncio.wait_for(self.send_meta({"type": "quit"}), QUIT_SECONDS)
            except TimeoutError:
                pass
        try:
            await asyncio.wait_for(process.wait(), QUIT_SECONDS)
        except TimeoutError:
            pass
        await end_group(process, TERM_SECONDS)
        self.groups.discard(process.pid)
        if task is not None:
            try:  # (the output's end is read now that every writer of it has gone)
                await asyncio.wait_for(task, TERM_SECONDS)
            except TimeoutError:
                pass


async def end_group(process: Process, seconds: float) -> None:
    """SIGTERM the process's group, and SIGKILL it after `seconds` if its leader still runs."""
    if not kill_group(process.pid, signal.SIGTERM):
        return
    try:
        await asyncio.wait_for(process.wait(), seconds)
    except TimeoutError:
        pass
    kill_group(process.pid, signal.SIGKILL)


def kill_group(group: int, signal_number: int) -> bool:
    """Signal a process group; False when none of it is left."""
    try:
        os.killpg(group, signal_number)
    except ProcessLookupError:
        return False
    return True
