"""`llm-operator mcp --http`: streamable HTTP on 127.0.0.1 only, every request carrying the
bearer token printed once at start, and no other web page's Origin."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from llm_operator.core.actions import action_names
from support.mcp_client import call, id_of

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc/net/tcp")

LISTENING = re.compile(r"at (http://127\.0\.0\.1:(\d+)/mcp)")
TOKEN = re.compile(r"bearer token \(shown once[^)]*\): (\S+)")
INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "probe", "version": "1"},
    },
}
ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


@pytest.fixture
def served(workspace: Path, state_dir: Path) -> Iterator[tuple[str, str, int, list[str]]]:
    argv = [sys.executable, "-m", "llm_operator.cli", "mcp", "--http", "0", "--approve", "yes"]
    argv += ["--workspace", str(workspace), "--state-dir", str(state_dir)]
    process = subprocess.Popen(argv, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    lines: list[str] = []
    url = token = None
    deadline = time.monotonic() + 60
    while token is None:
        assert time.monotonic() < deadline, lines
        line = process.stderr.readline()
        assert line, f"the server stopped: {lines}"
        lines.append(line)
        if found := LISTENING.search(line):
            url, port = found.group(1), int(found.group(2))
        if found := TOKEN.search(line):
            token = found.group(1)
    assert url is not None
    try:
        yield url, token, port, lines
    finally:
        process.terminate()
        process.wait(timeout=30)
        process.stderr.close()


def _listeners(port: int) -> list[str]:
    """The local addresses listening on ``port`` (hex, as /proc/net shows them)."""
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            fields = row.split()
            address, hex_port = fields[1].split(":")
            if int(hex_port, 16) == port and fields[3] == "0A":  # LISTEN
                found.append(address)
    return found


def test_http_serves_with_the_token_on_localhost_only(
    served: tuple[str, str, int, list[str]], workspace: Path
) -> None:
    url, token, port, lines = served
    assert _listeners(port) == ["0100007F"]  # 127.0.0.1, nothing on other addresses
    assert sum(token in line for line in lines) == 1  # printed once

    async def scenario() -> tuple[int, list[tuple[bool, str]]]:
        client = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
        async with (
            client,
            streamable_http_client(url, http_client=client) as (
                read,
                write,
                _,
            ),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            tools = (await session.list_tools()).tools
            return len(tools), [
                await call(session, "fs_read", path="README.md"),
                await call(session, "fs_write", path="over-http.txt", content="a\nb\n"),
                await call(session, "fs_read", path="../outside"),
            ]

    count, (first, written, outside) = asyncio.run(scenario())
    assert count == len(action_names())
    assert not first[0]
    assert id_of(first[1]) == "mcp-1"
    assert "# Demo" in first[1]
    assert not written[0], written[1]
    assert (workspace / "over-http.txt").read_text(encoding="utf-8") == "a\nb\n"
    assert outside[0]
    assert "(ERR_PATH_OUTSIDE_WORKSPACE)" in outside[1]


def test_http_refuses_a_missing_or_wrong_token_and_a_foreign_origin(
    served: tuple[str, str, int, list[str]], workspace: Path
) -> None:
    url, token, port, _ = served
    good = {**ACCEPT, "Authorization": f"Bearer {token}"}
    with httpx.Client(timeout=30) as web:
        missing = web.post(url, json=INIT, headers=ACCEPT)
        wrong = web.post(url, json=INIT, headers={**ACCEPT, "Authorization": "Bearer nope"})
        raw = web.post(url, json=INIT, headers={**ACCEPT, "Authorization": token})
        foreign = web.post(url, json=INIT, headers={**good, "Origin": "http://evil.example"})
        rebound = web.post(url, json=INIT, headers={**good, "Host": f"evil.example:{port}"})
        own = web.post(url, json=INIT, headers={**good, "Origin": f"http://127.0.0.1:{port}"})
    assert missing.status_code == 401
    assert "bearer token" in missing.text
    assert wrong.status_code == 401
    assert raw.status_code == 401
    assert foreign.status_code == 403
    assert rebound.status_code in (403, 421)
    assert own.status_code == 200, own.text
    assert token not in missing.text + wrong.text + foreign.text
