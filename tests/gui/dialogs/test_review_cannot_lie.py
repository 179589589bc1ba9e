"""A hostile reply cannot make the window show something else than what will happen.

The real confirmation dialog is rendered offscreen with a reply written to deceive: an id
holding markup that would hide "Will delete" and pose as another write, a write that lands
through a link on a name holding U+202E (shown reversed as a harmless ".txt"), content
with terminal escape sequences and zero-width characters, a patch that only makes a file
executable. Every assertion is on what a person sees: the text Qt displays for the label's
format, a tooltip as Qt would render it, the plain text of the diff and result views.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QApplication, QLabel, QMessageBox
from pytestqt.qtbot import QtBot

from llm_operator.core.store.workspace import Workspace
from llm_operator.gui.clipboard import ClipboardBridge
from llm_operator.gui.dialogs.context_builder import ContextBuilder
from llm_operator.gui.highlight import MARKER_BG
from llm_operator.gui.status_bar import ChangedOutsideList

from ..conftest import WindowFactory, b64, command, paste_and_run, reply
from .test_confirm_dialog import open_dialog, pending_of

RAW = "\u202e\u2066\u2069\u200b\u200d\u2060\ufeff\x1b\x07"
FAKE_ID = "d1<br>Will write notes/todo.txt (+1 -0)<span style=display:none>"
REAL = "evil\u202etxt.sh"


def seen(text: str, text_format: Qt.TextFormat = Qt.TextFormat.AutoText) -> str:
    """The text a person reads: rich text rendered as Qt renders it, else the text."""
    rich = text_format == Qt.TextFormat.RichText or (
        text_format == Qt.TextFormat.AutoText and GuiQt.mightBeRichText(text)
    )
    if not rich:
        return text
    document = QTextDocument()
    document.setHtml(text)
    return document.toPlainText()


def marker_spans(document: QTextDocument) -> list[str]:
    """The texts the highlighter paints in the marker colours."""
    found = []
    block = document.begin()
    while block.isValid():
        for span in block.layout().formats():
            if span.format.background().color().name() == MARKER_BG:
                found.append(block.text()[span.start : span.start + span.length])
        block = block.next()
    return found


def seen_label(label: QLabel) -> str:
    return seen(label.text(), label.textFormat())


def assert_nothing_hidden(text: str) -> None:
    assert not set(RAW) & set(text), repr(text)


def hostile_workspace(workspace: Path) -> None:
    (workspace / "src" / "pkg").mkdir()
    (workspace / "src" / "pkg" / "util.py").write_text("X = 1\n")
    (workspace / REAL).write_text("echo old\n")
    (workspace / "notes.txt").symlink_to(REAL)
    (workspace / "run.sh").write_text("#!/bin/sh\n")


def hostile_reply() -> str:
    content = "echo \x1b[2K\x1b[1A\x1b]52;c;aGk=\x07 ok\u200b\u202e\n"
    mode = "diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n"
    return reply(
        command(FAKE_ID, "fs.delete", path="src"),
        command("w1", "fs.write", path="notes.txt", text=content),
        command("p1", "fs.patch", path="run.sh", patch_b64=b64(mode)),
    )


def test_the_review_shows_a_hostile_reply_as_plain_text_with_every_effect(
    qtbot: QtBot, workspace: Path, tmp_path: Path
) -> None:
    hostile_workspace(workspace)
    pending = pending_of(workspace, tmp_path, hostile_reply())
    assert [item.action for item in pending] == ["fs.delete", "fs.write", "fs.patch"]
    dialog = open_dialog(qtbot, pending)
    headers = []
    for top in dialog.command_rows:
        dialog.listing.setCurrentItem(top)
        headers.append(seen_label(dialog.header))
        assert_nothing_hidden(dialog.header.text())
        assert dialog.header.textFormat() == Qt.TextFormat.PlainText
    delete, write, patch = (header.split("\n") for header in headers)

    # The id is shown as the characters it is; it hides nothing and poses as nothing.
    assert delete[0] == f"1. fs.delete   id {FAKE_ID}"
    assert delete[1] == (
        "Will delete folder src/ with 2 files and 1 folder in it (moved to the trash, undoable)"
    )
    assert not any(line.startswith("Will write") for line in delete)

    # The write lands on the real name, shown in order with its marker, not reversed.
    assert write[1] == "Will write evil<U+202E>txt.sh (+1 -1)"
    assert write[2] == (
        "Look closely: the new content holds 6 invisible or control characters "
        "(U+001B, U+0007, U+200B, U+202E), marked <U+...> wherever shown"
    )
    assert patch[1:] == [
        "Will leave the content of run.sh as it is",
        "Will make run.sh executable (mode 100755)",
    ]

    # The list, its tooltips and the diff: the same truth.
    rows = [dialog.listing.topLevelItem(n) for n in range(3)]
    assert rows[0] is not None
    assert rows[0].text(0) == f"1. fs.delete  {FAKE_ID}"
    assert seen(rows[0].toolTip(0)) == f"1. fs.delete  {FAKE_ID}"
    file_row = rows[1].child(0) if rows[1] is not None else None
    assert file_row is not None
    assert file_row.text(0) == "evil<U+202E>txt.sh  +1 -1"
    assert seen(file_row.toolTip(0)) == "evil<U+202E>txt.sh"
    for n in range(3):
        row = rows[n]
        assert row is not None
        for column in (0, 1):
            assert_nothing_hidden(row.text(column) + seen(row.toolTip(column)))
    dialog.listing.setCurrentItem(file_row)
    diff = dialog.diff.unified.row_text()  # each row whole, however it is wrapped
    assert_nothing_hidden(dialog.diff.unified.toPlainText())
    assert "+ echo <U+001B>[2K<U+001B>[1A<U+001B>]52;c;aGk=<U+0007> ok<U+200B><U+202E>" in diff
    assert_nothing_hidden(diff)
    # Each marker stands out from the code around it.
    painted = "".join(marker_spans(dialog.diff.unified.document()))
    assert painted == "<U+001B>" * 3 + "<U+0007><U+200B><U+202E>"
    dialog.side_by_side.setChecked(True)
    side = dialog.diff.right.row_text() + dialog.diff.right.toPlainText()
    assert "echo <U+001B>[2K" in side
    assert_nothing_hidden(side + dialog.diff.left.toPlainText())


def test_a_typed_reason_and_the_reply_text_in_the_decision_column_stay_text(
    qtbot: QtBot, workspace: Path, tmp_path: Path
) -> None:
    pending = pending_of(workspace, tmp_path, reply(command("w1", "fs.write", path="n", text="x")))
    dialog = open_dialog(qtbot, pending)
    dialog.reason.setFocus()
    qtbot.keyClicks(dialog.reason, "<b>no</b><U+0041>")
    top = dialog.command_rows[0]
    # Rendered once: the literal "<U+0041>" is told apart from a real U+0041, no more.
    assert top.text(1) == "rejected: <b>no</b><U+003C>U+0041>"
    assert seen(top.toolTip(1)) == "rejected: <b>no</b><U+003C>U+0041>"


def test_results_and_history_show_a_files_bytes_as_markers(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, approve_everything: None
) -> None:
    (workspace / "trap.txt").write_text("line\x1b[2K\x1b]52;c;aGk=\x07 \u202eexe.txt\u200b\n")
    window = make_window(workspace)
    paste_and_run(
        qtbot,
        window,
        reply(
            command("r1", "fs.read", path="trap.txt"),
            command("w<b>2</b>", "fs.write", path="made.txt", text="a\u2066b\n"),
        ),
    )
    results = window.results.view.toPlainText()
    assert "line<U+001B>[2K<U+001B>]52;c;aGk=<U+0007> <U+202E>exe.txt<U+200B>" in results
    assert "w<b>2</b>" in results
    assert_nothing_hidden(results)
    assert_nothing_hidden(window.results.raw.toPlainText())
    assert window.results.status.textFormat() == Qt.TextFormat.PlainText
    detail = window.history.detail.toPlainText()
    assert "+ a<U+2066>b" in detail
    assert "Look closely: the new content holds 1 invisible or control character (U+2066)" in (
        detail
    )
    assert_nothing_hidden(detail)
    assert window.paste.summary.textFormat() == Qt.TextFormat.PlainText


def test_the_changed_outside_list_is_plain_text(qtbot: QtBot) -> None:
    names = ["prod\u202etxt.env", "<b>bold<br>.txt", "line\nbreak.txt"]
    shown: list[tuple[Qt.TextFormat, str]] = []

    def read_and_close() -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        shown.append((box.textFormat(), box.text()))
        box.accept()

    QTimer.singleShot(200, read_and_close)
    ChangedOutsideList.ask(None, names)
    ((text_format, text),) = shown
    listed = seen(text, text_format).split("\n\n", 1)[1].split("\n")
    assert listed == ["prod<U+202E>txt.env", "<b>bold<br>.txt", "line<U+000A>break.txt"]
    assert_nothing_hidden(text)


def test_the_context_builder_lists_hostile_names_as_text(qtbot: QtBot, tmp_path: Path) -> None:
    root = tmp_path / "names"
    (root / "d\u2066ir").mkdir(parents=True)
    (root / "d\u2066ir" / "prod\u202etxt.env").write_text("x\n")
    (root / "<b>bold<br>.txt").write_text("x\n")
    dialog = ContextBuilder(Workspace(root), ClipboardBridge(), lambda: 30_000)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.loaded)
    secret = dialog.item_for("d\u2066ir/prod\u202etxt.env")
    assert secret.text(0) == "prod<U+202E>txt.env"
    assert secret.parent() is not None
    assert secret.parent().text(0) == "d<U+2066>ir/"
    assert seen(secret.toolTip(0)) == "d<U+2066>ir/prod<U+202E>txt.env"
    bold = dialog.item_for("<b>bold<br>.txt")
    assert seen(bold.toolTip(0)) == "<b>bold<br>.txt"


def test_a_secret_read_names_the_real_file_in_order(
    qtbot: QtBot, workspace: Path, tmp_path: Path
) -> None:
    real = "prod\u202etxt.env"
    (workspace / real).write_text("TOKEN=x\n")
    (workspace / "notes.txt").symlink_to(real)
    pending = pending_of(workspace, tmp_path, reply(command("r1", "fs.read", path="notes.txt")))
    dialog = open_dialog(qtbot, pending)
    header = seen_label(dialog.header)
    assert "Will send the content of prod<U+202E>txt.env to the chat." in header.split("\n")
    row = dialog.file_rows[0]
    assert row.text(0) == "prod<U+202E>txt.env"
    assert seen(row.toolTip(0)) == "prod<U+202E>txt.env"
    assert_nothing_hidden(dialog.header.text() + row.text(0) + row.toolTip(0))


def test_the_header_names_what_the_diff_cannot_show(
    qtbot: QtBot, workspace: Path, tmp_path: Path
) -> None:
    """A lone CR the diff draws as a line break, and a line that changes only its Unicode
    form, each get their line in the header a person reads before approving."""
    (workspace / "run.sh").write_text("echo one\necho two\n")
    (workspace / "users.py").write_text("ADMIN = 'jos\u00e9'\n")
    pending = pending_of(
        workspace,
        tmp_path,
        reply(
            command("w1", "fs.write", path="run.sh", text="echo one\recho hidden\necho two\n"),
            command("w2", "fs.write", path="users.py", text="ADMIN = 'jose\u0301'\n"),
        ),
    )
    dialog = open_dialog(qtbot, pending)
    headers = []
    for top in dialog.command_rows:
        dialog.listing.setCurrentItem(top)
        headers.append(seen_label(dialog.header).split("\n"))
    assert headers[0][2].startswith(
        "Look closely: the new content holds 1 lone carriage return (U+000D); the diff shows"
    )
    assert headers[1][2] == (
        "Look closely: 1 changed line will look as before (new line 1: the same letters "
        "written in another Unicode form)"
    )
