"""A watcher of the commands that run: told when one starts and ends, given its output as
it comes, able to stop it; the live lines stay bounded whatever the command prints."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import pytest

from llm_operator.core.actions.run import command_outcome
from llm_operator.core.store.command_output import CUT_NOTE, MAX_LINE_CHARS
from llm_operator.core.store.command_watch import (
    Ended,
    LiveLines,
    Started,
    current_watch,
    watching,
)
from llm_operator.core.store.commands import run_command
from llm_operator.core.store.workspace import Workspace

PY = sys.executable


class Recorder:
    """Stops the command once it printed ``stop_at``."""

    def __init__(self, stop_at: bytes | None = None) -> None:
        self.stop_at = stop_at
        self.events: list[object] = []
        self.seen = b""
        self.lines = LiveLines()

    def started(self, started: Started) -> None:
        self.events.append(started)

    def output(self, chunk: bytes) -> None:
        self.seen += chunk
        self.lines.feed(chunk)

    def stop_asked(self) -> bool:
        return self.stop_at is not None and self.stop_at in self.seen

    def ended(self, ended: Ended) -> None:
        self.events.append(ended)


def test_a_watch_sees_start_output_and_end(tmp_path: Path) -> None:
    watch = Recorder()
    with watching(watch):
        done = run_command(Workspace(tmp_path), (PY, "-c", "print('one'); print('two')"))
    assert current_watch() is None  # only inside the block
    started, ended = watch.events
    assert isinstance(started, Started)
    assert started.argv[0] == PY
    assert started.cwd == "."
    assert isinstance(ended, Ended)
    assert ended.status == 0
    assert not ended.stopped
    assert watch.lines.take() == (["one", "two"], 0)
    assert done.output.lines == ("one", "two")  # the result is the command's own


def test_stop_ends_the_command_and_the_result_says_the_user_stopped_it(tmp_path: Path) -> None:
    watch = Recorder(stop_at=b"ready")
    script = "import time; print('ready', flush=True); time.sleep(300)"
    with watching(watch):
        done = run_command(Workspace(tmp_path), (PY, "-c", script), grace=0.5)
    assert done.cancelled
    assert not done.timed_out
    ended = watch.events[-1]
    assert isinstance(ended, Ended)
    assert ended.stopped
    outcome = command_outcome("run.command", "python -c ...", done)
    assert not outcome.ok
    assert outcome.summary.startswith("run.command failed (ERR_STOPPED_BY_USER): stopped by")
    assert outcome.summary.endswith("it and all it started were ended")
    assert outcome.details is not None
    assert "ready" in outcome.details


def test_a_watch_installed_on_one_thread_is_not_seen_on_another(tmp_path: Path) -> None:
    seen: list[object] = []
    with watching(Recorder()):
        thread = threading.Thread(target=lambda: seen.append(current_watch()))
        thread.start()
        thread.join()
    assert seen == [None]


def test_live_lines_are_cleaned_and_bounded() -> None:
    lines = LiveLines(limit=3)
    assert lines.feed(b"\x1b[31mred\x1b[0m\r\nbell \x07\npart")
    assert not lines.feed(b"ial\n")  # lines were waiting already: no second signal
    assert lines.take() == (["red", "bell \x07", "partial"], 0)
    lines.feed(b"".join(b"line %d\n" % n for n in range(10)))
    assert lines.take() == (["line 7", "line 8", "line 9"], 7)
    lines.feed(b"x" * (10 * MAX_LINE_CHARS))  # no newline: held, cut, never grows
    lines.feed(b"y" * (10 * MAX_LINE_CHARS))
    lines.flush()
    [long], dropped = lines.take()
    assert dropped == 0
    assert long == "x" * MAX_LINE_CHARS + CUT_NOTE


class Broken(Recorder):
    """A watcher that fails on the first output (a window torn down, say)."""

    def output(self, chunk: bytes) -> None:
        self.seen += chunk
        raise RuntimeError("the watcher is gone")


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for its reaper runs nothing)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def test_a_failing_watcher_leaves_no_process_behind(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    script = (
        "import os, subprocess, sys, time\n"
        "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(300)'])\n"
        f"open({str(pids)!r}, 'w').write(f'{{os.getpid()}} {{child.pid}}')\n"
        "print('ready', flush=True)\n"
        "time.sleep(300)\n"
    )
    watch = Broken()
    with watching(watch), pytest.raises(RuntimeError, match="the watcher is gone"):
        run_command(Workspace(tmp_path), (PY, "-c", script))
    child, grandchild = (int(word) for word in pids.read_text().split())
    assert not _alive(child)  # killed and reaped before run_command raised
    deadline = time.monotonic() + 10  # the grandchild's new parent reaps it
    while _alive(grandchild) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not _alive(grandchild)


class FailsAtStart(Recorder):
    def started(self, started: Started) -> None:
        raise RuntimeError("the watcher cannot show it")


def _running_with(token: str) -> list[int]:
    """The processes whose command line holds ``token`` (zombies left out)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if token.encode() in (entry / "cmdline").read_bytes() and _alive(int(entry.name)):
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def test_a_watcher_failing_at_the_start_leaves_no_process_behind(tmp_path: Path) -> None:
    token = f"watch-start-{time.monotonic_ns()}"
    script = f"import time; time.sleep(300)  # {token}"
    with watching(FailsAtStart()), pytest.raises(RuntimeError, match="cannot show it"):
        run_command(Workspace(tmp_path), (PY, "-c", script))
    deadline = time.monotonic() + 10
    while _running_with(token) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert _running_with(token) == []
