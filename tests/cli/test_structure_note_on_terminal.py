"""A real `exec` on a pseudo-terminal shows what a structure move cannot keep before it
asks: Flask's views.py (tests/data/structure_real, source in its README), a method whose
docstring keeps its indentation while the method leaves its class. Rejected, the file
is untouched."""

from __future__ import annotations

import os
import pty
import select
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from support.paths import DATA

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX terminals")

SAMPLE = DATA / "structure_real" / "python" / "flask-flask-views.py"


def _read_until(fd: int, wanted: bytes, seen: bytearray, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while wanted not in seen:
        left = deadline - time.monotonic()
        assert left > 0, f"never saw {wanted!r} in:\n{bytes(seen)!r}"
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # EIO: the child closed the terminal
            chunk = b""
        assert chunk, f"the terminal closed before {wanted!r}:\n{bytes(seen)!r}"
        seen += chunk


def test_the_note_is_on_the_terminal_before_the_question(
    workspace: Path, state_dir: Path, tmp_path: Path, cmd: Any
) -> None:
    shutil.copyfile(SAMPLE, workspace / "views.py")
    reply = tmp_path / "reply.txt"
    reply.write_text(
        cmd(
            "m1",
            "fs.moveStructure",
            path="views.py",
            symbol="View/dispatch_request",
            position="end",
        ),
        encoding="utf-8",
    )
    argv = [sys.executable, "-m", "llm_operator.cli", "exec"]
    argv += ["--workspace", str(workspace), "--state-dir", str(state_dir), str(reply)]
    pid, fd = pty.fork()
    if pid == 0:  # the child: the pty is its controlling terminal and stdio
        try:
            os.execv(sys.executable, argv)
        finally:
            os._exit(127)
    seen = bytearray()
    try:
        _read_until(fd, b"Approve fs.moveStructure m1?", seen)
        shown = bytes(seen).replace(b"\r\n", b"\n").decode("utf-8")
        os.write(fd, b"n\n")
        _read_until(fd, b"END_OPERATOR_RESULT", seen)
    finally:
        os.waitpid(pid, 0)
        os.close(fd)
    note = shown.index(
        "note: 3 line(s) inside multi-line string literals keep their indentation (4 spaces "
        "base) while the code around them moves to 0 spaces"
    )
    assert shown.index("+def dispatch_request(self) -> ft.ResponseReturnValue:") < note
    assert (workspace / "views.py").read_bytes() == SAMPLE.read_bytes()
