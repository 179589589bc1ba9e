"""Drive ``llm-operator mcp`` as a real process with the MCP SDK's own client."""

from __future__ import annotations

import contextlib
import os
import re
import sys
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client

SERVER = [sys.executable, "-m", "llm_operator.cli", "mcp"]
# Makes the pty named by argv[1] the controlling terminal, then runs the server.
ON_TTY = (
    "import os, sys\n"
    "try:\n"
    "    os.setsid()\n"
    "except OSError:\n"
    "    pass\n"
    "os.close(os.open(sys.argv[1], os.O_RDWR))\n"
    "os.execv(sys.executable, [sys.executable, '-m', 'llm_operator.cli', 'mcp', *sys.argv[2:]])\n"
)


def server_args(workspace: Path, state_dir: Path, *extra: str) -> list[str]:
    return ["--workspace", str(workspace), "--state-dir", str(state_dir), *extra]


@contextlib.asynccontextmanager
async def connected(
    workspace: Path,
    state_dir: Path,
    *extra: str,
    errlog: Path,
    tty: str | None = None,
    client_name: str | None = None,
) -> AsyncIterator[ClientSession]:
    """A ClientSession with a fresh server process (on the pty ``tty`` when given), named
    ``client_name`` when given (else the SDK's own name, ``mcp``)."""
    args = server_args(workspace, state_dir, *extra)
    if tty is None:
        params = StdioServerParameters(command=SERVER[0], args=[*SERVER[1:], *args])
    else:
        params = StdioServerParameters(command=sys.executable, args=["-c", ON_TTY, tty, *args])
    params.env = dict(os.environ)
    with errlog.open("a", encoding="utf-8") as log:
        async with (
            stdio_client(params, errlog=log) as (read, write),
            ClientSession(
                read,
                write,
                client_info=None
                if client_name is None
                else types.Implementation(name=client_name, version="1"),
            ) as session,
        ):
            await session.initialize()
            yield session


def text_of(result: types.CallToolResult) -> str:
    assert len(result.content) == 1
    block = result.content[0]
    assert isinstance(block, types.TextContent)
    return block.text


HEADER = re.compile(r"^id: (?P<id>.*)\nok: (?:true|false)\nsummary: (?P<summary>.*)$", re.M)
NOTICE = "Undo notice"


def _header(text: str) -> re.Match[str]:
    """The result's own id/ok/summary lines (undo notices it carries come first)."""
    for found in HEADER.finditer(text):
        before = text[: found.start()].rstrip("\n").rsplit("\n", 1)[-1]
        if not before.startswith(NOTICE):
            return found
    raise AssertionError(f"no result header in:\n{text}")


def summary_of(text: str) -> str:
    return _header(text).group("summary")


def id_of(text: str) -> str:
    return _header(text).group("id")


async def call(session: ClientSession, tool: str, **arguments: Any) -> tuple[bool, str]:
    """(is_error, text) of one call."""
    result = await session.call_tool(tool, arguments)
    return bool(result.isError), text_of(result)


def names(tools: Sequence[types.Tool]) -> set[str]:
    return {tool.name for tool in tools}
