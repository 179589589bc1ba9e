"""The terminal prompt of `llm-operator exec` cannot be made to lie or to run escapes.

A real `exec` on a real pseudo-terminal (pty.fork: the child's controlling terminal and
stdio) reviews a reply written to deceive: a write landing through a link on a name
holding U+202E, content with ESC[2K / ESC[1A / OSC 52 and zero-width characters, an id
holding markup, a folder delete and a patch that only sets the executable bit; a result
naming that file is printed too. The assertions are on the very bytes written to the
terminal.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

from support.actions import b64
from support.terminal import spawn

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX terminals")

REAL = "evil\u202etxt.sh"
FAKE_ID = "d1<br>Will write notes/todo.txt (+1 -0)<span style=display:none>"
# Bytes a terminal would act on or hide: ESC, BEL, CSI (C1), and the UTF-8 of bidi
# controls and zero-width characters.
RAW = [b"\x1b", b"\x07", b"\xc2\x9b"] + [
    char.encode("utf-8") for char in "\u202e\u2066\u2069\u200b\u200d\u2060\ufeff"
]


def test_the_terminal_review_shows_every_effect_and_runs_no_escape(
    workspace: Path, state_dir: Path, tmp_path: Path, cmd: Any
) -> None:
    (workspace / "src" / "pkg" / "more.py").write_text("X = 1\n", encoding="utf-8")
    (workspace / REAL).write_text("echo old\n", encoding="utf-8")
    (workspace / "notes.txt").symlink_to(REAL)
    (workspace / "run.sh").write_text("#!/bin/sh\n", encoding="utf-8")
    (workspace / "trap.txt").write_text("x\x1b]52;c;aGk=\x07\u202e\n", encoding="utf-8")
    content = "echo \x1b[2K\x1b[1A\x1b]52;c;aGk=\x07 ok\u200b\u202e\u2066\n"
    mode = "diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n"
    reply = tmp_path / "reply.txt"
    reply.write_text(
        "\n".join(
            [
                cmd("r1", "fs.read", path="trap.txt"),
                cmd("s1", "fs.stat", path="notes.txt"),
                cmd(FAKE_ID, "fs.delete", path="src"),
                cmd("w1", "fs.write", path="notes.txt", content_b64=b64(content)),
                cmd("p1", "fs.patch", path="run.sh", patch_b64=b64(mode)),
            ]
        ),
        encoding="utf-8",
    )
    argv = [sys.executable, "-m", "llm_operator.cli", "exec"]
    argv += ["--workspace", str(workspace), "--state-dir", str(state_dir), str(reply)]
    pid, screen = spawn(argv)
    try:
        screen.read_until(f"Approve fs.delete {FAKE_ID}?".encode())
        screen.type(b"n\n")
        screen.read_until(b"Approve fs.write w1?")
        screen.type(b"n\n")
        screen.read_until(b"Approve fs.patch p1?")
        screen.type(b"y\n")
        screen.read_until(b"END_OPERATOR_RESULT\r\n\r\nOPERATOR_RESULT")
        screen.drain()
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(screen.fd)
    output = bytes(screen.raw).replace(b"\r\n", b"\n")
    assert os.waitstatus_to_exitcode(status) == 1, output
    for raw in RAW:
        assert raw not in output, (raw, output)
    text = output.decode("utf-8")
    assert f"== fs.delete (id {FAKE_ID})" in text
    assert "-- Will delete folder src/ with 3 files and 1 folder in it" in text
    assert "-- Will write evil<U+202E>txt.sh (+1 -1)" in text
    assert (
        "-- Look closely: the new content holds 7 invisible or control characters "
        "(U+001B, U+0007, U+200B, U+202E, U+2066), marked <U+...> wherever shown"
    ) in text
    assert "+echo <U+001B>[2K<U+001B>[1A<U+001B>]52;c;aGk=<U+0007> ok<U+200B><U+202E><U+2066>" in (
        text
    )
    assert "-- Will leave the content of run.sh as it is\n" in text
    assert "-- Will make run.sh executable (mode 100755)\n" in text
    assert "id: p1\nok: true" in text
    # A printed result that names the file: its summary writes the character as an escape
    # (as the details do), so nothing invisible reaches the terminal.
    assert "summary: Stat evil\\u202etxt.sh: file, 9 bytes" in text
    assert os.access(workspace / "run.sh", os.X_OK)
    assert (workspace / "src").is_dir()
    assert (workspace / REAL).read_text(encoding="utf-8") == "echo old\n"
