"""Previews are data the session makes while preparing: numbered rows, changed words."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llm_operator.core.plan import diff_rows as rows_module
from llm_operator.core.plan import preview as preview_module
from llm_operator.core.plan import review_notes
from llm_operator.core.plan import word_spans as spans_module
from llm_operator.core.plan.diff_rows import DiffLine, side_by_side
from llm_operator.core.plan.preview import ChangePreview, diff_rows
from llm_operator.core.plan.word_spans import word_spans
from support.actions import b64
from support.examples import examples

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


def _unmarked(text: str, spans: tuple[tuple[int, int], ...]) -> str:
    """``text`` without its marked spans, a NUL where each was."""
    out, done = [], 0
    for start, end in spans:
        out += [text[done:start], "\0"]
        done = end
    return "".join(out) + text[done:]


WORDS = st.lists(st.sampled_from(["a", "b", " ", "x1", ",", "(", ")", "  "]), max_size=150)


@settings(max_examples=examples(300), deadline=None)
@given(old=WORDS, new=WORDS, work=st.sampled_from([None, 0, 10**9]))
def test_what_is_not_marked_is_the_same_on_both_sides(
    old: list[str], new: list[str], work: int | None
) -> None:
    # By difflib (work left, few words) or at the ends only (no work left, or over
    # MAX_SPAN_WORDS words): every difference is inside a marked span.
    old_text, new_text = "".join(old), "".join(new)
    budget = None if work is None else spans_module.SpanWork(work=work)
    spans = word_spans(old_text, new_text, budget)
    if spans is None:
        return
    # A span on one side only (words added or removed there) has no mark on the other.
    old_rest = _unmarked(old_text, spans[0]).replace("\0", "")
    new_rest = _unmarked(new_text, spans[1]).replace("\0", "")
    assert old_rest == new_rest


def test_repeated_words_are_matched_at_the_ends_past_the_word_cap() -> None:
    # "a a a ..." against "a b a b ...": difflib took 3.5 s for one such pair of 400 words
    # (about the cube of the word count). Past MAX_SPAN_WORDS the lines are matched at
    # their common ends only.
    old = "keep = " + "a " * 200 + "# end"
    new = "keep = " + "a " * 100 + "b " + "a " * 99 + "# end"
    assert len(list(spans_module._TOKEN.finditer(old))) > spans_module.MAX_SPAN_WORDS
    spans = word_spans(old, new)
    assert spans is not None
    (old_span,), (new_span,) = spans
    assert old[slice(*old_span)] == "a"
    assert new[slice(*new_span)] == "b"
    assert old_span == new_span == (7 + 200, 7 + 201)


def test_a_preview_spends_at_most_its_work_on_difflib() -> None:
    # 300 pairs of 90 words each: difflib for as many as SPAN_WORK allows, the ends for the
    # rest, and no spans at all past MAX_SPAN_PAIRS.
    line_old = ("a " * 45).strip()
    line_new = ("a " * 44) + "b"
    count = spans_module.MAX_SPAN_PAIRS + 300
    diff = f"@@ -1,{count} +1,{count} @@\n"
    diff += "".join(f"-{line_old} {n}\n" for n in range(count))
    diff += "".join(f"+{line_new} {n}\n" for n in range(count))
    work = spans_module.SpanWork()
    pairs = rows_module.pairs(list(rows_module.numbered_rows(diff)))
    matched = 0
    for old, new in pairs[: spans_module.MAX_SPAN_PAIRS]:
        before = work.work
        assert word_spans(old.text, new.text, work) is not None
        matched += work.work < before
    assert 0 < matched < spans_module.MAX_SPAN_PAIRS
    assert work.work >= 0
    rows = diff_rows(diff)
    marked = [row for row in rows if row.kind == "added" and row.spans]
    assert len(marked) == spans_module.MAX_SPAN_PAIRS
    assert [row.text[s:e] for row in marked[:1] for s, e in row.spans] == ["b"]


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
    from llm_operator.core.plan.run import APPROVE, REJECT

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


def test_the_previews_of_one_run_share_one_budget_for_their_words() -> None:
    # Three writes of 1,000 changed lines each: a reply of many writes gets the marks of
    # MAX_SPAN_PAIRS pairs in all, not of that many per write.
    count = 1000
    diff = f"@@ -1,{count} +1,{count} @@\n"
    diff += "".join(f"-total = price * {n}\n" for n in range(count))
    diff += "".join(f"+total = price * {n}x\n" for n in range(count))
    previews = [
        ChangePreview(f"f{k}.py", "edited", diff, count, count, rows_module.numbered_rows(diff))
        for k in range(3)
    ]
    preview_module.mark_words(previews)
    marked = [sum(1 for row in p.lines if row.kind == "added" and row.spans) for p in previews]
    assert marked == [count, spans_module.MAX_SPAN_PAIRS - count, 0]
    alone = ChangePreview("g.py", "edited", diff, count, count, rows_module.numbered_rows(diff))
    assert sum(1 for row in alone.lines if row.kind == "added" and row.spans) == count


def test_a_diff_too_long_to_show_whole_is_cut_and_says_so(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    # 150,000 "x" become 150,000 lines: the review shows the first MAX_REVIEW_LINES lines
    # of the diff, says it is cut, and counts every line.
    (workspace / "big.txt").write_text("x" * 150_000, encoding="utf-8")
    edits = json.dumps({"version": 1, "edits": [{"op": "replaceAll", "find": "x", "text": "x\n"}]})
    run = make_session().prepare(cmd("e1", "fs.applyEdits", path="big.txt", edits_b64=b64(edits)))
    (preview,) = run.pending[0].previews
    assert (preview.added, preview.removed) == (150_000, 1)
    assert preview.verb == "Will write big.txt (+150000 -1)"
    assert preview.review[-1] == (
        "Look closely: the diff is too long to show whole: its first 20,000 lines are "
        "shown, of 150,001 lines added and removed"
    )
    assert preview.rows[-1] == DiffLine(
        "note", "\\ The diff is cut here: it goes on past 20,000 lines"
    )
    assert sum(row.kind in ("added", "removed") for row in preview.rows) == 20_000


def test_a_diff_of_any_length_up_to_the_cut_is_shown_whole(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    (workspace / "big.txt").write_text("x" * 1000, encoding="utf-8")
    edits = json.dumps({"version": 1, "edits": [{"op": "replaceAll", "find": "x", "text": "x\n"}]})
    run = make_session().prepare(cmd("e1", "fs.applyEdits", path="big.txt", edits_b64=b64(edits)))
    (preview,) = run.pending[0].previews
    assert preview.cut is None
    assert preview.review == ("Will write big.txt (+1000 -1)",)
    assert not any(row.text.startswith("\\ The diff is cut") for row in preview.rows)


def test_a_look_alike_letter_after_a_million_invisible_characters_is_named() -> None:
    line = "\u200b" * 1_000_000 + "p\uff41y"  # a fullwidth a, far along one line
    assert review_notes._odd_letter(line) == (
        "a letter in a form that passes for another",
        "\uff41",
        "read as a",
    )
    assert review_notes._odd_letter("\u200b" * 1_000_000 + "pay \u00e9t\u00e9") is None


def test_look_alike_letters_are_looked_for_in_so_many_characters_and_the_rest_is_named() -> None:
    # Forty million Cyrillic letters on one line took minutes: each letter's script is a
    # lookup. The first LOOK_CHARS characters are looked at; the review names the rest.
    limit = review_notes.LOOK_CHARS
    near = "\u0430" * 10 + " p\u0430ypal " + "\u0430" * (limit + 5_000)
    rows = (DiffLine("added", near, None, 1),)
    note = review_notes.mixed_scripts(rows)
    assert note is not None
    assert note.startswith("Look closely: 1 new line has a word mixing letters of two scripts")
    unchecked = len(near) - limit
    assert note.endswith(
        f"; {unchecked:,} characters of new lines past the first {limit:,} were not looked "
        "at for such letters"
    )
    far = "\u0430" * (limit + 10) + " p\u0430ypal"  # past the limit: not looked at
    note = review_notes.mixed_scripts((DiffLine("added", far, None, 1),))
    assert note == (
        f"Look closely: {len(far) - limit:,} characters of new lines past the first "
        f"{limit:,} were not looked at for such letters"
    )
    assert review_notes.mixed_scripts((DiffLine("added", "\u0430" * 100, None, 1),)) is None


def test_a_mixed_word_names_its_first_letter_of_the_other_script() -> None:
    assert review_notes._mixed_word("a p\u0430yp\u03b1l b") == ("\u0430", "CYRILLIC", "LATIN")
    assert review_notes._mixed_word("\u0430\u0431\u0432 \u03b1\u03b2") is None
