"""An undo stopped part way can be run again to the end: the folder it already gave back
is what the batch deleted, not a later edit to refuse for; a folder someone else made
there since, with other content, still is."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

STRACE = shutil.which("strace")
REPLY = (
    "OPERATOR_CMD\nversion: 1\nid: w1\naction: fs.write\npath: a.txt\ncontent: A1\n"
    "END_OPERATOR_CMD\nOPERATOR_CMD\nversion: 1\nid: w2\naction: fs.delete\npath: d\n"
    "END_OPERATOR_CMD\n"
)


def _run(tmp_path: Path, *args: str, prefix: tuple[str, ...] = ()) -> str:
    argv = [*prefix, sys.executable, "-m", "llm_operator.cli", *args]
    argv += ["--workspace", str(tmp_path / "ws"), "--state-dir", str(tmp_path / "st")]
    done = subprocess.run(
        argv, input=REPLY, capture_output=True, text=True, timeout=120, check=False
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done.stdout


def _batch(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    (ws / "d" / "e").mkdir(parents=True)
    (ws / "a.txt").write_text("A0")
    (ws / "d" / "x.txt").write_text("X0")
    (ws / "d" / "e" / "y.txt").write_text("Y0")
    assert "ok: true" in _run(tmp_path, "exec", "--yes", "-")
    assert not (ws / "d").exists()
    assert (ws / "a.txt").read_text() == "A1"
    return ws


@pytest.mark.skipif(STRACE is None, reason="strace is not installed")
def test_an_undo_stopped_after_it_gave_a_folder_back_finishes_when_run_again(
    tmp_path: Path,
) -> None:
    ws = _batch(tmp_path)
    assert STRACE is not None
    # The folder's files are synced first; a later fsync (a.txt's) fails.
    inject = (STRACE, "-f", "-qq", "-o", "/dev/null", "-e", "trace=fsync")
    inject += (
        "-e",
        "inject=fsync:error=EIO:when=4",
    )
    first = _run(tmp_path, "undo", "--yes", prefix=inject)
    assert "did not finish" in first, first
    assert (ws / "d" / "e" / "y.txt").read_text() == "Y0"  # given back before it stopped
    assert (ws / "a.txt").read_text() == "A1"
    second = _run(tmp_path, "undo", "--yes")
    assert second.startswith("Undid 'w1, w2'"), second
    assert (ws / "a.txt").read_text() == "A0"
    assert (ws / "d" / "x.txt").read_text() == "X0"


@pytest.mark.parametrize("made", ["another file", "another byte", "a missing file"])
def test_a_folder_made_again_with_other_content_still_stops_the_undo(
    tmp_path: Path, made: str
) -> None:
    ws = _batch(tmp_path)
    (ws / "d" / "e").mkdir(parents=True)
    (ws / "d" / "x.txt").write_text("X0")
    if made != "a missing file":
        (ws / "d" / "e" / "y.txt").write_text("Y0" if made == "another file" else "Y1")
    if made == "another file":
        (ws / "d" / "e" / "z.txt").write_text("new")
    out = _run(tmp_path, "undo", "--yes")
    assert "refused: 1 path changed after the batch wrote them (d)" in out, out
    assert (ws / "a.txt").read_text() == "A1"  # nothing was undone
