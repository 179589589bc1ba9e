"""Previews are data the session makes while preparing: numbered rows, changed words."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from llm_operator.core.plan import preview as preview_module
from llm_operator.core.plan.preview import (
    DiffLine,
    diff_rows,
    side_by_side,
    word_spans,
)

DIFF = """--- a/app.py
+++ b/app.py
@@ -3,4 +3,4 @@
 def main():
-    return foo(1)
+    return bar(1)
 # end
--- not a header inside a hunk
"""


def test_rows_carry_old_and_new_line_numbers() -> None:
    rows = diff_rows(DIFF)
    assert [(r.kind, r.old_no, r.new_no) for r in rows] == [
        ("hunk", None, None),
        ("context", 3, 3),
        ("removed", 4, None),
        ("added", None, 4),
        ("context", 5, 5),
        ("removed", 6, None),  # a removed line that looks like a header is still a line
    ]
    assert rows[5].text == "-- not a header inside a hunk"


def test_changed_words_are_marked_on_both_sides() -> None:
    rows = diff_rows(DIFF)
    old, new = rows[2], rows[3]
    assert [old.text[s:e] for s, e in old.spans] == ["foo"]
    assert [new.text[s:e] for s, e in new.spans] == ["bar"]


def test_lines_with_little_in_common_are_changed_whole() -> None:
    assert word_spans("completely different words", "x = 1") is None
    assert word_spans("a" * 5000, "b" * 5000) is None  # too long to be worth it
    spans = word_spans("total = price * 2", "total = price * 3")
    assert spans == (((16, 17),), ((16, 17),))


def test_side_by_side_pairs_removed_with_added_lines() -> None:
    diff = "@@ -1,3 +1,2 @@\n-a one\n-b two\n+a 1\n c\n"
    rows = side_by_side(diff_rows(diff))
    shown = [(r.left.text if r.left else None, r.right.text if r.right else None) for r in rows[1:]]
    assert shown == [("a one", "a 1"), ("b two", None), ("c", "c")]


def test_prepare_makes_the_previews_in_the_thread_that_prepares(
    make_session: Any, cmd: Any, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (workspace / "f.py").write_text("x = 1\ny = 2\n")
    threads: list[int] = []
    original = preview_module.preview_change

    def recording(change: Any) -> Any:
        threads.append(threading.get_ident())
        return original(change)

    monkeypatch.setattr(preview_module, "preview_change", recording)
    session = make_session()
    run = session.prepare(
        cmd("w1", "fs.write", path="f.py", content_b64="eCA9IDEKeSA9IDMK")  # x = 1, y = 3
        + "\n"
        + cmd("d1", "fs.delete", path="f.py")
    )
    assert threads == [threading.get_ident()] * 2
    first, second = run.pending
    assert first.previews[0].badge == "edited"
    assert first.previews[0].verb == "Will write f.py (+1 -1)"
    assert [line.kind for line in first.previews[0].lines][-2:] == ["removed", "added"]
    assert second.previews[0].verb == "Will delete f.py (moved to the trash, undoable)"
    assert isinstance(second.previews[0].lines[0], DiffLine)


def test_a_binary_file_is_described_not_diffed(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    (workspace / "blob.bin").write_bytes(b"\xff\xfe\x00binary")
    run = make_session().prepare(cmd("d1", "fs.delete", path="blob.bin"))
    shown = run.pending[0].previews[0]
    assert shown.lines == (DiffLine("note", shown.diff),)
    assert "binary or non-UTF-8" in shown.diff


def test_the_batch_label_names_only_the_approved_writes(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    from llm_operator.core.plan.session import APPROVE, REJECT

    session = make_session()
    run = session.prepare(
        "\n".join(
            [
                cmd("w1", "fs.write", path="one.txt", content="1"),
                cmd("w2", "fs.write", path="two.txt", content="2"),
                cmd("w3", "fs.write", path="three.txt", content="3"),
            ]
        )
    )
    first, second, third = run.pending
    session.execute(run, {first.index: APPROVE, second.index: REJECT, third.index: APPROVE})
    newest = session.journal.last_batch()
    assert newest is not None
    assert newest.label == "w1, w3"


def test_odd_characters_inside_a_line_do_not_split_it() -> None:
    diff = "@@ -1,2 +1,2 @@\n-a\rb\x0cc\u2028d\n+abcd\n same\n"
    rows = diff_rows(diff)
    assert [(r.kind, r.old_no, r.new_no) for r in rows] == [
        ("hunk", None, None),
        ("removed", 1, None),
        ("added", None, 1),
        ("context", 2, 2),
    ]
    assert rows[1].text == "a\rb\x0cc\u2028d"
