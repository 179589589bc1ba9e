"""`llm-operator exec` without --yes/--no asks on the terminal, one command at a time."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest

from llm_operator import cli, cli_prompt


class FakeTerminal(io.StringIO):
    """Answers read from ``answers``; everything written is kept for the test to read."""

    def __init__(self, answers: str) -> None:
        super().__init__()
        self._answers = io.StringIO(answers)

        self.closed_by_cli = False

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        return self._answers.readline()

    def close(self) -> None:  # keep the text readable after the CLI closes its terminal
        self.closed_by_cli = True


def run_exec(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    workspace: Path,
    state_dir: Path,
    reply_file: Path,
    answers: str,
) -> tuple[int, str, FakeTerminal]:
    terminal = FakeTerminal(answers)
    monkeypatch.setattr(cli_prompt, "open_terminal", lambda reading_stdin: terminal)
    code = cli.main(
        ["exec", "--workspace", str(workspace), "--state-dir", str(state_dir), str(reply_file)]
    )
    return code, capsys.readouterr().out, terminal


def test_each_write_is_asked_with_its_diff_and_the_answers_decide(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    workspace: Path,
    state_dir: Path,
    tmp_path: Path,
    cmd: Callable[..., str],
) -> None:
    reply_file = tmp_path / "reply.txt"
    reply_file.write_text(
        "\n".join(
            [
                cmd("w1", "fs.write", path="yes.txt", content="approved"),
                cmd("w2", "fs.write", path="no.txt", content="rejected"),
                cmd("w3", "fs.write", path="why.txt", content="rejected with a reason"),
            ]
        ),
        encoding="utf-8",
    )
    code, out, terminal = run_exec(
        monkeypatch, capsys, workspace, state_dir, reply_file, "y\n\nnot this file, thanks\n"
    )
    assert code == 1
    assert (workspace / "yes.txt").read_text() == "approved"
    assert not (workspace / "no.txt").exists()
    assert not (workspace / "why.txt").exists()
    asked = terminal.getvalue()
    assert terminal.closed_by_cli
    assert asked.count("Approve fs.write") == 3
    assert "+++ b/yes.txt" in asked
    assert "+approved" in asked
    assert "-- Will create yes.txt (+1)" in asked  # present tense: nothing happened yet
    assert "Wrote" not in asked
    assert "ERR_REJECTED_BY_USER): rejected by the user: not this file, thanks" in out
    assert "id: w1\nok: true" in out


def test_without_a_terminal_every_write_is_rejected(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    workspace: Path,
    state_dir: Path,
    tmp_path: Path,
    cmd: Callable[..., str],
) -> None:
    reply_file = tmp_path / "reply.txt"
    reply_file.write_text(cmd("w1", "fs.write", path="x.txt", content="x"), encoding="utf-8")
    monkeypatch.setattr(cli_prompt, "open_terminal", lambda reading_stdin: None)
    code = cli.main(
        ["exec", "--workspace", str(workspace), "--state-dir", str(state_dir), str(reply_file)]
    )
    captured = capsys.readouterr()
    assert code == 1
    assert not (workspace / "x.txt").exists()
    assert "ERR_REJECTED_BY_USER" in captured.out
    assert "no terminal can ask" in captured.err
