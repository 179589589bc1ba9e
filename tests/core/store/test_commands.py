"""Running a command line: real processes, real files, the process group checked after."""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

import pytest

from llm_operator.core.errors import OperatorError
from llm_operator.core.store.command_output import (
    MAX_CHARS,
    MAX_LINES,
    OutputKeeper,
    clean_line,
)
from llm_operator.core.store.commands import (
    clean_environment,
    run_command,
    split_command,
)
from llm_operator.core.store.workspace import Workspace
from llm_operator.core.work_budget import reply_budget

PY = sys.executable


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for its reaper has ended: it runs nothing)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def _group_members(pgid: int) -> list[int]:
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
        except (FileNotFoundError, ProcessLookupError):
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            members.append(int(entry.name))
    return members


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    root = tmp_path / "ws"
    root.mkdir()
    return Workspace(root)


def test_split_without_a_shell_keeps_operators_as_arguments() -> None:
    assert split_command("echo 'a b' | x > y") == ("echo", "a b", "|", "x", ">", "y")
    assert split_command("echo $HOME", shell=True) == ("/bin/sh", "-c", "echo $HOME")


@pytest.mark.parametrize("line", ["", "   ", "echo 'open"])
def test_a_line_that_cannot_be_split_is_refused(line: str) -> None:
    with pytest.raises(OperatorError) as caught:
        split_command(line)
    assert caught.value.code == "ERR_INVALID_FIELD"


def test_no_shell_means_no_redirection(ws: Workspace) -> None:
    done = run_command(ws, split_command("echo hi > made.txt"))
    assert done.status == 0
    assert done.output.lines == ("hi > made.txt",)
    assert not (ws.root / "made.txt").exists()


def test_a_failing_pytest_test_exits_1_with_its_assertion(ws: Workspace) -> None:
    (ws.root / "test_it.py").write_text("def test_sum():\n    assert 1 + 1 == 3\n")
    done = run_command(ws, (PY, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_it.py"))
    assert done.status == 1
    assert any("assert 1 + 1 == 3" in line for line in done.output.lines)
    assert any("1 failed" in line for line in done.output.lines)


def test_a_passing_pytest_test_exits_0(ws: Workspace) -> None:
    (ws.root / "test_it.py").write_text("def test_sum():\n    assert 1 + 1 == 2\n")
    done = run_command(ws, (PY, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_it.py"))
    assert done.status == 0
    assert any("1 passed" in line for line in done.output.lines)


def test_a_command_not_found_is_refused_before_it_starts(ws: Workspace) -> None:
    with pytest.raises(OperatorError) as caught:
        run_command(ws, ("no-such-program-here",))
    assert caught.value.code == "ERR_COMMAND_NOT_FOUND"
    assert "no-such-program-here" in caught.value.message


def test_a_file_that_is_not_executable_is_refused(ws: Workspace) -> None:
    (ws.root / "script.sh").write_text("echo hi\n")
    with pytest.raises(OperatorError) as caught:
        run_command(ws, ("./script.sh",))
    assert caught.value.code == "ERR_COMMAND_NOT_FOUND"


def test_a_timeout_ends_the_command_and_the_grandchild_it_started(ws: Workspace) -> None:
    line = "sleep 300 & echo $! > grandchild.pid; echo $$ > child.pid; echo started; sleep 300"
    done = run_command(ws, split_command(line, shell=True), timeout=1, grace=1)
    assert done.timed_out
    assert done.status is None
    assert done.signal is not None
    assert done.output.lines == ("started",)
    grandchild = int((ws.root / "grandchild.pid").read_text())
    child = int((ws.root / "child.pid").read_text())
    assert not _alive(grandchild)
    assert _group_members(child) == []


def test_a_grandchild_left_running_after_a_normal_exit_is_ended(ws: Workspace) -> None:
    # The grandchild keeps the output pipe open: without ending the group, reading the
    # output would wait for it.
    line = "sleep 300 & echo $! > grandchild.pid; echo $$ > child.pid; echo done"
    done = run_command(ws, split_command(line, shell=True), timeout=600, grace=1)
    assert done.status == 0
    assert not done.timed_out
    assert not _alive(int((ws.root / "grandchild.pid").read_text()))
    assert _group_members(int((ws.root / "child.pid").read_text())) == []


def test_a_command_that_ignores_sigterm_is_killed(ws: Workspace) -> None:
    line = "trap '' TERM; echo $$ > child.pid; while :; do sleep 1; done"
    done = run_command(ws, split_command(line, shell=True), timeout=1, grace=0.5)
    assert done.timed_out
    assert done.signal == 9
    assert _group_members(int((ws.root / "child.pid").read_text())) == []


def test_cancel_ends_the_group(ws: Workspace) -> None:
    stop = threading.Event()

    def seen(data: bytes) -> None:
        if b"ready" in data:
            stop.set()

    line = "echo $$ > child.pid; echo ready; sleep 300"
    done = run_command(
        ws, split_command(line, shell=True), cancelled=stop.is_set, on_output=seen, grace=1
    )
    assert done.cancelled
    assert not done.timed_out
    assert _group_members(int((ws.root / "child.pid").read_text())) == []


def test_no_standard_input(ws: Workspace) -> None:
    done = run_command(ws, (PY, "-c", "import sys; print(repr(sys.stdin.read()))"))
    assert done.output.lines == ("''",)


def test_stdout_and_stderr_come_interleaved_in_order(ws: Workspace) -> None:
    code = (
        "import sys\n"
        "for i in range(3):\n"
        "    print('out', i, flush=True); print('err', i, file=sys.stderr, flush=True)\n"
    )
    done = run_command(ws, (PY, "-c", code))
    assert done.output.lines == ("out 0", "err 0", "out 1", "err 1", "out 2", "err 2")


@pytest.mark.slow  # one of the slowest: run by .ci/run
def test_huge_output_keeps_head_and_tail_with_bounded_memory(ws: Workspace) -> None:
    # 1 GB of numbered lines. The memory the reading takes is measured as the peak RSS of
    # this process before and after (ru_maxrss only grows).
    import resource

    script = (
        "import sys\n"
        "w = sys.stdout.buffer.write\n"
        "block = b''.join(b'line %08d of a long output\\n' % i for i in range(40000))\n"
        "for _ in range(1000): w(block)\n"
        "w(b'the very end\\n')\n"
    )
    peak_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    done = run_command(ws, (PY, "-c", script), timeout=1800)
    peak_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert done.status == 0
    assert done.output.total_bytes > 1_000_000_000
    assert done.output.total_lines == 40_000_001
    lines = done.output.lines
    assert lines[0] == "line 00000000 of a long output"
    assert lines[99] == "line 00000099 of a long output"
    assert lines[100] == f"# ... {done.output.left_out:,} lines left out ..."
    assert lines[-1] == "the very end"
    assert len(lines) <= MAX_LINES
    assert sum(len(line) + 1 for line in lines) <= MAX_CHARS
    assert done.output.left_out == done.output.total_lines - len(lines) + 1
    assert (peak_after - peak_before) * 1024 < 50_000_000  # ru_maxrss is in KiB on Linux


def test_one_endless_line_is_cut(ws: Workspace) -> None:
    done = run_command(ws, split_command("head -c 5000000 /dev/zero | tr '\\0' x", shell=True))
    assert len(done.output.lines) == 1
    assert done.output.lines[0].endswith("[line cut at 2,000 characters]")
    assert done.output.lines[0].startswith("x" * 2000)


def test_ansi_colours_are_removed_and_other_controls_kept(ws: Workspace) -> None:
    line = r"printf '\033[1;31mFAILED\033[0m test\n\033]0;title\007ok\rhidden\n'"
    done = run_command(ws, split_command(line, shell=True))
    assert done.output.lines == ("FAILED test", "ok\rhidden")


def test_files_the_command_writes_are_listed(ws: Workspace) -> None:
    (ws.root / "old.txt").write_text("old\n")
    (ws.root / "keep.txt").write_text("same\n")
    (ws.root / "gone.txt").write_text("gone\n")
    (ws.root / "sub").mkdir()
    line = "echo new > sub/new.txt; echo more >> old.txt; rm gone.txt"
    done = run_command(ws, split_command(line, shell=True))
    assert done.changed == ("gone.txt", "old.txt", "sub/new.txt")
    assert not done.changes_capped


def test_ignored_and_git_files_are_not_compared(ws: Workspace) -> None:
    (ws.root / ".gitignore").write_text("build/\n")
    line = "mkdir -p build .git; echo x > build/out.o; echo y > .git/x; echo z > kept.txt"
    done = run_command(ws, split_command(line, shell=True))
    assert done.changed == ("kept.txt",)


def test_cwd_is_jailed_like_a_path(ws: Workspace, tmp_path: Path) -> None:
    (tmp_path / "outside").mkdir()
    os.symlink(tmp_path / "outside", ws.root / "link")
    for cwd in ("..", "/tmp", "link", "../outside"):
        with pytest.raises(OperatorError) as caught:
            run_command(ws, ("touch", "marker"), cwd=cwd)
        assert caught.value.code == "ERR_PATH_OUTSIDE_WORKSPACE", cwd
    assert not (tmp_path / "outside" / "marker").exists()
    assert not (tmp_path / "marker").exists()


def test_cwd_must_be_a_folder(ws: Workspace) -> None:
    (ws.root / "file.txt").write_text("x\n")
    with pytest.raises(OperatorError) as caught:
        run_command(ws, ("pwd",), cwd="file.txt")
    assert caught.value.code == "ERR_NOT_A_DIRECTORY"


def test_the_command_runs_in_its_folder(ws: Workspace) -> None:
    (ws.root / "sub").mkdir()
    done = run_command(ws, ("pwd",), cwd="sub/")
    assert done.cwd == "sub"
    assert done.output.lines == (str(ws.root / "sub"),)


def test_secret_environment_variables_are_not_visible(ws: Workspace) -> None:
    environ = {
        "PATH": os.environ["PATH"],
        "GITHUB_TOKEN": "t0ken",
        "MY_SECRET_THING": "s3cret",
        "DB_PASSWORD": "pw",
        "OPENAI_API_KEY": "k3y",
        "AWS_REGION": "eu",
        "aws_profile": "p",
        "KEEP_ME": "visible",
        "CI_TOKEN": "kept on purpose",
    }
    done = run_command(ws, ("env",), environ=environ, keep_environment=("CI_TOKEN",))
    output = "\n".join(done.output.lines)
    for secret in ("t0ken", "s3cret", "pw", "k3y", "eu", "=p"):
        assert secret not in output
    assert "KEEP_ME=visible" in output
    assert "CI_TOKEN=kept on purpose" in output


def test_clean_environment_keeps_plain_names() -> None:
    kept = clean_environment({"HOME": "h", "KEYBOARD": "k", "X_KEY": "s", "TOKENS": "t"})
    assert kept == {"HOME": "h", "KEYBOARD": "k", "TOKENS": "t"}


def test_cpu_time_is_counted_against_the_reply_budget(ws: Workspace) -> None:
    with reply_budget() as budget:
        done = run_command(ws, (PY, "-c", "sum(range(3_000_000))"))
    assert done.cpu_seconds > 0
    assert budget.child_seconds == done.cpu_seconds


def test_the_keeper_cuts_the_tail_at_a_line_start() -> None:
    keeper = OutputKeeper()
    for i in range(200_000):
        keeper.feed(b"%d\n" % i)
    kept = keeper.finish()
    assert kept.lines[-1] == "199999"
    # Every tail line is whole: consecutive numbers.
    tail = [int(line) for line in kept.lines[101:]]
    assert tail == list(range(tail[0], 200_000))
    assert kept.left_out == 200_000 - 100 - len(tail)


def test_clean_line_keeps_bytes_that_are_not_utf8() -> None:
    assert clean_line(b"a\xffb\r") == "a\udcffb"


def test_a_huge_program_name_is_cut_in_the_message(ws: Workspace) -> None:
    with pytest.raises(OperatorError) as caught:
        run_command(ws, ("x" * 40_000,))
    assert caught.value.code == "ERR_COMMAND_NOT_FOUND"
    assert len(caught.value.message) < 400
    assert "(40,000 characters)" in caught.value.message
