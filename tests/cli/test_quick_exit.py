"""An exec or undo leaves without tearing the interpreter down, and loses nothing by it:
all of its output reaches the reader, its state store is closed (its write-ahead log
checkpointed and removed, as at any close), and its exit code is the one it chose."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from support.actions import b64


def _exec(
    workspace: Path, state: Path, text: str, *more: str
) -> subprocess.CompletedProcess[bytes]:
    argv = [sys.executable, "-m", "llm_operator.cli", "exec", "--workspace", str(workspace)]
    argv += ["--state-dir", str(state), *more, "-"]
    return subprocess.run(argv, input=text.encode(), capture_output=True, timeout=60, check=False)


def test_every_byte_of_a_long_output_arrives_and_the_store_is_closed(
    workspace: Path, tmp_path: Path, cmd: Any, parse_results: Any
) -> None:
    body = "".join(f"line {n:06} " + "x" * 80 + "\n" for n in range(2_000))  # 184 KB: read 8 times
    (workspace / "big.txt").write_text(body, encoding="utf-8")
    state = tmp_path / "state"
    text = "\n".join(
        [
            *(cmd(f"r{n}", "fs.read", path="big.txt") for n in range(1, 9)),
            cmd("w1", "fs.write", path="new.txt", content_b64=b64("made\n")),
            cmd("m1", "fs.read", path="missing.txt"),
        ]
    )
    done = _exec(workspace, state, text, "--yes")
    assert done.returncode == 1, done.stderr  # m1 failed: the code says so
    assert b"Traceback" not in done.stderr
    *reads, wrote, missing = parse_results(done.stdout.decode("utf-8"))
    assert all(read.ok for read in reads)
    assert len(reads) == 8
    assert wrote.ok
    assert not missing.ok
    assert done.stdout.decode("utf-8").count("\n| line ") == 8 * 2_000
    assert done.stdout.endswith(b"END_OPERATOR_RESULT\n")
    assert (workspace / "new.txt").read_text(encoding="utf-8") == "made\n"
    logs = [p.name for p in state.rglob("*") if p.name.endswith(("-wal", "-shm"))]
    assert logs == [], logs  # closed as at any close: nothing left to replay
    again = _exec(workspace, state, text, "--yes")
    assert parse_results(again.stdout.decode("utf-8"))[8].repeat  # the store kept the run


def test_a_reader_that_goes_away_gets_no_traceback(
    workspace: Path, tmp_path: Path, cmd: Any
) -> None:
    (workspace / "big.txt").write_text("y" * 100 + "\n" * 150_000, encoding="utf-8")
    argv = [sys.executable, "-m", "llm_operator.cli", "exec", "--workspace", str(workspace)]
    argv += ["--state-dir", str(tmp_path / "state"), "-"]
    reply = cmd("r1", "fs.read", path="big.txt")
    read_end, write_end = os.pipe()
    child = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=write_end, stderr=subprocess.PIPE)
    os.close(write_end)
    os.close(read_end)  # nobody reads the output
    _, err = child.communicate(reply.encode(), timeout=60)
    assert b"Traceback" not in err, err
    assert child.returncode == 1


def test_a_run_under_a_profiler_exits_the_usual_way_so_the_profile_is_written(
    workspace: Path, tmp_path: Path, cmd: Any
) -> None:
    (workspace / "a.txt").write_text("alpha\n", encoding="utf-8")
    (tmp_path / "reply.txt").write_text(cmd("r1", "fs.read", path="a.txt"), encoding="utf-8")
    profile = tmp_path / "exec.prof"
    argv = [sys.executable, "-m", "cProfile", "-o", str(profile), "-m", "llm_operator.cli"]
    argv += ["exec", "--workspace", str(workspace), "--state-dir", str(tmp_path / "state")]
    done = subprocess.run(
        [*argv, str(tmp_path / "reply.txt")], capture_output=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert b"| alpha" in done.stdout
    assert profile.stat().st_size > 0
