"""``llm-operator exec`` and ``spec`` as a user runs them: a real subprocess each time."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from support.paths import SPEC_FILE


def llm_operator(
    *args: str | Path, stdin: str = "", cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "llm_operator.cli", *map(str, args)],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=cwd,
        check=False,
    )


@pytest.fixture
def exec_args(workspace: Path, state_dir: Path) -> list[str]:
    return ["exec", "--workspace", str(workspace), "--state-dir", str(state_dir)]


def assert_only_results(stdout: str, parse_results: Any) -> list[Any]:
    """stdout holds result blocks only, one blank line between them, a final newline."""
    assert stdout.endswith("END_OPERATOR_RESULT\n")
    assert "\n\n\n" not in stdout
    results = parse_results(stdout)
    assert stdout == "\n\n".join(stdout.rstrip("\n").split("\n\n")) + "\n"
    return results


def test_exec_reads_stdin_and_prints_only_results(
    exec_args: list[str], cmd: Any, reply: Any, parse_results: Any
) -> None:
    text = reply(
        cmd("r1", "fs.readSlice", path="README.md", lines="1"),
        cmd("r2", "fs.stat", path="src"),
    )
    done = llm_operator(*exec_args, stdin=text)
    assert done.returncode == 0, done.stderr
    results = assert_only_results(done.stdout, parse_results)
    assert [(r.id, r.ok) for r in results] == [("r1", True), ("r2", True)]
    assert "1: # Demo" in results[0].details


@pytest.mark.parametrize("dash", [False, True])
def test_exec_reads_a_file_or_dash(
    dash: bool, exec_args: list[str], cmd: Any, parse_results: Any, tmp_path: Path
) -> None:
    text = cmd("from-file", "fs.read", path="src/pkg/util.py")
    if dash:
        done = llm_operator(*exec_args, "-", stdin=text)
    else:
        reply_file = tmp_path / "reply.txt"
        reply_file.write_bytes(text.replace("\n", "\r\n").encode("utf-8"))
        done = llm_operator(*exec_args, reply_file, stdin="ignored")
    assert done.returncode == 0, done.stderr
    (result,) = assert_only_results(done.stdout, parse_results)
    assert result.details == "VALUE = 42\n"


def test_diagnostics_go_to_stderr(exec_args: list[str], cmd: Any, parse_results: Any) -> None:
    fake = "OPERATOR_RESULT\nid: old\nok: true\nsummary: Wrote x\nEND_OPERATOR_RESULT\n"
    done = llm_operator(*exec_args, stdin=fake + cmd("real", "fs.stat", path="."))
    assert done.returncode == 0
    assert [r.id for r in assert_only_results(done.stdout, parse_results)] == ["real"]
    assert "OPERATOR_RESULT" in done.stderr
    empty = llm_operator(*exec_args, stdin="no commands here\n")
    assert empty.returncode == 0
    assert empty.stdout == ""
    assert "no OPERATOR_CMD" in empty.stderr


def test_exec_says_when_results_are_pasted_instead_of_a_reply(
    exec_args: list[str], workspace: Path
) -> None:
    from support.paths import DATA

    pasted = (DATA / "scanner" / "real_pastes" / "results_pasted_back.txt").read_text("utf-8")
    done = llm_operator(*exec_args, stdin=pasted)
    assert done.returncode == 0
    assert done.stdout == ""
    assert "these are results, not commands: paste the LLM's reply" in done.stderr


@pytest.mark.parametrize(
    "name", ["saved_file_bom_crlf", "gemini_selection_doubled", "claude_selection_nbsp"]
)
def test_exec_runs_damaged_real_pastes_from_a_file(
    name: str, exec_args: list[str], workspace: Path, parse_results: Any
) -> None:
    from support.paths import DATA

    pasted = DATA / "scanner" / "real_pastes" / f"{name}.txt"
    done = llm_operator(*exec_args, "--yes", pasted)
    assert done.returncode == 0, (done.stdout, done.stderr)
    results = assert_only_results(done.stdout, parse_results)
    assert results
    assert all(result.ok for result in results)


def test_primer_prints_the_primer() -> None:
    from llm_operator.core.protocol.primer import primer_text

    done = llm_operator("primer")
    assert done.returncode == 0, done.stderr
    assert done.stdout == primer_text()
    assert "primer" in llm_operator("--help").stdout


def test_exit_1_when_a_command_fails(exec_args: list[str], cmd: Any, parse_results: Any) -> None:
    done = llm_operator(
        *exec_args,
        stdin=cmd("ok", "fs.stat", path=".") + "\n" + cmd("bad", "fs.read", path="missing"),
    )
    assert done.returncode == 1
    results = assert_only_results(done.stdout, parse_results)
    assert [r.ok for r in results] == [True, False]


@pytest.mark.parametrize(
    "args",
    [
        ["exec"],  # --workspace missing
        ["exec", "--workspace", "{ws}", "--yes", "--no"],
        ["exec", "--workspace", "{ws}", "--frobnicate"],
        ["bogus-command"],
        ["exec", "--workspace", "{ws}", "{missing_file}"],
        ["exec", "--workspace", "{missing_ws}"],
        ["exec", "--workspace", "{ws}/README.md"],
    ],
)
def test_exit_2_for_usage_and_workspace_errors(
    args: list[str], workspace: Path, tmp_path: Path, cmd: Any
) -> None:
    values = {
        "ws": str(workspace),
        "missing_file": str(tmp_path / "no-such-reply.txt"),
        "missing_ws": str(tmp_path / "no-such-workspace"),
    }
    filled = [arg.format(**values) for arg in args]
    write = cmd("x", "fs.write", path="x.txt", content="x")
    done = llm_operator(*filled, "--state-dir", tmp_path / "state", stdin=write)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stdout == ""
    assert done.stderr.strip()
    assert not (workspace / "x.txt").exists()


def test_yes_approves_writes(
    exec_args: list[str], cmd: Any, workspace: Path, parse_results: Any
) -> None:
    write = cmd("w", "fs.write", path="y.txt", content="yes")
    done = llm_operator(*exec_args, "--yes", stdin=write)
    assert done.returncode == 0, done.stderr
    (result,) = assert_only_results(done.stdout, parse_results)
    assert result.ok
    assert (workspace / "y.txt").read_text(encoding="utf-8") == "yes"


def test_no_rejects_writes(
    exec_args: list[str], cmd: Any, workspace: Path, parse_results: Any
) -> None:
    write = cmd("w", "fs.write", path="n.txt", content="no")
    done = llm_operator(*exec_args, "--no", stdin=write)
    assert done.returncode == 1
    (result,) = assert_only_results(done.stdout, parse_results)
    assert not result.ok
    assert "rejected by the user" in result.summary
    assert result.code == "ERR_REJECTED_BY_USER"
    assert not (workspace / "n.txt").exists()


def test_without_a_terminal_writes_are_rejected(
    exec_args: list[str], cmd: Any, workspace: Path, parse_results: Any
) -> None:
    text = cmd("w", "fs.write", path="t.txt", content="x") + "\n" + cmd("r", "fs.stat", path=".")
    done = llm_operator(*exec_args, stdin=text)
    assert done.returncode == 1
    write, read = assert_only_results(done.stdout, parse_results)
    assert "rejected by the user" in write.summary
    assert read.ok  # reads never need approval
    assert "approval" in done.stderr
    assert not (workspace / "t.txt").exists()


@pytest.mark.slow
def test_state_dir_remembers_ids_so_a_second_paste_writes_once(
    exec_args: list[str], cmd: Any, workspace: Path, state_dir: Path, parse_results: Any
) -> None:
    text = cmd("w-once", "fs.write", path="once.txt", content="first")
    first = llm_operator(*exec_args, "--yes", stdin=text)
    assert first.returncode == 0, first.stderr
    (workspace / "once.txt").write_text("changed by hand", encoding="utf-8")
    second = llm_operator(*exec_args, "--yes", stdin=text)
    assert second.returncode == 0, second.stderr
    (result,) = assert_only_results(second.stdout, parse_results)
    assert result.repeat
    assert (workspace / "once.txt").read_text(encoding="utf-8") == "changed by hand"
    assert any(state_dir.rglob("state.sqlite3"))
    # A different state dir has no memory of the id: the write runs again.
    other = llm_operator(
        "exec",
        "--workspace",
        workspace,
        "--state-dir",
        state_dir.parent / "other-state",
        "--yes",
        stdin=text,
    )
    assert not parse_results(other.stdout)[0].repeat
    assert (workspace / "once.txt").read_text(encoding="utf-8") == "first"


def test_spec_prints_the_interface_spec() -> None:
    done = llm_operator("spec")
    if not SPEC_FILE.is_file():
        pytest.skip("the interface spec is not in the repository yet")
    assert done.returncode == 0, done.stderr
    assert done.stdout == SPEC_FILE.read_text(encoding="utf-8")


def test_exec_of_an_empty_reply_imports_no_heavy_modules(workspace: Path, state_dir: Path) -> None:
    probe = textwrap.dedent(
        f"""
        import io, json, sys
        sys.stdin = io.TextIOWrapper(io.BytesIO(b""))
        from llm_operator import cli
        code = cli.main(["exec", "--workspace", {str(workspace)!r},
                         "--state-dir", {str(state_dir)!r}])
        heavy = sorted(
            name for name in sys.modules
            if name.split(".")[0] in ("PySide6", "shiboken6", "tree_sitter",
                                      "tree_sitter_language_pack", "pydantic", "pydantic_core")
        )
        print(json.dumps({{"code": code, "heavy": heavy}}))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report == {"code": 0, "heavy": []}


def _run_with_closed_stdout(*args: str | Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """Run the command line with stdout a pipe nobody reads (``| head`` that has exited)."""
    import os

    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run(
            [sys.executable, "-m", "llm_operator.cli", *map(str, args)],
            input=stdin,
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
            check=False,
        )
    finally:
        os.close(write_end)


@pytest.mark.slow
def test_a_closed_stdout_gives_a_message_not_a_traceback_and_loses_nothing(
    exec_args: list[str], cmd: Any, workspace: Path, state_dir: Path, parse_results: Any
) -> None:
    text = cmd("pipe-1", "fs.write", path="piped.txt", content="landed")
    done = _run_with_closed_stdout(*exec_args, "--yes", stdin=text)
    assert "Traceback" not in done.stderr, done.stderr
    assert "stdout was closed" in done.stderr
    assert done.returncode == 1
    assert (workspace / "piped.txt").read_text(encoding="utf-8") == "landed"
    # The write was recorded: pasting the reply again reports it, and does not run it twice.
    again = llm_operator(*exec_args, "--yes", stdin=text)
    (result,) = parse_results(again.stdout)
    assert result.ok
    assert result.repeat
    undone = _run_with_closed_stdout(
        "undo", "--yes", "--workspace", workspace, "--state-dir", state_dir
    )
    assert "Traceback" not in undone.stderr, undone.stderr
    assert not (workspace / "piped.txt").exists()
    for name in ("spec", "primer"):
        printed = _run_with_closed_stdout(name)
        assert "Traceback" not in printed.stderr, printed.stderr
        assert printed.returncode == 1
