"""A command an MCP server runs, watched from the window that reviewed it.

An MCP server started with ``--approve window`` runs the commands the window approved
(run.command) and the checks (run.check) itself. While one runs, it connects to the
window's review socket (``review_link``, same user checked both ways) and streams it:

    server -> window  {"watch": {"client": ..., "argv": [...], "cwd": ".", "timeout": 120}}
                      then {"output": "<base64 bytes>"} lines as output comes,
                      then {"ended": {"status", "signal", "timed_out", "stopped", "seconds"}}
    window -> server  {"stop": true} when the person pressed Stop (or closed the window)

Invariants:
- Watching never slows or blocks the command: output goes through a bounded queue to a
  sender thread, and what does not fit is left out of the window's view (the result
  keeps its own copy). No window listening: the command runs unwatched, as before.
- Only a ``{"stop": true}`` line stops the command (the window sends it for its Stop
  button and when it closes); a window that goes away without one (it was killed) stops
  nothing.
- The window takes at most ``MAX_WATCH_LINE`` bytes per line and reads nothing else
  from the stream than these three kinds of lines; a malformed line ends the watch.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import json
import queue
import select
import socket
import threading
from collections.abc import Mapping
from pathlib import Path

from ..store.command_watch import CommandWatch, Ended, Started
from .review_link import LinkError, _connect, _send, socket_path

QUEUED_CHUNKS = 64  # 64 KiB each at most: about 4 MiB waiting for a slow window
MAX_WATCH_LINE = 256 * 1024
POLL_SECONDS = 0.1


class RemoteWatch:
    """The server's side: a ``CommandWatch`` that streams to the window, if one listens."""

    def __init__(self, state_folder: Path, client: str) -> None:
        self._folder = state_folder
        self._client = client
        self._conn: socket.socket | None = None
        self._queue: queue.Queue[Mapping[str, object] | None] = queue.Queue(QUEUED_CHUNKS)
        self._sender: threading.Thread | None = None
        self._stop = False
        self._pending = b""

    def started(self, started: Started) -> None:
        self._stop = False
        self._pending = b""
        try:
            conn = _connect(socket_path(self._folder), 2.0)
        except (OSError, LinkError):
            return  # no window: the command runs unwatched
        self._conn = conn
        self._queue = queue.Queue(QUEUED_CHUNKS)
        self._queue.put(
            {
                "watch": {
                    "client": self._client,
                    "argv": list(started.argv),
                    "cwd": started.cwd,
                    "timeout": started.timeout,
                }
            }
        )
        self._sender = threading.Thread(target=self._send_all, args=(conn,), daemon=True)
        self._sender.start()

    def output(self, chunk: bytes) -> None:
        if self._conn is None:
            return
        with contextlib.suppress(queue.Full):  # a slow window misses lines, never the command
            self._queue.put_nowait({"output": base64.b64encode(chunk).decode("ascii")})

    def stop_asked(self) -> bool:
        conn = self._conn
        if conn is None or self._stop:
            return self._stop
        try:
            readable, _, _ = select.select([conn], [], [], 0)
            if readable:
                data = conn.recv(4096)
                if not data:  # the window went away: it stops nothing
                    self._conn = None
                    return False
                self._pending = (self._pending + data)[-4096:]
                self._stop = b'{"stop": true}' in self._pending
        except (OSError, ValueError):
            self._conn = None
        return self._stop

    def ended(self, ended: Ended) -> None:
        conn = self._conn
        if conn is None and self._sender is None:
            return
        message = {
            "ended": {
                "status": ended.status,
                "signal": ended.signal,
                "timed_out": ended.timed_out,
                "stopped": ended.stopped,
                "seconds": ended.seconds,
            }
        }
        with contextlib.suppress(queue.Full):
            self._queue.put(message, timeout=1.0)
        with contextlib.suppress(queue.Full):
            self._queue.put(None, timeout=1.0)
        if self._sender is not None:
            self._sender.join(timeout=2.0)
        self._sender = None
        self._conn = None

    def _send_all(self, conn: socket.socket) -> None:
        try:
            while True:
                message = self._queue.get()
                if message is None:
                    break
                _send(conn, message)
        except OSError:
            pass
        finally:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
            conn.close()


def follow_watch(conn: socket.socket, first: Mapping[str, object], watch: CommandWatch) -> None:
    """The window's side, on the listener's thread: pass the stream on to ``watch`` (the
    window's console) and send ``{"stop": true}`` once its ``stop_asked`` says so."""
    raw = first.get("watch")
    if not isinstance(raw, dict):
        return
    argv, cwd, timeout = raw.get("argv"), raw.get("cwd"), raw.get("timeout")
    if (
        not isinstance(argv, list)
        or not argv
        or not all(isinstance(arg, str) for arg in argv)
        or not isinstance(cwd, str)
        or not isinstance(timeout, (int, float))
    ):
        return
    watch.started(Started(tuple(argv), cwd, float(timeout)))
    ended: Ended | None = None
    told = False
    buffer = b""
    conn.settimeout(POLL_SECONDS)
    try:
        while ended is None:
            if not told and watch.stop_asked():
                _send(conn, {"stop": True})
                told = True
            try:
                data = conn.recv(65536)
            except TimeoutError:
                continue
            if not data:
                break
            buffer += data
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                ended = _take(line, watch)
                if ended is not None:
                    break
            if len(buffer) > MAX_WATCH_LINE:
                break
    except (OSError, LinkError):
        pass
    watch.ended(ended or Ended(None, None, False, told, 0.0))


def _take(line: bytes, watch: CommandWatch) -> Ended | None:
    """Pass one line on; the ending when it is the last. LinkError: not a watch line."""
    try:
        message = json.loads(line)
    except ValueError:
        raise LinkError("not JSON") from None
    if not isinstance(message, dict):
        raise LinkError("not an object")
    if "output" in message and isinstance(message["output"], str):
        try:
            watch.output(base64.b64decode(message["output"], validate=True))
        except binascii.Error:
            raise LinkError("output is not base64") from None
        return None
    found = message.get("ended")
    if not isinstance(found, dict):
        raise LinkError("not a watch line")
    status, signal = found.get("status"), found.get("signal")
    seconds = found.get("seconds")
    return Ended(
        status if isinstance(status, int) else None,
        signal if isinstance(signal, int) else None,
        found.get("timed_out") is True,
        found.get("stopped") is True,
        float(seconds) if isinstance(seconds, (int, float)) else 0.0,
    )
