"""`llm-operator exec` on a real terminal asks per command, and `undo` tells the chat.

The terminal is a real pseudo-terminal (pty.fork): the child's controlling terminal,
stdin, stdout and stderr, exactly as when a person runs it in a terminal window.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

from support.actions import b64, cli
from support.terminal import reap, spawn

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX terminals")


def test_exec_asks_each_write_on_a_real_terminal(
    workspace: Path, state_dir: Path, tmp_path: Path, cmd: Any
) -> None:
    reply = tmp_path / "reply.txt"
    reply.write_text(
        "\n".join(
            [
                cmd("w1", "fs.write", path="yes.txt", content="approved"),
                cmd("w2", "fs.write", path="no.txt", content="rejected"),
                cmd("w3", "fs.write", path="why.txt", content="rejected with a reason"),
            ]
        ),
        encoding="utf-8",
    )
    argv = [sys.executable, "-m", "llm_operator.cli", "exec"]
    argv += ["--workspace", str(workspace), "--state-dir", str(state_dir), str(reply)]
    pid, screen = spawn(argv)
    try:
        screen.read_until("Approve fs.write w1?")
        screen.type(b"y\n")
        screen.read_until("Approve fs.write w2?")
        screen.type(b"\n")
        screen.read_until("Approve fs.write w3?")
        screen.type(b"not this file, thanks\n")
        screen.read_until("END_OPERATOR_RESULT")
        screen.drain()
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(screen.fd)
    output = screen.text
    assert os.waitstatus_to_exitcode(status) == 1
    assert "+++ b/yes.txt" in output
    assert "not seekable" not in output
    assert "Traceback" not in output
    assert (workspace / "yes.txt").read_text() == "approved"
    assert not (workspace / "no.txt").exists()
    assert not (workspace / "why.txt").exists()
    assert "id: w1\nok: true" in output
    assert "ERR_REJECTED_BY_USER): rejected by the user: not this file, thanks" in output


def test_undo_prints_the_notice_and_the_next_exec_begins_with_it(
    workspace: Path, state_dir: Path, cmd: Any, parse_results: Any
) -> None:
    where = ["--workspace", str(workspace), "--state-dir", str(state_dir)]
    text = cmd("w1", "fs.write", path="made.txt", content="x")
    assert cli("exec", *where, "--yes", stdin=text).returncode == 0

    undo = cli("undo", "--yes", *where, stdin="")

    assert undo.returncode == 0, undo.stderr
    assert "removed 1" in undo.stdout
    block = undo.stdout.split("For the chat:\n\n", 1)[1]
    (notice,) = parse_results(block)
    assert notice.id == "undo-1"
    assert notice.json()["undone"] == [{"id": "w1", "action": "fs.write", "path": "made.txt"}]
    assert not (workspace / "made.txt").exists()

    again = cli("exec", *where, "--no", stdin=text)
    results = parse_results(again.stdout)
    assert [r.id for r in results] == ["undo-1", "w1"]
    assert results[0].summary == notice.summary
    assert results[1].code == "ERR_REJECTED_BY_USER"  # asked again, not a repeat
    assert not (workspace / "made.txt").exists()


def test_an_edit_of_a_secret_asks_to_read_it_then_shows_the_change(
    workspace: Path, state_dir: Path, tmp_path: Path, cmd: Any
) -> None:
    (workspace / ".env").write_text("API_KEY=sk-tty-4d1f\nDEBUG=1\n", encoding="utf-8")
    (workspace / "keys.env").write_text("TOKEN=tty-77e0\n", encoding="utf-8")
    reply = tmp_path / "reply.txt"
    reply.write_text(
        "\n".join(
            [
                cmd(
                    "e1", "fs.write", path=".env", content_b64=b64("API_KEY=sk-tty-4d1f\nDEBUG=0\n")
                ),
                cmd("e2", "fs.write", path="keys.env", content_b64=b64("TOKEN=changed\n")),
            ]
        ),
        encoding="utf-8",
    )
    argv = [sys.executable, "-m", "llm_operator.cli", "exec"]
    argv += ["--workspace", str(workspace), "--state-dir", str(state_dir), str(reply)]
    pid, screen = spawn(argv)
    try:
        # First the app asks whether it may read each file, showing no byte of it.
        screen.read_until("Approve fs.write e1?")
        first = screen.text
        assert "asks before it reads a secret-looking file: .env looks like a secret" in first
        assert "DEBUG" not in first
        screen.type(b"y\n")
        screen.read_until("Approve fs.write e2?")
        screen.type(b"y\n")
        # Then each change, with its diff, for its own answer.
        later = screen.read_until("Approve fs.write e1?", since=len(screen.raw))
        assert "-DEBUG=1" in later
        assert "+DEBUG=0" in later
        screen.type(b"y\n")
        later = screen.read_until("Approve fs.write e2?", since=len(screen.raw))
        assert "+TOKEN=changed" in later
        screen.type(b"no\n")
        screen.read_until("END_OPERATOR_RESULT")
        screen.drain()
    finally:
        status = reap(pid)
        os.close(screen.fd)
    output = screen.text
    assert "Traceback" not in output
    assert os.waitstatus_to_exitcode(status) == 1
    assert (workspace / ".env").read_text(encoding="utf-8") == "API_KEY=sk-tty-4d1f\nDEBUG=0\n"
    assert (workspace / "keys.env").read_text(encoding="utf-8") == "TOKEN=tty-77e0\n"
    assert "id: e1\nok: true" in output
    assert "id: e2\nok: false\nsummary: fs.write failed (ERR_REJECTED_BY_USER)" in output
