"""`llm-operator exec` and run.command: --no never starts it, --yes runs it, a terminal asks."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from llm_operator import cli, cli_prompt
from support.fixtures import cmd, parse_results


class Terminal(io.StringIO):
    """The person at the terminal: answers read from ``answers``, the prompts kept."""

    def __init__(self, answers: str) -> None:
        super().__init__()
        self._answers = io.StringIO(answers)

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        return self._answers.readline()

    def close(self) -> None:  # keep the text readable after the CLI closes its terminal
        pass


MARKER = "sh -c 'echo started; touch marker.txt'"


def exec_reply(workspace: Path, state_dir: Path, reply: str, *answer: str) -> str:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "llm_operator.cli",
            "exec",
            "--workspace",
            str(workspace),
            "--state-dir",
            str(state_dir),
            *answer,
        ],
        input=reply,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return done.stdout


def test_no_never_starts_the_command(workspace: Path, state_dir: Path) -> None:
    out = exec_reply(workspace, state_dir, cmd("r1", "run.command", command=MARKER), "--no")
    [result] = parse_results(out)
    assert result.code == "ERR_REJECTED_BY_USER"
    assert not (workspace / "marker.txt").exists()


def test_yes_runs_it_and_reports_what_it_did(workspace: Path, state_dir: Path) -> None:
    out = exec_reply(workspace, state_dir, cmd("r1", "run.command", command=MARKER), "--yes")
    [result] = parse_results(out)
    assert result.ok, result.summary
    assert result.details is not None
    lines = result.details.splitlines()
    assert lines[:2] == ["# exit: 0", "# cwd: ."]
    assert lines[2].startswith("# time: ")
    assert lines[3] == "started"
    assert "# changed: marker.txt" in lines
    assert (workspace / "marker.txt").exists()


def test_a_terminal_is_asked_and_shows_what_will_run(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    workspace: Path,
    state_dir: Path,
    tmp_path: Path,
) -> None:
    reply_file = tmp_path / "reply.txt"
    reply_file.write_text(
        "\n".join(
            [
                cmd("r1", "run.command", command="touch yes.txt"),
                cmd("r2", "run.command", command="touch no.txt", cwd="."),
            ]
        )
    )
    terminal = Terminal("y\nn\n")
    monkeypatch.setattr(cli_prompt, "open_terminal", lambda reading_stdin: terminal)
    code = cli.main(
        ["exec", "--workspace", str(workspace), "--state-dir", str(state_dir), str(reply_file)]
    )
    out = capsys.readouterr().out
    assert code == cli.EXIT_FAILED
    shown = terminal.getvalue()
    assert "runs the command [touch yes.txt] without a shell in folder '.'" in shown
    assert "for at most 120 s" in shown
    assert "cannot be undone by Undo" in shown
    first, second = parse_results(out)
    assert first.ok
    assert second.code == "ERR_REJECTED_BY_USER"
    assert (workspace / "yes.txt").exists()
    assert not (workspace / "no.txt").exists()
