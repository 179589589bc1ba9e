"""Diff colours and the light syntax highlighting keyed on the file extension."""

from __future__ import annotations

from PySide6.QtGui import QTextDocument
from pytestqt.qtbot import QtBot

from llm_operator.gui.highlight import (
    ADDED_BG,
    COMMENT_FG,
    HUNK_FG,
    KEYWORD_FG,
    REMOVED_BG,
    STRING_FG,
    DiffHighlighter,
    language_for,
)

DIFF = """--- a/app.py
+++ b/app.py
@@ -1,2 +1,2 @@
 def main():
-    return "hi"  # old
+    return "bye"
"""


def colours(document: QTextDocument) -> dict[str, list[tuple[int, str, str]]]:
    found: dict[str, list[tuple[int, str, str]]] = {}
    block = document.begin()
    while block.isValid():
        found[block.text()] = [
            (r.start, r.format.foreground().color().name(), r.format.background().color().name())
            for r in block.layout().formats()
        ]
        block = block.next()
    return found


def test_languages_are_chosen_by_extension() -> None:
    assert language_for("src/app.py") == language_for("x.pyi")
    assert language_for("web/main.ts") == language_for("lib.rs")
    assert language_for("src/app.py") != language_for("lib.rs")
    assert language_for("Makefile") is not None
    assert language_for("notes") is None
    assert language_for("data.unknown") is None


def test_diff_lines_and_code_are_coloured(qtbot: QtBot) -> None:
    document = QTextDocument()
    highlighter = DiffHighlighter(document, "app.py")
    document.setPlainText(DIFF)
    highlighter.rehighlight()
    found = colours(document)
    assert found["@@ -1,2 +1,2 @@"][0][1] == HUNK_FG
    removed = found['-    return "hi"  # old']
    assert {background for _, _, background in removed} == {REMOVED_BG}
    assert (5, KEYWORD_FG, REMOVED_BG) in removed
    assert (12, STRING_FG, REMOVED_BG) in removed
    assert (18, COMMENT_FG, REMOVED_BG) in removed
    added = found['+    return "bye"']
    assert {background for _, _, background in added} == {ADDED_BG}
    assert (1 + 4, KEYWORD_FG, ADDED_BG) in added
    assert any(foreground == KEYWORD_FG for _, foreground, _ in found[" def main():"])


def test_a_comment_marker_inside_a_string_is_not_a_comment(qtbot: QtBot) -> None:
    document = QTextDocument()
    DiffHighlighter(document, "x.js")
    document.setPlainText('+let url = "http://example.com";\n')
    formats = colours(document)['+let url = "http://example.com";']
    assert not any(foreground == COMMENT_FG for _, foreground, _ in formats)
