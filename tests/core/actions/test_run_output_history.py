"""The run history keeps what a command printed: a run.command is held for its review,
not for a secret, so its result is recorded whole (a secret read's is not)."""

from __future__ import annotations

import sys
from pathlib import Path

from llm_operator.core.plan.session import Session
from llm_operator.core.store.workspace import Workspace
from support.fixtures import cmd, reply, run_session

PRINT = f"{sys.executable} -c 'print(\"from the command\")'"


def test_the_history_keeps_a_commands_output(workspace: Path, state_dir: Path) -> None:
    session = Session(Workspace(workspace), state_dir)
    [result] = run_session(session, reply(cmd("r1", "run.command", command=PRINT)), True)
    assert result.ok, result.summary
    later = Session(Workspace(workspace), state_dir)
    kept = later.run_results(later.stored_runs()[-1].number)
    assert kept is not None
    assert "# exit: 0" in kept  # the details, not only the summary
    assert "from the command" in kept
    assert "details not kept" not in kept


def test_an_approved_secret_read_stays_out_of_the_history(workspace: Path, state_dir: Path) -> None:
    (workspace / ".env").write_text("API_TOKEN=s3cret\n")
    session = Session(Workspace(workspace), state_dir)
    text = reply(cmd("r1", "fs.readSlice", path=".env", start="1", lines="5"))
    [result] = run_session(session, text, True)
    assert result.ok, result.summary
    later = Session(Workspace(workspace), state_dir)
    kept = later.run_results(later.stored_runs()[-1].number)
    assert kept is not None
    assert "s3cret" not in kept
    assert "details not kept" in kept
