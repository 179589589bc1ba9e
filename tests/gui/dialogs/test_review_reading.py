"""The review reads well at the size it opens with: line numbers in a gutter that stays,
long lines wrapped with the old and new sides level, Ctrl+F over what is shown, and every
pane reachable by Tab."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from llm_operator.gui.dialogs.confirm_dialog import ConfirmDialog
from llm_operator.gui.dialogs.diff_view import DiffPage

from ..conftest import command, reply
from .test_confirm_dialog import open_dialog, pending_of

LONG = "another_very_long_keyword_argument='" + "x" * 200 + "' + marker_at_the_end"


def source(changed: bool) -> str:
    lines = []
    for n in range(40):
        lines.append(f"def function_{n}(one, two):\n")
        tail = f"option={n}"
        if changed and n == 3:
            tail += ", " + LONG
        if changed and n == 35:
            tail = "option=350"
        lines.append(f"    return compute(one, two, {tail})\n\n")
    return "".join(lines)


def multi_hunk_dialog(qtbot: QtBot, workspace: Path, tmp_path: Path) -> ConfirmDialog:
    (workspace / "mod.py").write_text(source(False))
    pending = pending_of(
        workspace, tmp_path, reply(command("e1", "fs.write", path="mod.py", text=source(True)))
    )
    return open_dialog(qtbot, pending)


def assert_fits(view: DiffPage) -> None:
    """Nothing scrolls sideways: every line fits the view, the numbers are beside it."""
    assert view.horizontalScrollBar().maximum() == 0
    columns = view.columns()
    for line in view.toPlainText().split("\n"):
        assert len(line) <= columns, line
    assert view.viewportMargins().left() == view.gutter.width() > 0
    assert view.gutter.geometry().right() < view.viewport().geometry().left()


def test_side_by_side_wraps_long_lines_and_keeps_the_sides_level(
    qtbot: QtBot, workspace: Path, tmp_path: Path
) -> None:
    dialog = multi_hunk_dialog(qtbot, workspace, tmp_path)
    diff = dialog.diff
    assert_fits(diff.unified)
    assert LONG in diff.unified.row_text()  # whole, however it is cut on screen
    dialog.side_by_side.setChecked(True)
    qtbot.wait(20)
    left, right = diff.left, diff.right
    assert_fits(left)
    assert_fits(right)
    left_lines = left.toPlainText().split("\n")
    right_lines = right.toPlainText().split("\n")
    assert len(left_lines) == len(right_lines)
    # Each numbered line sits level with its partner; the long new line takes several
    # lines, and the old side is padded to match.
    for number in (8, 11, 14, 104, 107, 110):  # context and changed lines of two hunks
        at = left.gutters.index(f"{number:>3}")
        assert right.gutters[at] == f"{number:>3}"
    long_at = right.gutters.index(" 11")
    after = right.gutters.index(" 12")
    assert right_lines[after - 1].endswith("_end)")
    assert after - long_at > 3  # wrapped, not cut
    assert left.gutters[long_at] == " 11"
    assert left.gutters[after] == " 12"
    assert all(not left_lines[n].strip() for n in range(long_at + 2, after))
    assert set(right.gutters[long_at + 1 : after]) == {"\u21aa"}  # goes on from above
    assert set(left.gutters[long_at + 2 : after]) == {""}  # padding, level with it
    # The numbers are not part of the text, so they never scroll with it.
    assert not any(line.startswith(" 11") for line in right_lines)
    assert right_lines[long_at].startswith("+ ")
    # A narrower dialog wraps again and stays level.
    dialog.resize(720, 540)
    qtbot.waitUntil(lambda: left.columns() < 40)
    qtbot.wait(20)
    assert_fits(left)
    assert_fits(right)
    assert left.document().blockCount() == right.document().blockCount()
    assert LONG in right.row_text()


def test_ctrl_f_finds_what_is_shown_and_escape_closes_only_the_search(
    qtbot: QtBot, workspace: Path, tmp_path: Path
) -> None:
    dialog = multi_hunk_dialog(qtbot, workspace, tmp_path)
    diff = dialog.diff
    assert dialog.search.isHidden()
    qtbot.keyClick(dialog.listing, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert dialog.search.isVisible()
    assert dialog.focusWidget() is dialog.search.field
    qtbot.keyClicks(dialog.search.field, "OPTION=3")
    # As shown: option=3 (old and new), option=34, option=35 and 350, option=36.
    total = diff.unified.row_text().lower().count("option=3")
    assert total == 6
    assert dialog.search.count.text() == f"1 of {total}"

    def selected() -> str:
        return diff.unified.textCursor().selectedText().lower()

    assert selected() == "option=3"
    qtbot.keyClick(dialog.search.field, Qt.Key.Key_Return)
    assert dialog.search.count.text() == f"2 of {total}"
    qtbot.keyClick(dialog.search.field, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(dialog.search.field, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    assert dialog.search.count.text() == f"{total} of {total}"
    qtbot.keyClick(dialog.search.field, Qt.Key.Key_F3)
    assert dialog.search.count.text() == f"1 of {total}"
    # A match that the wrapping cuts in two is still one match.
    dialog.search.field.setText("marker_at_the_end")
    assert dialog.search.count.text() == "1 of 1"
    dialog.search.field.setText("x" * 150)
    assert dialog.search.count.text() == "1 of 1"
    assert "\u2029" in diff.unified.textCursor().selectedText()  # it spans lines
    # Side by side searches both columns, row by row.
    dialog.side_by_side.setChecked(True)
    dialog.search.field.setText("option=35")
    assert dialog.search.count.text() == "1 of 2"
    assert diff.left.textCursor().selectedText() == "option=35"
    qtbot.keyClick(dialog.search.field, Qt.Key.Key_Return)
    assert diff.right.textCursor().selectedText() == "option=35"
    assert not diff.left.textCursor().hasSelection()  # one current match, not two
    # Another file: the search goes on there, from its first match.
    (workspace / "other.py").write_text("option=1\noption=2\n")
    pending = pending_of(
        workspace,
        tmp_path,
        reply(
            command("e1", "fs.write", path="mod.py", text=source(True)),
            command("e2", "fs.write", path="other.py", text="option=1\noption=3\n"),
        ),
    )
    two = open_dialog(qtbot, pending)
    two.search.open_bar()
    two.search.field.setText("option=")
    assert two.search.count.text() == "1 of 8"
    two.next_file()
    assert two.search.count.text() == "3 matches"
    qtbot.keyClick(two.search.field, Qt.Key.Key_Return)
    assert two.search.count.text() == "1 of 3"
    dialog.search.field.setText("no such text")
    assert dialog.search.count.text() == "no match"
    qtbot.keyClick(dialog.search.field, Qt.Key.Key_Escape)
    assert dialog.search.isHidden()
    assert dialog.isVisible()  # Escape in the search never rejects the review
    assert not diff.hits


def test_tab_reaches_every_pane_in_order_and_the_buttons_keep_their_keys(
    qtbot: QtBot, workspace: Path, tmp_path: Path
) -> None:
    dialog = multi_hunk_dialog(qtbot, workspace, tmp_path)

    def tabbing(count: int) -> list[QWidget | None]:
        dialog.listing.setFocus()
        seen: list[QWidget | None] = [dialog.focusWidget()]
        for _ in range(count):
            qtbot.keyClick(dialog.focusWidget(), Qt.Key.Key_Tab)
            seen.append(dialog.focusWidget())
        return seen

    buttons = [dialog.reject_button, dialog.apply_button, dialog.approve_button]
    decision = [dialog.approve, dialog.edit_box, dialog.side_by_side, dialog.reason]
    want = [dialog.listing, dialog.diff.unified, *decision, *buttons, dialog.listing]
    assert tabbing(9) == want  # and round again
    dialog.search.open_bar()
    want = [dialog.listing, dialog.diff.unified, dialog.search.field, *decision, *buttons]
    want.append(dialog.listing)
    assert tabbing(10) == want
    dialog.side_by_side.setChecked(True)
    want = [dialog.listing, dialog.diff.left, dialog.diff.right, dialog.search.field]
    assert tabbing(3) == want
    # The keys still decide: Alt+Y approves the selected command from the diff.
    dialog.diff.left.setFocus()
    qtbot.keyClick(dialog.diff.left, Qt.Key.Key_Y, Qt.KeyboardModifier.AltModifier)
    assert dialog.states[0].approved


def test_rows_are_cut_between_characters_never_inside_a_marker() -> None:
    from llm_operator.gui.dialogs.diff_pages import MIN_COLUMNS, cut

    text = "+ " + "a" * 14 + "<U+202E>" + "b" * 30
    pieces = cut(text, 2, MIN_COLUMNS)
    assert "".join(text[start:end] for start, end in pieces) == text
    assert any(text[start:end].startswith("<U+202E>") for start, end in pieces)
    wide = "+ " + "\u6f22" * 20  # two columns each
    first, *rest = cut(wide, 2, 20)
    assert first == (0, 11)  # "+ " and nine wide characters fill 20 columns
    assert all(end - start <= 9 for start, end in rest)  # 2 + 9 * 2 = 20
    assert cut("+ \tx", 2, 20) == [(0, 4)]
