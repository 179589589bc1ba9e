"""The terminal review of `exec`: a file changed on disk while its question is open is
shown again, merged, before anything lands; one that overlaps is refused naming the lines.
A real `exec` on a real pseudo-terminal, the file changed between question and answer."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from support.terminal import spawn

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX terminals")

LINES = "".join(f"line {n}\n" for n in range(1, 21))


def _exec_on_terminal(
    workspace: Path, state_dir: Path, tmp_path: Path, cmd: Any, outside: str, answers: list[bytes]
) -> str:
    edits = {"version": 1, "edits": [{"op": "replaceFirst", "find": "line 3\n", "text": "3!\n"}]}
    reply = tmp_path / "reply.txt"
    reply.write_text(cmd("e1", "fs.applyEdits", path="notes.txt", edits_json=json.dumps(edits)))
    argv = [sys.executable, "-m", "llm_operator.cli", "exec"]
    argv += ["--workspace", str(workspace), "--state-dir", str(state_dir), str(reply)]
    pid, screen = spawn(argv)
    try:
        screen.read_until(b"Approve fs.applyEdits e1?")
        (workspace / "notes.txt").write_text(outside)  # while the question is open
        for wanted, answer in zip(
            [b"Approve fs.applyEdits e1?", *answers[1::2]], answers[::2], strict=True
        ):
            screen.read_until(wanted)
            screen.type(answer)
        screen.drain()
    finally:
        os.waitpid(pid, 0)
        os.close(screen.fd)
    return screen.text


def test_a_change_apart_is_shown_merged_and_lands_when_approved_again(
    workspace: Path, state_dir: Path, tmp_path: Path, cmd: Any
) -> None:
    (workspace / "notes.txt").write_text(LINES)
    outside = LINES.replace("line 5\n", "line 5 (outside)\n")
    text = _exec_on_terminal(
        workspace,
        state_dir,
        tmp_path,
        cmd,
        outside,
        [b"y\n", b"Approve the merged change?", b"y\n"],
    )
    assert "!! notes.txt changed outside the app while this review was open (line 5 of " in text
    assert "-line 3\n+3!\n line 4\n line 5 (outside)\n" in text  # the merged diff, shown
    assert "id: e1\nok: true" in text
    assert (workspace / "notes.txt").read_text() == outside.replace("line 3\n", "3!\n")


def test_a_merged_change_rejected_at_the_second_question_writes_nothing(
    workspace: Path, state_dir: Path, tmp_path: Path, cmd: Any
) -> None:
    (workspace / "notes.txt").write_text(LINES)
    outside = LINES.replace("line 9\n", "line 9 (outside)\n")
    text = _exec_on_terminal(
        workspace, state_dir, tmp_path, cmd, outside, [b"y\n", b"Approve the merged change?", b"\n"]
    )
    assert "id: e1\nok: false\nsummary: fs.applyEdits failed (ERR_REJECTED_BY_USER)" in text
    assert (workspace / "notes.txt").read_text() == outside


def test_an_overlapping_change_is_refused_naming_the_lines(
    workspace: Path, state_dir: Path, tmp_path: Path, cmd: Any
) -> None:
    (workspace / "notes.txt").write_text(LINES)
    outside = LINES.replace("line 3\n", "line 3 (outside)\n")
    text = _exec_on_terminal(workspace, state_dir, tmp_path, cmd, outside, [b"y\n"])
    assert "line 3 of the file now overlaps this edit (line 3 of the file it was planned on)" in (
        text
    )
    assert "id: e1\nok: false\nsummary: fs.applyEdits failed (ERR_STALE_FILE)" in text
    assert (
        "Changed outside the app: line 3 of the file now; line 3 of the file now overlaps" in text
    )
    assert (workspace / "notes.txt").read_text() == outside
