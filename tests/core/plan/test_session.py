"""Session: repeats and duplicate ids, approval, deferred reads, memory across runs."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import pytest

from llm_operator.core.plan.run import APPROVE
from llm_operator.core.plan.session import Session
from llm_operator.core.store.database import FILE_NAME
from llm_operator.core.store.state import workspace_state_dir
from llm_operator.core.store.workspace import Workspace
from support.actions import edits_b64


def write_cmd(cmd: Any, cmd_id: str, path: str, content: str) -> str:
    return cmd(cmd_id, "fs.write", path=path, content=content)


# -- repeats within one message ----------------------------------------------------------


def test_identical_command_twice_in_one_message_runs_once(
    make_session: Any, cmd: Any, parse_results: Any, workspace: Path
) -> None:
    block = write_cmd(cmd, "w1", "out.txt", "hello")
    session = make_session()
    run = session.prepare(block + "\n" + block)
    assert len(run.pending) == 1  # one confirmation, one write
    results = session.execute(run, {p.index: APPROVE for p in run.pending})
    first, second = results
    assert (first.id, second.id) == ("w1", "w1")
    assert first.ok
    assert not first.repeat
    assert second.ok
    assert second.repeat
    assert second.outcome.summary.startswith(first.outcome.summary)
    assert "repeat" in second.outcome.summary
    assert (workspace / "out.txt").read_text(encoding="utf-8") == "hello"


def test_identical_read_twice_is_shown_twice_marked_as_repeat(run_reply: Any, cmd: Any) -> None:
    block = cmd("r1", "fs.read", path="README.md")
    first, second = run_reply(block + "\n" + block)
    assert first.details == second.details
    assert not first.repeat
    assert second.repeat


def test_same_id_different_content_in_one_message(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    first, second = run_reply(
        write_cmd(cmd, "w1", "a.txt", "one") + "\n" + write_cmd(cmd, "w1", "b.txt", "two")
    )
    assert first.ok
    assert not second.ok
    assert second.id == "w1"
    assert second.code == "ERR_DUPLICATE_ID"
    assert second.summary.startswith("Invalid OPERATOR_CMD (ERR_DUPLICATE_ID): ")
    assert second.json() == {"message": second.summary, "related_id": "w1"}
    assert not (workspace / "b.txt").exists()


def test_an_invalid_command_does_not_claim_its_id(run_reply: Any, cmd: Any) -> None:
    bad = cmd("w1", "fs.write", path="a.txt", contnet="x")
    good = write_cmd(cmd, "w1", "a.txt", "fixed")
    first, second = run_reply(bad + "\n" + good)
    assert first.code == "ERR_UNKNOWN_KEY"
    assert second.ok
    assert not second.repeat


# -- repeats across messages (two exec runs share the state dir) --------------------------


def test_pasting_the_same_reply_twice_writes_once(
    run_reply: Any, cmd: Any, workspace: Path, state_dir: Path
) -> None:
    text = (
        write_cmd(cmd, "w-once", "once.txt", "first")
        + "\n"
        + cmd("r-once", "fs.read", path="once.txt")
    )
    first = run_reply(text)
    assert [r.ok for r in first] == [True, True]
    assert first[1].details == "first"
    # Someone edits the file between the two pastes: a re-run would overwrite it.
    (workspace / "once.txt").write_text("edited by hand", encoding="utf-8")
    second = run_reply(text)
    assert [r.id for r in second] == ["w-once", "r-once"]
    assert all(r.ok and r.repeat for r in second)
    assert second[0].summary.startswith(first[0].summary)
    assert second[1].details == "edited by hand"  # a read runs again: the file as it is
    assert (workspace / "once.txt").read_text(encoding="utf-8") == "edited by hand"
    memory = workspace_state_dir(state_dir, Workspace(workspace).root) / FILE_NAME
    assert memory.is_file()
    assert not any(path.name == FILE_NAME for path in workspace.rglob("*"))


def test_same_id_different_content_in_a_later_message(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    (first,) = run_reply(write_cmd(cmd, "w-x", "x.txt", "one"))
    assert first.ok
    (second,) = run_reply(write_cmd(cmd, "w-x", "x.txt", "two"))
    assert second.code == "ERR_DUPLICATE_ID"
    assert "earlier message" in second.summary
    assert (workspace / "x.txt").read_text(encoding="utf-8") == "one"


def test_a_failed_id_may_be_reused(run_reply: Any, cmd: Any, workspace: Path) -> None:
    (failed,) = run_reply(cmd("r-later", "fs.read", path="later.txt"))
    assert failed.code == "ERR_FILE_NOT_FOUND"
    (workspace / "later.txt").write_text("now here", encoding="utf-8")
    (again,) = run_reply(cmd("r-later", "fs.read", path="later.txt"))
    assert again.ok
    assert not again.repeat
    assert again.details == "now here"
    (other,) = run_reply(cmd("r-fail2", "fs.read", path="missing.txt"))
    assert not other.ok
    (changed,) = run_reply(cmd("r-fail2", "fs.read", path="README.md"))
    assert changed.ok  # a failed id may be reused for a different command too


def test_a_rejected_id_may_be_reused(run_reply: Any, cmd: Any, workspace: Path) -> None:
    block = write_cmd(cmd, "w-rej", "rej.txt", "content")
    (rejected,) = run_reply(block, False)
    assert rejected.summary.startswith(
        "fs.write failed (ERR_REJECTED_BY_USER): rejected by the user"
    )
    assert not (workspace / "rej.txt").exists()
    (approved,) = run_reply(block, True)
    assert approved.ok
    assert not approved.repeat
    assert (workspace / "rej.txt").read_text(encoding="utf-8") == "content"


def test_an_invalid_id_may_be_reused(run_reply: Any, cmd: Any) -> None:
    (invalid,) = run_reply(cmd("r-inv", "fs.readSlice", path="README.md", lines="0"))
    assert invalid.code == "ERR_INVALID_READSLICE_PARAMS"
    (valid,) = run_reply(cmd("r-inv", "fs.readSlice", path="README.md", lines="2"))
    assert valid.ok


def test_memory_is_per_workspace(
    tmp_path: Path, state_dir: Path, cmd: Any, workspace: Path
) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "README.md").write_text("other\n", encoding="utf-8")
    block = cmd("same-id", "fs.read", path="README.md")
    from_ws = Session(Workspace(workspace), state_dir)
    from_other = Session(Workspace(other), state_dir)
    (a,) = from_ws.execute(from_ws.prepare(block), {})
    (b,) = from_other.execute(from_other.prepare(block), {})
    assert a.outcome.details == "# Demo\n\nA demo project.\n"
    assert not b.repeat
    assert b.outcome.details == "other\n"


def test_damaged_store_runs_reads_and_refuses_writes(
    run_reply: Any, cmd: Any, workspace: Path, state_dir: Path
) -> None:
    (first,) = run_reply(cmd("dm", "fs.read", path="README.md"))
    assert first.ok
    store = workspace_state_dir(state_dir, Workspace(workspace).root) / FILE_NAME
    gc.collect()  # the first run's connection, closing, would write its WAL back
    for leftover in store.parent.glob(FILE_NAME + "-*"):
        leftover.unlink()  # the WAL would otherwise still hold the tables
    store.write_bytes(b"this is not a database" * 100)
    read, write = run_reply(
        cmd("dm", "fs.read", path="README.md") + "\n" + write_cmd(cmd, "dw", "new.txt", "x")
    )
    assert read.ok
    assert not read.repeat  # the memory cannot be read, and says nothing false
    assert not write.ok
    assert write.code == "ERR_STATE_STORE_DAMAGED"
    assert not (workspace / "new.txt").exists()
    assert store.read_bytes() == b"this is not a database" * 100  # kept for the user


# -- planning and approval ------------------------------------------------------------


def test_nothing_is_written_before_execute(make_session: Any, cmd: Any, workspace: Path) -> None:
    session = make_session()
    run = session.prepare(write_cmd(cmd, "w-plan", "planned.txt", "x"))
    assert [p.id for p in run.pending] == ["w-plan"]
    assert not (workspace / "planned.txt").exists()
    session.execute(run, {run.pending[0].index: APPROVE})
    assert (workspace / "planned.txt").exists()
    with pytest.raises(RuntimeError):
        session.execute(run, {})


def test_undecided_writes_are_rejected(run_reply: Any, cmd: Any, workspace: Path) -> None:
    (result,) = run_reply(write_cmd(cmd, "w-undecided", "u.txt", "x"), None)
    assert result.code == "ERR_REJECTED_BY_USER"
    assert "rejected by the user" in result.summary
    assert not (workspace / "u.txt").exists()


def test_decisions_per_command(run_reply: Any, cmd: Any, workspace: Path) -> None:
    results = run_reply(
        write_cmd(cmd, "yes-1", "y.txt", "y") + "\n" + write_cmd(cmd, "no-1", "n.txt", "n"),
        {"yes-1": True, "no-1": False},
    )
    assert [(r.id, r.ok) for r in results] == [("yes-1", True), ("no-1", False)]
    assert (workspace / "y.txt").exists()
    assert not (workspace / "n.txt").exists()


def test_a_read_after_a_write_of_the_same_file_sees_the_write(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    results = run_reply(
        cmd("before", "fs.read", path="README.md")
        + "\n"
        + write_cmd(cmd, "w-readme", "README.md", "replaced")
        + "\n"
        + cmd("after", "fs.readSlice", path="README.md")
    )
    assert [r.id for r in results] == ["before", "w-readme", "after"]
    assert results[0].details == "# Demo\n\nA demo project.\n"
    assert "1: replaced" in results[2].details


def test_results_keep_message_order_with_mixed_kinds(
    run_reply: Any, cmd: Any, raw_block: Any
) -> None:
    text = "\n".join(
        [
            cmd("a", "fs.stat", path="README.md"),
            write_cmd(cmd, "b", "b.txt", "b"),
            raw_block("version: 1", "action: fs.list", "path: ."),
            cmd("d", "fs.nope", path="."),
            cmd("e", "operator.getCommentStyle", language="python"),
            "END_OPERATOR_CMD",
        ]
    )
    results = run_reply(text)
    assert [r.id for r in results] == ["a", "b", "error-3", "d", "e", "error-6"]
    assert [r.ok for r in results] == [True, True, False, False, True, False]


def test_llm_written_results_give_a_notice(make_session: Any, cmd: Any) -> None:
    text = "OPERATOR_RESULT\nid: fake\nok: true\nsummary: Wrote x\nEND_OPERATOR_RESULT\n"
    run = make_session().prepare(text + cmd("real", "fs.stat", path="."))
    assert [item.id for item in run.items] == ["real"]
    assert len(run.notices) == 1
    assert "not run" in run.notices[0]


def test_a_failure_planned_on_an_earlier_write_of_the_reply_says_so(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    """The file on disk still holds the text the edit looks for; a bare "not found"
    would be untrue once the earlier write is rejected."""
    import base64
    import json

    edits = {"version": 1, "edits": [{"op": "replaceFirst", "find": "VALUE = 42", "text": "X"}]}
    edit = cmd(
        "e-after",
        "fs.applyEdits",
        path="src/pkg/util.py",
        edits_b64=base64.b64encode(json.dumps(edits).encode()).decode(),
    )
    write = write_cmd(cmd, "w-first", "src/pkg/util.py", "replaced")
    rejected, failed = run_reply(write + "\n" + edit, False)
    assert rejected.code == "ERR_REJECTED_BY_USER"
    assert failed.code == "ERR_ANCHOR_NOT_FOUND"
    assert failed.summary.endswith(
        "[checked against src/pkg/util.py as the earlier write(s) w-first of this reply "
        "would leave it, not as it is on disk now]"
    )
    assert (workspace / "src" / "pkg" / "util.py").read_text(encoding="utf-8") == "VALUE = 42\n"
    # Alone, the same failure carries no such note.
    (alone,) = run_reply(cmd("r-alone", "fs.search", path="src/pkg/nothing.py", query="x"))
    assert "checked against" not in alone.summary


def test_a_fault_of_the_command_itself_gets_no_planned_content_note(
    run_reply: Any, cmd: Any
) -> None:
    import base64

    bad = base64.b64encode(b'{"version":1,"edits":[{"op":"replaceAll","find":"","text":"y"}]}')
    edit = cmd("e-bad", "fs.applyEdits", path="src/pkg/util.py", edits_b64=bad.decode())
    write = write_cmd(cmd, "w-before", "src/pkg/util.py", "replaced")
    _, failed = run_reply(write + "\n" + edit, False)
    assert failed.code == "ERR_INVALID_EDITS_JSON"
    assert "checked against" not in failed.summary


def test_a_secret_read_after_a_write_of_the_same_reply_is_not_called_a_rejection(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    """The user is never asked about such a read, so the chat must not hear they said no."""
    (workspace / ".env").write_text("API_KEY=sk-live-0123456789\n", encoding="utf-8")
    write, read = run_reply(
        cmd("w1", "fs.write", path=".env", content="API_KEY=sk-live-0123456789 # kept")
        + "\n"
        + cmd("r1", "fs.read", path=".env"),
        True,
    )
    assert write.ok
    assert not read.ok
    assert read.code == "ERR_SECRET_READ_NOT_ASKED"
    assert "rejected" not in read.summary
    assert "sk-live" not in read.summary + (read.details or "")


def test_an_approved_secret_write_is_never_applied_unseen(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    """Letting the app read a secret file is not approving a change nobody was shown."""
    (workspace / ".env").write_text("DEBUG=1\n", encoding="utf-8")
    session = make_session()
    run = session.prepare(cmd("w1", "fs.write", path=".env", content="DEBUG=0"))
    (held,) = run.pending
    assert held.held
    assert held.plan is None
    with pytest.raises(RuntimeError):  # execute before open_held: refused, nothing written
        session.execute(run, {held.index: APPROVE})
    assert (workspace / ".env").read_text(encoding="utf-8") == "DEBUG=1\n"

    run = make_session().prepare(cmd("w2", "fs.write", path=".env", content="DEBUG=0"))
    session = make_session()
    decisions = {run.pending[0].index: APPROVE}
    (shown,) = session.open_held(run, decisions)
    assert shown.plan is not None
    assert "+DEBUG=0" in shown.previews[0].diff
    assert decisions == {}  # the change needs its own approval: undecided, it is rejected
    (result,) = session.execute(run, decisions)
    assert result.outcome.summary.endswith("(ERR_REJECTED_BY_USER): rejected by the user")
    assert (workspace / ".env").read_text(encoding="utf-8") == "DEBUG=1\n"


def test_held_writes_of_one_secret_file_build_on_each_other(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    (workspace / ".env").write_text("DEBUG=1\n", encoding="utf-8")

    def edit(old: int, new: int) -> str:
        change = {"op": "replaceFirst", "find": f"DEBUG={old}", "text": f"DEBUG={new}"}
        return edits_b64(change)

    first, second = run_reply(
        cmd("e1", "fs.applyEdits", path=".env", edits_b64=edit(1, 2))
        + "\n"
        + cmd("e2", "fs.applyEdits", path=".env", edits_b64=edit(2, 3)),
        True,
    )
    assert first.ok, first.summary
    assert second.ok, second.summary
    assert (workspace / ".env").read_text(encoding="utf-8") == "DEBUG=3\n"


def test_a_fault_while_one_block_is_checked_costs_that_block_only(
    run_reply: Any, cmd: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from llm_operator.core.plan import planning as session_module

    real = session_module.validate

    def faulty(block: Any) -> Any:  # fault injection at the validator seam
        if block.get("id") == "bad":
            raise RecursionError("maximum recursion depth exceeded")
        return real(block)

    monkeypatch.setattr(session_module, "validate", faulty)
    results = run_reply(
        cmd("r1", "fs.read", path="README.md")
        + "\n"
        + cmd("bad", "fs.read", path="README.md")
        + "\n"
        + cmd("r2", "fs.read", path="README.md")
    )
    assert [r.id for r in results] == ["r1", "bad", "r2"]
    assert results[0].ok
    assert results[2].ok
    assert results[1].code == "ERR_INTERNAL"
    assert "fs.read failed (ERR_INTERNAL): unexpected RecursionError" in results[1].summary
