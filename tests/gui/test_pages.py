"""Pages built from preview and result data: one row style per line, nothing recomputed."""

from __future__ import annotations

from llm_operator.core.outcome import Outcome
from llm_operator.core.plan.diff_rows import DiffLine
from llm_operator.core.plan.preview import ChangePreview, diff_rows
from llm_operator.core.protocol.encoder import Result
from llm_operator.gui.pages import (
    MAX_SHOWN_CHARS,
    ResultSource,
    laid_out,
    readable_details,
    result_page,
    shown_diff_line,
    side_by_side_pages,
    unified_page,
)

DIFF = "--- a/x.py\n+++ b/x.py\n@@ -1,2 +1,2 @@\n keep\n-old\r line\n+new line\n"


def preview() -> ChangePreview:
    return ChangePreview("x.py", "edited", DIFF, 1, 1, diff_rows(DIFF))


def test_every_line_has_its_style_and_a_carriage_return_cannot_split_a_row() -> None:
    page = unified_page(preview())
    assert len(page.lines) == len(page.rows) == 4
    assert page.lines[2] == "    2       - old<U+000D> line"
    assert [row.kind for row in page.rows] == ["hunk", "context", "removed", "added"]
    assert page.rows[3].code_at == len("          2 + ")
    assert page.rows[3].language == "x.py"


def test_side_by_side_pages_have_one_row_per_pair() -> None:
    left, right = side_by_side_pages(preview())
    assert len(left.lines) == len(right.lines) == 3
    assert left.lines[2].endswith("- old<U+000D> line")
    assert right.lines[2].endswith("+ new line")


def test_error_payloads_read_as_their_message() -> None:
    assert readable_details('{"message": "no such file", "related_id": "r1"}') == (
        "no such file\n(related id: r1)"
    )
    assert readable_details('{"not": "an error"}') == '{"not": "an error"}'
    assert readable_details("{broken json}") == "{broken json}"


def test_a_rejected_result_is_titled_as_rejected() -> None:
    results = [
        Result("w1", Outcome(False, "fs.write failed (ERR_REJECTED_BY_USER): no")),
        Result("r1", Outcome(True, "Read a.py", "x = 1\n")),
    ]
    sources = {
        "w1": ResultSource("fs.write", "b.txt", rejected=True),
        "r1": ResultSource("fs.read", "a.py"),
    }
    page = result_page(results, sources)
    assert page.lines[0] == "\u2298 w1  fs.write b.txt  (rejected by you)"
    assert page.rows[0].kind == "title-rejected"
    at = page.lines.index("    x = 1")
    assert page.rows[at].kind == "code"
    assert page.rows[at].language == "a.py"


def test_a_very_long_diff_line_is_laid_out_up_to_the_cap_and_says_how_much_more() -> None:
    # A line of millions of characters took the window minutes and gigabytes to lay out.
    old = "x = 1"
    new = "x = " + "a" * 9_000 + "\u200b" + "b" * 2_000
    diff = f"--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-{old}\n+{new}\n"
    rows = diff_rows(diff)
    shown, spans = shown_diff_line(rows[-1])
    more = len(new) - MAX_SHOWN_CHARS
    assert (
        shown == new[:MAX_SHOWN_CHARS] + f" ... [{more:,} more characters of this line not shown]"
    )
    assert all(end <= MAX_SHOWN_CHARS for _, end in spans)
    page = unified_page(ChangePreview("x.py", "edited", diff, 1, 1, rows))
    assert page.lines[-1].endswith(f"[{more:,} more characters of this line not shown]")


def test_a_short_line_is_laid_out_whole() -> None:
    line = diff_rows("@@ -1 +1 @@\n-a\n+b\u200bc\n")[-1]
    assert shown_diff_line(line) == ("b<U+200B>c", ())


def test_a_page_lays_out_so_many_characters_and_names_the_rows_left_out() -> None:
    # 2,000 rows of 4,999 zero-width spaces, each shown as an eight-character marker,
    # kept the review from opening. A page lays out MAX_PAGE_CHARS and names the rest.
    from llm_operator.gui.dialogs.diff_pages import side_by_side_rows, unified_rows

    body = "\u200b" * 4_999
    diff = "@@ -1,2000 +1,2000 @@\n" + f"-{body}a\n" * 2000 + f"+{body}b\n" * 2000
    rows = diff_rows(diff)
    shown = laid_out(rows)
    kept = len(shown) - 1
    assert 0 < kept < len(rows)
    assert shown[:kept] == rows[:kept]
    assert shown[-1] == DiffLine(
        "note",
        f"\\ The window lays out no more of this diff: {len(rows) - kept:,} more rows not shown",
    )
    preview = ChangePreview("x.txt", "edited", diff, 2000, 2000, rows)
    assert len(unified_rows(preview)) == len(shown)
    assert unified_page(preview).lines[-1] == shown[-1].text
    assert len(side_by_side_rows(preview)) <= len(shown)
    assert laid_out(rows[:3]) == rows[:3]
