"""The review of a real batch: every change in one page, columns that fit, a layout kept
across restarts, and the person's own text for a change, landing exactly as typed."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from llm_operator.core.plan.session import Session
from llm_operator.core.store.settings import Settings
from llm_operator.core.store.workspace import Workspace
from llm_operator.gui.dialogs.confirm_dialog import Choice, ConfirmDialog

from ..conftest import command, reply

SMOKE = "tests/generated/test_smoke_{:02d}.py"


def batch(count: int) -> str:
    return reply(
        *(
            command(f"w{n}", "fs.write", path=SMOKE.format(n), text=f"def test_{n}():\n    pass\n")
            for n in range(count)
        )
    )


class Window(QWidget):
    """What the review reads of the window that opens it: its settings and their saving."""

    def __init__(self, settings: Settings) -> None:
        super().__init__()
        self.settings = settings
        self.saved = 0

    def save_settings(self) -> None:
        self.saved += 1
        self.settings.save()


def opened(qtbot: QtBot, dialog: ConfirmDialog) -> ConfirmDialog:
    if dialog.parent() is None:  # one with a parent goes with it
        qtbot.addWidget(dialog)
    dialog.show()
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog)
    return dialog


def alt(qtbot: QtBot, dialog: ConfirmDialog, key: Qt.Key) -> None:
    qtbot.keyClick(dialog.focusWidget() or dialog, key, Qt.KeyboardModifier.AltModifier)


def test_one_page_shows_thirty_changes_and_paging_through_it_sees_each(
    qtbot: QtBot, workspace: Path, tmp_path: Path
) -> None:
    pending = Session(Workspace(workspace), tmp_path / "s").prepare(batch(30)).pending
    dialog = opened(qtbot, ConfirmDialog(None, pending))
    dialog.resize(1280, 800)
    page = dialog.all_changes
    alt(qtbot, dialog, Qt.Key.Key_V)
    assert dialog.views.currentWidget() is page
    assert page.hasFocus()
    text = page.toPlainText()
    for n in range(30):
        assert SMOKE.format(n) in text
        assert f"def test_{n}():" in text
    assert text.count("not approved") == 30  # each header says its command's decision
    presses = 1
    while len(page.seen) < 30 and presses < 10:
        qtbot.keyClick(page, Qt.Key.Key_PageDown)
        presses += 1
    assert page.seen == set(range(30))
    assert presses <= 5, presses
    assert "Seen 30 of 30 files" in dialog.counts.text()
    # From file to file by keyboard, in the page as in the list; Space folds one.
    page.go_to(0)
    alt(qtbot, dialog, Qt.Key.Key_Down)
    assert page.current() == 1
    assert dialog.listing.currentItem() is dialog.file_rows[1]
    qtbot.keyClick(page, Qt.Key.Key_Space)
    assert 1 in page.folded
    assert "def test_1():" not in page.toPlainText()
    alt(qtbot, dialog, Qt.Key.Key_Y)  # approve the file at the top of the page
    assert "approved" in page.toPlainText().splitlines()[page.starts[1]]
    alt(qtbot, dialog, Qt.Key.Key_V)
    assert dialog.views.currentIndex() == 0
    assert dialog.listing.currentItem() is dialog.file_rows[1]


def test_the_list_fits_its_names_and_decisions(
    qtbot: QtBot, workspace: Path, tmp_path: Path
) -> None:
    pending = Session(Workspace(workspace), tmp_path / "s").prepare(batch(16)).pending
    dialog = ConfirmDialog(None, pending)
    dialog.resize(1280, 800)
    opened(qtbot, dialog)
    listing = dialog.listing
    metrics = listing.fontMetrics()
    decision = metrics.horizontalAdvance("not approved")
    assert listing.columnWidth(1) >= decision
    assert listing.textElideMode() is Qt.TextElideMode.ElideMiddle  # the names' ends show
    list_width = dialog.split.sizes()[0]
    assert list_width >= listing.columnWidth(0) + decision


def test_the_dialogs_geometry_splits_and_view_are_kept_across_restarts(
    qtbot: QtBot, workspace: Path, tmp_path: Path
) -> None:
    path = tmp_path / "config" / "settings.json"
    window = Window(Settings.load(path))
    qtbot.addWidget(window)
    pending = Session(Workspace(workspace), tmp_path / "s").prepare(batch(3)).pending
    dialog = opened(qtbot, ConfirmDialog(window, pending))
    first = dialog.size()
    dialog.resize(780, 560)
    dialog.split.setSizes([330, 450])
    dialog.toggle_view()
    size, split = dialog.size(), dialog.split.sizes()
    assert size != first  # not what a new dialog has anyway
    dialog.reject()
    assert window.saved == 1
    # A new start of the app: the settings read back from the file.
    again = Window(Settings.load(path))
    qtbot.addWidget(again)
    second = opened(qtbot, ConfirmDialog(again, pending))
    assert second.size() == size
    assert second.split.sizes() == split
    assert second.views.currentIndex() == 1


def test_an_edit_of_the_proposed_text_lands_exactly_as_typed_and_the_result_says_so(
    qtbot: QtBot, workspace: Path, tmp_path: Path
) -> None:
    session = Session(Workspace(workspace), tmp_path / "s")
    proposed = "NAME = 'tpyo'\nVALUE = 1\n"
    run = session.prepare(reply(command("w1", "fs.write", path="src/pkg/util.py", text=proposed)))
    dialog = opened(qtbot, ConfirmDialog(None, run.pending))
    dialog.listing.setCurrentItem(dialog.file_rows[0])
    alt(qtbot, dialog, Qt.Key.Key_E)
    editor = dialog.editor.text
    assert editor.isVisible()
    assert editor.hasFocus()
    assert editor.toPlainText() == proposed
    editor.selectAll()
    typed = "NAME = 'typo'\nVALUE = 1"  # and no final newline: that too lands as typed
    for number, line in enumerate(typed.split("\n")):
        if number:
            qtbot.keyClick(editor, Qt.Key.Key_Return)
        qtbot.keyClicks(editor, line)
    qtbot.waitUntil(lambda: "+ NAME = 'typo'" in dialog.diff.unified.toPlainText())
    assert "tpyo" not in dialog.diff.unified.toPlainText()  # the diff is of what lands
    assert "edited by you" in dialog.file_rows[0].text(1)
    assert "You edited the new text of src/pkg/util.py" in dialog.header.text()
    alt(qtbot, dialog, Qt.Key.Key_Y)
    assert "approved with your edits" in dialog.command_rows[0].text(1)
    alt(qtbot, dialog, Qt.Key.Key_A)
    assert dialog.choice is Choice.PER_COMMAND
    (result,) = session.execute(run, dialog.decisions())
    assert result.ok, result.outcome.summary
    assert (workspace / "src/pkg/util.py").read_text(encoding="utf-8") == typed
    assert "edited by the user before approval" in result.outcome.summary
    assert "1: NAME = 'typo'" in (result.outcome.details or "")
    assert "src/pkg/util.py now ends without a final newline" in (result.outcome.details or "")


def test_an_edit_typed_back_to_the_proposal_is_no_edit_and_a_delete_cannot_be_edited(
    qtbot: QtBot, workspace: Path, tmp_path: Path
) -> None:
    session = Session(Workspace(workspace), tmp_path / "s")
    text = reply(
        command("w1", "fs.write", path="b.txt", text="one\n"),
        command("d1", "fs.delete", path="a.txt"),
    )
    dialog = opened(qtbot, ConfirmDialog(None, session.prepare(text).pending))
    dialog.listing.setCurrentItem(dialog.file_rows[0])
    dialog.edit_box.setChecked(True)
    dialog.editor.text.setPlainText("two\n")
    dialog.editor.flush()
    assert dialog.states[0].edits == {"b.txt": "two\n"}
    dialog.editor.back_to_proposed()
    assert dialog.states[0].edits == {}
    assert "edited by you" not in dialog.file_rows[0].text(1)
    dialog.listing.setCurrentItem(dialog.file_rows[1])
    assert dialog.editor.text.isReadOnly()
    assert "no new text to edit" in dialog.editor.note.text()
    dialog.approve_all()
    decisions = dialog.decisions()
    assert all(not d.edited for d in decisions.values())


def test_an_edit_then_a_change_outside_is_refused_whole_never_merged_under_the_edit(
    qtbot: QtBot, workspace: Path, tmp_path: Path
) -> None:
    import json

    from llm_operator.core.plan.outside_merge import rebase_pending

    target = workspace / "notes.txt"
    target.write_text("".join(f"line {n}\n" for n in range(1, 11)))
    edits = {"version": 1, "edits": [{"op": "replaceFirst", "find": "line 3\n", "text": "3\n"}]}
    session = Session(Workspace(workspace), tmp_path / "s")
    run = session.prepare(
        reply(command("e1", "fs.applyEdits", path="notes.txt", edits_json=json.dumps(edits)))
    )
    dialog = opened(qtbot, ConfirmDialog(None, run.pending))
    dialog.listing.setCurrentItem(dialog.file_rows[0])
    dialog.edit_box.setChecked(True)
    mine = dialog.editor.text.toPlainText().replace("3\n", "line three\n")
    dialog.editor.text.setPlainText(mine)
    dialog.editor.flush()
    outside = target.read_text().replace("line 8\n", "line 8 (outside)\n")
    target.write_text(outside)
    dialog.show_outside(rebase_pending(session.workspace, run.pending))
    dialog.listing.setCurrentItem(dialog.file_rows[0])
    assert "approving your edit is refused" in dialog.header.text()
    dialog.approve_selected()
    dialog.apply_choices()
    decision = dialog.decisions()[run.pending[0].index]
    assert decision.merged == ()  # the merge is not carried under the person's text
    assert [e.path for e in decision.edited] == ["notes.txt"]
    (result,) = session.execute(run, dialog.decisions())
    assert not result.ok
    assert "ERR_STALE_FILE" in result.outcome.summary
    assert target.read_text() == outside  # nothing of it written


def test_a_change_a_later_command_builds_on_cannot_be_edited(
    qtbot: QtBot, workspace: Path, tmp_path: Path
) -> None:
    import json

    def edit(cmd_id: str, find: str, text: str) -> str:
        ops = {"version": 1, "edits": [{"op": "replaceFirst", "find": find, "text": text}]}
        return command(cmd_id, "fs.applyEdits", path="a.txt", edits_json=json.dumps(ops))

    session = Session(Workspace(workspace), tmp_path / "s")
    pending = session.prepare(reply(edit("e1", "alpha", "ALPHA"), edit("e2", "beta", "B"))).pending
    assert pending[1].builds_on == (pending[0].index,)
    dialog = opened(qtbot, ConfirmDialog(None, pending))
    dialog.listing.setCurrentItem(dialog.file_rows[0])
    dialog.edit_box.setChecked(True)
    assert dialog.editor.text.isReadOnly()
    assert "A later command of this reply builds on this change" in dialog.editor.note.text()
    dialog.listing.setCurrentItem(dialog.file_rows[1])  # the later one can be
    assert not dialog.editor.text.isReadOnly()
    assert dialog.editor.text.toPlainText() == "ALPHA\nB\n"


def test_a_page_too_big_for_one_view_sends_the_rest_to_the_one_file_view(
    qtbot: QtBot, workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from llm_operator.gui.dialogs import all_changes

    monkeypatch.setattr(all_changes, "MAX_PAGE_CHARS", 10)  # the first file passes it
    pending = Session(Workspace(workspace), tmp_path / "s").prepare(batch(3)).pending
    dialog = opened(qtbot, ConfirmDialog(None, pending))
    dialog.toggle_view()
    page = dialog.all_changes
    text = page.toPlainText()
    assert "def test_0():" in text  # the first diff fits
    assert "def test_2():" not in text
    assert all_changes.TOO_LONG in text
    assert page.too_long == {1, 2}
    qtbot.keyClick(page, Qt.Key.Key_End)
    assert page.seen == {0}  # only what the page showed counts as seen
