"""exec and undo keep the cyclic collector off while they load and run, and give the
caller's setting back: an in-process caller (the tests, an embedding program) is left as
it was, whatever the run's outcome."""

from __future__ import annotations

import gc
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from llm_operator.cli import main


@pytest.fixture
def collector() -> Iterator[None]:
    was = gc.isenabled()
    yield
    if was:
        gc.enable()
    else:
        gc.disable()


def _reply(tmp_path: Path) -> Path:
    reply = tmp_path / "reply.txt"
    reply.write_text(
        "OPERATOR_CMD\nversion: 1\nid: r1\naction: fs.read\npath: a.txt\nEND_OPERATOR_CMD\n"
    )
    return reply


@pytest.mark.parametrize("enabled", [True, False])
def test_exec_gives_the_collector_setting_back(
    tmp_path: Path, collector: None, capsys: pytest.CaptureFixture[str], enabled: bool
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "a.txt").write_text("hello\n")
    if enabled:
        gc.enable()
    else:
        gc.disable()
    argv = ["exec", "--workspace", str(workspace), "--state-dir", str(tmp_path / "s")]
    assert main([*argv, str(_reply(tmp_path))]) == 0
    assert gc.isenabled() is enabled
    # A workspace that does not exist ends the run early: the setting still comes back.
    assert main(["exec", "--workspace", str(tmp_path / "none"), "-"]) == 2
    assert gc.isenabled() is enabled
    assert "ok: true" in capsys.readouterr().out


def test_undo_gives_the_collector_setting_back(
    tmp_path: Path, collector: None, capsys: pytest.CaptureFixture[str]
) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    gc.enable()
    main(["undo", "--yes", "--workspace", str(workspace), "--state-dir", str(tmp_path / "s")])
    assert gc.isenabled()
    capsys.readouterr()


def test_the_program_leaves_without_a_collection_after_its_run(tmp_path: Path) -> None:
    """``run`` (the installed command) leaves as soon as the exec is over: the collector is
    not turned back on first, so no collection walks every object the run made just before
    the process ends. The output and the store are whole all the same (test_quick_exit)."""
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "a.txt").write_text("hello\n")
    seen = tmp_path / "seen.txt"
    program = (
        "import atexit, gc, sys\n"
        "from llm_operator import cli\n"
        "runs = []\n"
        "gc.collect()\n"  # a fresh count: nothing is due when the run starts
        "gc.callbacks.append(lambda phase, info: runs.append(info) if phase == 'start' else 0)\n"
        f"atexit.register(lambda: open({str(seen)!r}, 'w').write("
        "f'{len(runs)} {gc.isenabled()}'))\n"
        "sys.argv = ['llm-operator', *sys.argv[1:]]\n"
        "cli.run()\n"
    )
    argv = [sys.executable, "-c", program, "exec", "--workspace", str(workspace)]
    argv += ["--state-dir", str(tmp_path / "s"), str(_reply(tmp_path))]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert "ok: true" in done.stdout
    assert seen.read_text() == "0 False"
