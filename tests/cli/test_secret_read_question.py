"""Asked to approve a read of a secret-looking file, the person sees what would leave (its
size and first lines, escaped) on the terminal and in the MCP terminal review; the answer
to the model never depends on those bytes before approval."""

from __future__ import annotations

import asyncio
import os
import pty
import select
import sys
from pathlib import Path
from typing import Any

import pytest

from support.actions import cli
from support.hostile_lines import raw_characters
from support.mcp_client import call, connected
from support.terminal import spawn

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX terminals")

SECRET = "API_KEY=sk-live-7f3a\nOSC=\x1b]52;c;aGk=\x07 \u202eevil\u200b\nDEBUG=1\n"
SHOWN = "  | OSC=<U+001B>]52;c;aGk=<U+0007> <U+202E>evil<U+200B>"


def test_exec_on_a_terminal_shows_what_would_leave_and_rejects_without_it(
    workspace: Path, state_dir: Path, tmp_path: Path, cmd: Any
) -> None:
    (workspace / ".env").write_text(SECRET, encoding="utf-8")
    reply = tmp_path / "reply.txt"
    reply.write_text(cmd("s1", "fs.read", path=".env"), encoding="utf-8")
    argv = [sys.executable, "-m", "llm_operator.cli", "exec"]
    argv += ["--workspace", str(workspace), "--state-dir", str(state_dir), str(reply)]
    pid, screen = spawn(argv)
    try:
        asked = screen.read_until("Approve fs.read s1?")
        at = len(screen.raw)
        screen.type(b"n\n")
        screen.read_until("END_OPERATOR_RESULT", since=at)
        screen.drain()
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(screen.fd)
    assert os.waitstatus_to_exitcode(status) == 1
    size = len(SECRET.encode("utf-8"))
    assert f"Approving sends all of it to the chat. .env holds {size} bytes:" in asked
    assert "  | API_KEY=sk-live-7f3a" in asked.replace("\r\n", "\n")
    assert SHOWN in asked
    assert b"\x1b]52" not in screen.raw
    assert b"\x07" not in screen.raw
    assert raw_characters(screen.raw.decode("utf-8").replace("\r\n", "\n")) == []
    answer = screen.raw[at:].decode("utf-8")
    assert "ERR_REJECTED_BY_USER" in answer
    assert "sk-live" not in answer


def test_the_answer_before_approval_is_the_same_whatever_the_file_holds(
    workspace: Path, tmp_path: Path, cmd: Any
) -> None:
    answers = []
    for number, text in enumerate([SECRET, "X=" + "y" * 5000 + "\n"]):
        (workspace / ".env").write_text(text, encoding="utf-8")
        where = ["--workspace", workspace, "--state-dir", tmp_path / f"state-{number}"]
        done = cli("exec", *where, "--no", stdin=cmd("s1", "fs.read", path=".env"))
        assert done.returncode == 1
        answers.append(done.stdout)
    assert answers[0] == answers[1]
    assert "sk-live" not in answers[0]


class Terminal:
    """The person's side of a pseudo-terminal made the MCP server's controlling terminal."""

    def __init__(self) -> None:
        self.master, self.slave = pty.openpty()
        self.name = os.ttyname(self.slave)
        self.seen = bytearray()

    def _wait_for(self, wanted: str) -> None:
        while wanted.encode() not in self.seen:
            ready, _, _ = select.select([self.master], [], [], 60)
            assert ready, f"never saw {wanted!r} in:\n{bytes(self.seen)!r}"
            self.seen += os.read(self.master, 4096)

    async def wait_for(self, wanted: str) -> None:
        await asyncio.to_thread(self._wait_for, wanted)

    def answer(self, line: str) -> None:
        os.write(self.master, line.encode() + b"\n")

    def close(self) -> None:
        os.close(self.master)
        os.close(self.slave)


def test_the_mcp_terminal_review_shows_what_would_leave(
    workspace: Path, state_dir: Path, tmp_path: Path
) -> None:
    (workspace / ".env").write_text(SECRET, encoding="utf-8")
    terminal = Terminal()
    try:

        async def scenario() -> tuple[bool, str]:
            async with connected(
                workspace, state_dir, "--approve", "ask", errlog=tmp_path / "e", tty=terminal.name
            ) as s:
                asked = asyncio.ensure_future(call(s, "fs_read", path=".env"))
                await terminal.wait_for("Approve fs.read mcp-1?")
                terminal.answer("n")
                return await asked

        is_error, text = asyncio.run(scenario())
        seen = terminal.seen.decode("utf-8").replace("\r\n", "\n")
    finally:
        terminal.close()
    assert is_error
    assert "ERR_REJECTED_BY_USER" in text
    assert "sk-live" not in text
    assert "Approving sends all of it to the chat. .env holds" in seen
    assert SHOWN in seen
    assert "\x1b]52" not in seen
