"""The window's counts and labels say what happened, not what was expected to."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from llm_operator.core.plan.run import Decision, Pending
from llm_operator.gui.dialogs.confirm_dialog import ConfirmDialog
from support.actions import edits_b64

from .conftest import WindowFactory, command, paste_and_run, reply

SECRET = "API_KEY=sk-live-token-4d1f\nDEBUG=1\n"


def _decline_all(monkeypatch: pytest.MonkeyPatch) -> list[Pending]:
    asked: list[Pending] = []

    def decide(parent: object, pending: list[Pending], outside: object = ()) -> dict:
        asked.extend(pending)
        return {item.index: Decision(False, "") for item in pending}

    monkeypatch.setattr(ConfirmDialog, "ask", decide)
    return asked


def _similar_edit_on_secret() -> str:
    """An edit of .env whose find text is close to a line of it: the failure quotes it."""
    edit = {"op": "replaceFirst", "find": "API_KEY=sk-live-token-4d2f", "text": "x"}
    return command("e1", "fs.applyEdits", path=".env", edits_b64=edits_b64(edit))


def test_after_the_run_the_header_counts_what_happened_not_what_needs_approval(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, approve_everything: None
) -> None:
    window = make_window(workspace)
    text = reply(
        command("r1", "fs.read", path="a.txt"),
        command("w1", "fs.write", path="b.txt", content="x"),
        command("w2", "fs.write", path="c.txt", content="x"),
        command("w3", "fs.write", path="d.txt", content="x"),
    )
    window.paste.set_text(text)
    assert window.paste.summary.text() == "4 commands: 3 need approval, 0 invalid."
    paste_and_run(qtbot, window, text)
    header = window.paste.summary.text()
    assert "need approval" not in header
    assert header == "4 commands ran: 4 ok, 0 failed, 0 rejected."
    window.paste.set_text(reply(command("w4", "fs.write", path="e.txt", content="x")))
    assert window.paste.summary.text() == "1 command: 1 needs approval, 0 invalid."


def test_a_read_of_a_secret_looking_file_is_listed_as_needing_approval(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (workspace / ".env").write_text(SECRET)
    asked = _decline_all(monkeypatch)
    window = make_window(workspace)
    text = reply(
        command("r1", "fs.read", path="a.txt"),
        command("s1", "fs.read", path=".env"),
        command("l1", "fs.list", path="."),
    )
    window.paste.set_text(text)
    assert window.paste.summary.text() == "3 commands: 1 needs approval, 0 invalid."
    rows = [window.paste.table.topLevelItem(i).text(1) for i in range(3)]
    assert rows == ["runs at once", "needs approval (secret-looking file)", "runs at once"]
    paste_and_run(qtbot, window, text)
    assert [p.id for p in asked] == ["s1"]  # the list said what the run then asked


def test_an_edit_of_a_secret_is_asked_before_it_is_planned_and_declined_is_a_rejection(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (workspace / ".env").write_text(SECRET)
    asked = _decline_all(monkeypatch)
    window = make_window(workspace)
    paste_and_run(qtbot, window, reply(_similar_edit_on_secret()))
    assert [p.id for p in asked] == ["e1"]
    assert asked[0].held
    assert asked[0].plan is None
    assert asked[0].reveal is not None
    assert "Nothing is planned before you approve" in asked[0].reveal.reason
    copied = window.results.raw.toPlainText()
    assert "fs.applyEdits failed (ERR_REJECTED_BY_USER): rejected by the user" in copied
    assert "ERR_ANCHOR_NOT_FOUND" not in copied  # never planned, so never failed
    assert window.paste.summary.text() == "1 command ran: 0 ok, 0 failed, 1 rejected."
    history = window.history.records[-1].text
    assert "e1: rejected" in history
    assert "asked before it read the file: .env looks like a secret" in history
    assert (workspace / ".env").read_text() == SECRET


def test_an_approved_edit_of_a_secret_shows_its_change_before_it_lands(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (workspace / ".env").write_text(SECRET)
    rounds: list[list[Pending]] = []
    edit = {"op": "replaceFirst", "find": "DEBUG=1", "text": "DEBUG=0"}
    text = reply(command("e1", "fs.applyEdits", path=".env", edits_b64=edits_b64(edit)))

    def decide(parent: object, pending: list[Pending], outside: object = ()) -> dict:
        rounds.append(list(pending))
        # Let the app read the file, then turn down the change it shows.
        return {item.index: Decision(item.held, "") for item in pending}

    monkeypatch.setattr(ConfirmDialog, "ask", decide)
    window = make_window(workspace)
    paste_and_run(qtbot, window, text)
    assert [[(p.id, p.held) for p in pending] for pending in rounds] == [
        [("e1", True)],
        [("e1", False)],
    ]
    second = rounds[1][0]
    assert second.plan is not None
    assert "+DEBUG=0" in second.previews[0].diff
    assert (workspace / ".env").read_text() == SECRET  # the change was seen and declined
    assert window.paste.summary.text() == "1 command ran: 0 ok, 0 failed, 1 rejected."

    def approve(parent: object, pending: list[Pending], outside: object = ()) -> dict:
        return {item.index: Decision(True, "") for item in pending}

    monkeypatch.setattr(ConfirmDialog, "ask", approve)
    paste_and_run(qtbot, window, text.replace("id: e1", "id: e2"))
    assert (workspace / ".env").read_text() == SECRET.replace("DEBUG=1", "DEBUG=0")


def test_the_list_says_a_check_runs_after_the_writes_before_it(
    make_window: WindowFactory, workspace: Path
) -> None:
    # A check runs in the execute step, after the reply's earlier writes: "runs at once" made
    # a model split its edits and the check over two replies (inflection_options, turn 3).
    window = make_window(workspace)
    window.paste.set_text(
        reply(
            command("c1", "run.check", name="tests"),
            command("w1", "fs.write", path="b.txt", content="x"),
            command("r1", "fs.read", path="a.txt"),
            command("c2", "run.check", name="tests"),
        )
    )
    rows = [window.paste.table.topLevelItem(i).text(1) for i in range(4)]
    assert rows == [
        "runs without a question",
        "needs approval",
        "runs at once",
        "runs after the writes before it",
    ]
