"""The person edits a change's new text in the review: what lands is their text, in the
file's own encoding, checked like the model's, said so in the result, and undoable."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from llm_operator.core.plan.person_edit import PersonEdit, edit_of
from llm_operator.core.plan.run import Decision, Pending
from llm_operator.core.plan.session import Session
from support.actions import b64


def _write(cmd: Any, cmd_id: str, path: str, text: str | bytes) -> str:
    return str(cmd(cmd_id, "fs.write", path=path, content_b64=b64(text)))


def _prepared(make_session: Any, text: str) -> tuple[Session, Any, Pending]:
    session = make_session()
    run = session.prepare(text)
    (pending,) = run.pending
    return session, run, pending


def _edited(pending: Pending, text: str) -> dict[int, Decision]:
    (change,) = pending.changes
    return {pending.index: Decision(True, edited=(edit_of(change, text),))}


def test_an_edited_change_lands_as_edited_says_so_and_undo_gives_the_old_file_back(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    target = workspace / "src" / "pkg" / "util.py"
    session, run, pending = _prepared(
        make_session, _write(cmd, "w1", "src/pkg/util.py", "VALUE = 43\nNAME = 'tpyo'\n")
    )
    (result,) = session.execute(run, _edited(pending, "VALUE = 43\nNAME = 'typo'\n"))
    assert result.ok, result.outcome.summary
    assert target.read_bytes() == b"VALUE = 43\nNAME = 'typo'\n"
    assert "edited by the user before approval: src/pkg/util.py" in result.outcome.summary
    details = result.outcome.details or ""
    assert "2: NAME = 'typo'" in details  # the landed lines are the person's
    assert "tpyo" not in details
    # The run's history shows the change that landed.
    (item,) = [i for i in run.items if i.id == "w1"]
    assert item.pending is not None
    assert "+NAME = 'typo'" in item.pending.previews[0].diff
    make_session().undo_last()
    assert target.read_bytes() == b"VALUE = 42\n"


def test_crlf_and_bom_of_the_proposed_content_are_kept(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    target = workspace / "win.txt"
    target.write_bytes(b"\xef\xbb\xbfone\r\ntwo\r\n")
    session, run, pending = _prepared(
        make_session, _write(cmd, "w1", "win.txt", b"\xef\xbb\xbfone\r\nTWO\r\n")
    )
    (result,) = session.execute(run, _edited(pending, "one\nTwo\nthree\n"))
    assert result.ok, result.outcome.summary
    assert target.read_bytes() == b"\xef\xbb\xbfone\r\nTwo\r\nthree\r\n"


def test_an_edit_back_to_the_old_text_says_the_file_is_unchanged(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    target = workspace / "README.md"
    old = target.read_bytes()
    session, run, pending = _prepared(make_session, _write(cmd, "w1", "README.md", "# Other\n"))
    (result,) = session.execute(run, _edited(pending, old.decode()))
    assert result.ok, result.outcome.summary
    assert target.read_bytes() == old
    assert "the edit leaves it as it was" in result.outcome.summary
    assert "landed in" not in (result.outcome.details or "")


def test_an_edit_of_a_delete_is_refused_and_nothing_is_deleted(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    session, run, pending = _prepared(make_session, cmd("d1", "fs.delete", path="README.md"))
    forged = PersonEdit("README.md", "absent", "# kept?\n")
    (result,) = session.execute(run, {pending.index: Decision(True, edited=(forged,))})
    assert not result.ok
    assert "ERR_EDIT_REFUSED" in result.outcome.summary
    assert (workspace / "README.md").read_text() == "# Demo\n\nA demo project.\n"


def test_an_edit_of_another_change_than_the_one_planned_is_refused(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    session, run, pending = _prepared(make_session, _write(cmd, "w1", "README.md", "# New\n"))
    wrong = PersonEdit("README.md", "sha256:" + "0" * 64, "# Mine\n")
    elsewhere = PersonEdit("src/main.py", pending.changes[0].after_digest, "# Mine\n")
    for edit in (wrong, elsewhere):
        (result,) = session.execute(run, {pending.index: Decision(True, edited=(edit,))})
        assert "ERR_EDIT_REFUSED" in result.outcome.summary
        session, run, pending = _prepared(make_session, _write(cmd, "w1", "README.md", "# New\n"))
    assert (workspace / "README.md").read_text() == "# Demo\n\nA demo project.\n"


def test_a_file_changed_outside_after_the_edit_is_refused_as_stale(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    target = workspace / "src" / "main.py"
    session, run, pending = _prepared(make_session, _write(cmd, "w1", "src/main.py", "print(1)\n"))
    decisions = _edited(pending, "print(2)\n")
    target.write_text("changed outside\n", encoding="utf-8")
    (result,) = session.execute(run, decisions)
    assert not result.ok
    assert "ERR_STALE_FILE" in result.outcome.summary
    assert target.read_text(encoding="utf-8") == "changed outside\n"


def test_a_new_file_edited_to_empty_lands_empty(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    session, run, pending = _prepared(make_session, _write(cmd, "w1", "fresh.txt", "x\n"))
    (result,) = session.execute(run, _edited(pending, ""))
    assert result.ok, result.outcome.summary
    assert (workspace / "fresh.txt").read_bytes() == b""


def test_the_persons_text_in_a_secret_looking_file_is_never_echoed_to_the_chat(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    # The model writes a placeholder into .env; the person types the real key in the
    # review. The file gets it; the result (which goes to the chat) does not.
    key = "sk-live-REALSECRET123456"
    session = make_session()
    run = session.prepare(_write(cmd, "w1", ".env", "API_KEY=changeme\n"))
    (held,) = run.pending
    decisions = {held.index: Decision(True)}
    (shown,) = session.open_held(run, decisions)
    decisions = {
        shown.index: Decision(True, edited=(edit_of(shown.changes[0], f"API_KEY={key}\n"),))
    }
    (result,) = session.execute(run, decisions)
    assert result.ok, result.outcome.summary
    assert (workspace / ".env").read_bytes() == f"API_KEY={key}\n".encode()
    said = result.outcome.summary + (result.outcome.details or "")
    assert key not in said
    assert "edited by the user before approval: .env (a secret-looking file)" in said
    assert "1 line(s) of the user's own text, not shown" in said


def test_an_edit_holding_half_a_character_is_refused_and_nothing_is_written(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    # JSON over the review link may carry a lone surrogate: it cannot be encoded, and
    # was an internal error; now it is the edit's refusal, said as such.
    session, run, pending = _prepared(make_session, _write(cmd, "w1", "half.txt", "x\n"))
    (result,) = session.execute(run, _edited(pending, "a\ud800b\n"))
    assert not result.ok
    assert "ERR_EDIT_REFUSED" in result.outcome.summary, result.outcome.summary
    assert "half a character" in result.outcome.summary
    assert not (workspace / "half.txt").exists()
