"""Results a person can read, while the clipboard gets the exact protocol text."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from llm_operator.gui.highlight import KEYWORD_FG, STRING_FG, TITLE_FAILED_FG, TITLE_OK_FG

from .conftest import WindowFactory, command, paste_and_run, reply


def foregrounds(document: QTextDocument) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    block = document.begin()
    while block.isValid():
        found[block.text()] = {
            r.format.foreground().color().name() for r in block.layout().formats()
        }
        block = block.next()
    return found


def test_each_result_is_decoded_with_code_coloured(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path
) -> None:
    window = make_window(workspace)
    text = reply(
        command("r1", "fs.read", path="src/app.py"),
        command("r2", "fs.read", path="nope.txt"),
    )
    paste_and_run(qtbot, window, text)
    page = window.results.view.toPlainText()
    assert "details_b64" not in page
    assert "\u2714 r1  fs.read src/app.py" in page
    assert '    def main():\n        return "hi"' in page
    assert "\u2718 r2  fs.read nope.txt" in page
    assert '{"message"' not in page  # the error payload is shown as its message
    colours = foregrounds(window.results.view.document())
    assert KEYWORD_FG in colours["    def main():"]
    assert STRING_FG in colours['        return "hi"']
    assert TITLE_OK_FG in colours["\u2714 r1  fs.read src/app.py"]
    assert TITLE_FAILED_FG in colours["\u2718 r2  fs.read nope.txt"]
    # The clipboard and the protocol view hold the exact OPERATOR_RESULT text.
    copied = QApplication.clipboard().text()
    assert copied.startswith("OPERATOR_RESULT\nid: r1\nok: true\n")
    assert window.results.raw.toPlainText() == copied
    window.results.show_protocol.setChecked(True)
    assert window.results.stack.currentWidget() is window.results.raw


def test_the_parts_line_says_what_is_copied_and_what_is_pending(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path
) -> None:
    (workspace / "big.txt").write_text("0123456789\n" * 1200)
    window = make_window(workspace)
    window.settings.part_size = 5000
    paste_and_run(qtbot, window, reply(command("r1", "fs.read", path="big.txt")))
    parts = window.results.parts
    assert len(parts) >= 3
    line = window.results.parts_line.text()
    assert line.startswith("part 1 copied (1 result) \u00b7 part 2 pending")
    assert line.count("pending") == len(parts) - 1
    assert "part 2: r1" in window.results.parts_line.toolTip()
    window.results.copy_next()
    assert window.results.parts_line.text().count("pending") == len(parts) - 2


def test_a_huge_read_is_shown_in_part_and_copied_whole(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path
) -> None:
    from llm_operator.gui.pages import MAX_DETAIL_LINES

    (workspace / "huge.txt").write_text("".join(f"row {n}\n" for n in range(MAX_DETAIL_LINES + 50)))
    window = make_window(workspace)
    window.settings.part_size = 10_000_000
    paste_and_run(qtbot, window, reply(command("r1", "fs.read", path="huge.txt")))
    page = window.results.view.toPlainText()
    assert f"    row {MAX_DETAIL_LINES - 1}\n" in page
    assert f"row {MAX_DETAIL_LINES}\n" not in page
    assert "... 50 more lines not shown here" in page
    copied = QApplication.clipboard().text()
    from llm_operator.core.protocol.result_reader import read_results

    (result,) = read_results(copied)
    assert (result.details or b"").decode().endswith(f"row {MAX_DETAIL_LINES + 49}\n")


def test_the_strict_results_setting_copies_details_b64_and_is_saved(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path
) -> None:
    import base64

    from llm_operator.core.store.settings import Settings

    window = make_window(workspace)
    paste_and_run(qtbot, window, reply(command("r1", "fs.read", path="a.txt")))
    readable = QApplication.clipboard().text()
    assert "details_lines: " in readable
    assert "details_b64" not in readable
    window.window_actions.strict_results.setChecked(True)
    assert window.settings.results_form == "base64"
    assert Settings.load(window.settings.path).results_form == "base64"
    paste_and_run(qtbot, window, reply(command("r2", "fs.read", path="a.txt")))
    strict = QApplication.clipboard().text()
    encoded = base64.b64encode((workspace / "a.txt").read_bytes()).decode()
    assert f"details_b64: {encoded}" in strict
    assert "details_lines" not in strict
