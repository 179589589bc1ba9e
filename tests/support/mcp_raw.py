"""Drive ``llm-operator mcp`` with raw bytes on the wire (stdio lines, HTTP bodies), for
input no well-behaved client would send.

Over stdio each malformed line is followed by a ``ping`` with a known id: the server reads
its input in order, so an answer the transport owes the malformed line arrives before the
ping's, and a missing answer shows as soon as the ping's comes back (no clock involved).
"""

from __future__ import annotations

import json
import queue
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import httpx

SERVER = [sys.executable, "-m", "llm_operator.cli", "mcp"]
WAIT = 120.0  # seconds an answer may take before a test gives up on it (a failure, not a race)
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": "init",
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "raw", "version": "1"},
    },
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def line(message: Any) -> bytes:
    return json.dumps(message).encode() + b"\n"


def tool_call(request_id: int | str, tool: str, arguments: Any) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": tool, "arguments": arguments},
    }


class RawStdio:
    """One server process: bytes written to its stdin, JSON answers read from its stdout."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process
        self._answers: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self._held: list[dict[str, Any]] = []
        self._pings = 0
        assert process.stdout is not None
        threading.Thread(target=self._read, args=(process.stdout,), daemon=True).start()

    def _read(self, stream: IO[bytes]) -> None:
        for raw in stream:
            self._answers.put(json.loads(raw))
        self._answers.put(None)

    def send(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def _next(self) -> dict[str, Any]:
        got = self._answers.get(timeout=WAIT)
        assert got is not None, "the server closed its output"
        return got

    def answer(self, request_id: int | str) -> dict[str, Any]:
        """The answer to ``request_id`` (answers to other ids are kept for later)."""
        for held in self._held:
            if held.get("id") == request_id:
                self._held.remove(held)
                return held
        while True:
            got = self._next()
            if got.get("id") == request_id and "method" not in got:
                return got
            self._held.append(got)

    def before_ping(self, data: bytes) -> list[dict[str, Any]]:
        """Send ``data``, then a ping: every answer that came before the ping's (the ping
        is answered, so the server still reads its input)."""
        self._pings += 1
        ping = f"ping-{self._pings}"
        self.send(data)
        self.send(line({"jsonrpc": "2.0", "id": ping, "method": "ping"}))
        before: list[dict[str, Any]] = []
        while True:
            got = self._next()
            if got.get("id") == ping:
                assert got.get("result") == {}, got
                return before
            if "method" not in got:  # a notification the server sends is not an answer
                before.append(got)


@contextmanager
def raw_stdio(workspace: Path, state_dir: Path, errlog: Path, *extra: str) -> Iterator[RawStdio]:
    argv = [*SERVER, "--workspace", str(workspace), "--state-dir", str(state_dir), *extra]
    with errlog.open("ab") as log:
        process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log)
    client = RawStdio(process)
    try:
        client.send(line(INITIALIZE))
        assert "result" in client.answer("init")
        client.send(line(INITIALIZED))
        yield client
    finally:
        assert process.stdin is not None
        process.stdin.close()
        try:
            process.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        assert process.stdout is not None
        process.stdout.close()


LISTENING = re.compile(r"at (http://127\.0\.0\.1:(\d+)/mcp)")
TOKEN = re.compile(r"bearer token \(shown once[^)]*\): (\S+)")
ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


@contextmanager
def http_server(workspace: Path, state_dir: Path, *extra: str) -> Iterator[tuple[str, str]]:
    """A ``--http 0`` server: its URL and its bearer token."""
    argv = [*SERVER, "--http", "0", "--workspace", str(workspace), "--state-dir", str(state_dir)]
    process = subprocess.Popen([*argv, *extra], stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    lines: list[str] = []
    url = token = None
    deadline = time.monotonic() + WAIT
    while token is None:
        assert time.monotonic() < deadline, lines
        got = process.stderr.readline()
        assert got, f"the server stopped: {lines}"
        lines.append(got)
        if found := LISTENING.search(got):
            url = found.group(1)
        if found := TOKEN.search(got):
            token = found.group(1)
    assert url is not None
    try:
        yield url, token
    finally:
        process.terminate()
        process.wait(timeout=WAIT)
        process.stderr.close()


class RawHttp:
    """One MCP session over streamable HTTP, with bodies sent as raw bytes."""

    def __init__(self, web: httpx.Client, url: str, token: str) -> None:
        self.web = web
        self.url = url
        self.headers = {**ACCEPT, "Authorization": f"Bearer {token}"}
        first = self.web.post(url, content=line(INITIALIZE), headers=self.headers)
        assert first.status_code == 200, first.text
        self.headers["mcp-session-id"] = first.headers["mcp-session-id"]
        self.headers["mcp-protocol-version"] = "2025-06-18"
        done = self.web.post(url, content=line(INITIALIZED), headers=self.headers)
        assert done.status_code == 202, done.text

    def post(self, body: bytes) -> tuple[int, list[dict[str, Any]]]:
        """The status and the JSON-RPC messages of the answer (a JSON body or SSE events)."""
        got = self.web.post(self.url, content=body, headers=self.headers)
        kind = got.headers.get("content-type", "")
        if kind.startswith("text/event-stream"):
            data = [row[5:].strip() for row in got.text.splitlines() if row.startswith("data:")]
            messages = [json.loads(item) for item in data if item]
        elif kind.startswith("application/json") and got.content:
            messages = [json.loads(got.content)]
        else:
            messages = []
        return got.status_code, [m for m in messages if "method" not in m]


@contextmanager
def raw_http(workspace: Path, state_dir: Path, *extra: str) -> Iterator[RawHttp]:
    with (
        http_server(workspace, state_dir, *extra) as (url, token),
        httpx.Client(timeout=WAIT) as web,
    ):
        yield RawHttp(web, url, token)
