"""apply_unified_diff: golden patches, every error code, offsets, and git apply as referee."""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llm_operator.core.engines.diffing import unified_diff
from llm_operator.core.engines.patching import PatchResult, apply_unified_diff
from llm_operator.core.errors import OperatorError
from support.examples import examples
from support.paths import DATA as TEST_DATA

DATA = TEST_DATA / "patches"
PATHS = {"no_newline": "tail.txt", "create": "new.txt"}

BASE = "".join(f"line {n}\n" for n in range(1, 21))


def golden_cases(kind: str) -> list[str]:
    names = sorted(p.stem for p in DATA.glob("*.patch"))
    errors = {p.stem for p in DATA.glob("*.error")}
    return [n for n in names if (n in errors) == (kind == "error")]


def read(name: str, suffix: str) -> str:
    return (DATA / f"{name}.{suffix}").read_bytes().decode("utf-8")


def apply_error(text: str, patch: str, path: str = "f.txt") -> OperatorError:
    with pytest.raises(OperatorError) as caught:
        apply_unified_diff(text, patch, path)
    return caught.value


# -- golden samples ---------------------------------------------------------------


@pytest.mark.parametrize("name", golden_cases("ok"))
def test_golden_patch_applies(name: str) -> None:
    result = apply_unified_diff(
        read(name, "before"), read(name, "patch"), PATHS.get(name, "greeter.py")
    )
    assert result.text == read(name, "after")


@pytest.mark.parametrize("name", golden_cases("error"))
def test_golden_patch_fails_with_its_code(name: str) -> None:
    error = apply_error(read(name, "before"), read(name, "patch"), "greeter.py")
    assert error.code == read(name, "error").strip()


def test_golden_cases_exist() -> None:
    assert len(golden_cases("ok")) >= 5
    assert len(golden_cases("error")) >= 3


def test_golden_llm_style_patch_reports_its_offset() -> None:
    result = apply_unified_diff(read("llm_style", "before"), read("llm_style", "patch"), "g.py")
    assert result.offsets == (-2,)
    assert result.summary_note == "1 hunk applied; hunk 1 at offset -2"


# -- success paths ------------------------------------------------------------------


def test_single_hunk_without_headers() -> None:
    patch = "@@ -3,3 +3,3 @@\n line 3\n-line 4\n+LINE FOUR\n line 5\n"
    result = apply_unified_diff(BASE, patch, "f.txt")
    assert result == PatchResult(
        BASE.replace("line 4\n", "LINE FOUR\n"),
        1,
        (0,),
        "1 hunk applied",
        kept=((0, 0, 2), (2, 2, 1), (4, 4, 1), (5, 5, 15)),
    )


def test_several_hunks_and_section_text() -> None:
    patch = (
        "--- a/f.txt\n+++ b/f.txt\n"
        "@@ -1,2 +1,3 @@ section text\n+line 0\n line 1\n line 2\n"
        "@@ -10,3 +11,2 @@ def other():\n line 10\n-line 11\n line 12\n"
        "@@ -20 +20 @@\n-line 20\n+line twenty\n"
    )
    result = apply_unified_diff(BASE, patch, "f.txt")
    expected = ("line 0\n" + BASE).replace("line 11\n", "").replace("line 20\n", "line twenty\n")
    assert result.text == expected
    assert result.hunks == 3
    assert result.offsets == (0, 0, 0)


def test_counts_default_to_one() -> None:
    result = apply_unified_diff("a\nb\nc\n", "@@ -2 +2 @@\n-b\n+B\n", "f.txt")
    assert result.text == "a\nB\nc\n"


def test_hunk_found_below_and_above_reports_offsets() -> None:
    patch = (
        "@@ -2,3 +2,3 @@\n line 6\n-line 7\n+seven\n line 8\n"
        "@@ -17,3 +17,3 @@\n line 14\n-line 15\n+fifteen\n line 16\n"
    )
    result = apply_unified_diff(BASE, patch, "f.txt")
    assert result.text == BASE.replace("line 7\n", "seven\n").replace("line 15\n", "fifteen\n")
    assert result.offsets == (4, -3)
    assert result.summary_note == "2 hunks applied; hunk 1 at offset +4, hunk 2 at offset -3"


TIE_TEXT = "x\nA\nB\nx\nx\nx\nx\nA\nB\n"
TIE_PATCH = "--- a/f.txt\n+++ b/f.txt\n@@ -5,2 +5,2 @@\n A\n-B\n+C\n"


def test_equal_distance_is_refused_with_both_lines() -> None:
    # "A B" sits three lines above and three lines below the stated line 5.
    error = apply_error(TIE_TEXT, TIE_PATCH)
    assert error.code == "ERR_PATCH_AMBIGUOUS"
    assert error.details["candidate_lines"] == [2, 8]
    assert "lines 2 and 8" in error.message


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_git_apply_picks_one_of_two_equal_places_silently(tmp_path: Path) -> None:
    # The case the refusal exists for: git edits the later copy and reports success.
    by_git, stderr = git_apply(tmp_path, "f.txt", TIE_TEXT, TIE_PATCH)
    assert by_git == "x\nA\nB\nx\nx\nx\nx\nA\nC\n"
    assert git_offsets(stderr, 1) == (3,)


def test_nearest_place_wins_over_a_farther_one() -> None:
    text = "A\nB\n" + "x\n" * 10 + "A\nB\n" + "x\n" * 3
    patch = "@@ -10,2 +10,2 @@\n A\n-B\n+C\n"
    result = apply_unified_diff(text, patch, "f.txt")
    assert result.offsets == (3,)
    assert result.text.count("C\n") == 1
    assert result.text.endswith("A\nC\n" + "x\n" * 3)


def test_two_hunks_claiming_the_same_lines_are_refused() -> None:
    text = "A\nB\nc\nd\nA\nB\n"
    patch = "@@ -1,2 +1,2 @@\n A\n-B\n+b1\n@@ -1,2 +1,2 @@\n A\n-B\n+b2\n"
    error = apply_error(text, patch)
    assert error.code == "ERR_PATCH_OVERLAP"
    assert error.details["hunks"] == [1, 2]


OUT_OF_ORDER_TEXT = "".join(
    f"def f{n}():\n    x = {n}\n    return x\n\n" for n in (1, 2, 1, 2)
)  # the same two functions twice: f1 at lines 1 and 9, f2 at lines 5 and 13
OUT_OF_ORDER_PATCH = (
    "@@ -9,3 +9,3 @@\n def f1():\n-    x = 1\n+    x = 10\n     return x\n"
    "@@ -5,3 +5,3 @@\n def f2():\n-    x = 2\n+    x = 20\n     return x\n"
)


def test_hunks_out_of_order_each_land_nearest_their_own_line() -> None:
    result = apply_unified_diff(OUT_OF_ORDER_TEXT, OUT_OF_ORDER_PATCH, "f.py")
    lines = result.text.split("\n")
    assert lines[5] == "    x = 20"  # the f2 at line 5, as stated
    assert lines[9] == "    x = 10"  # the f1 at line 9, as stated
    assert lines[1] == "    x = 1"
    assert lines[13] == "    x = 2"
    assert result.offsets == (0, 0)


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_hunks_out_of_order_land_where_git_apply_puts_them(tmp_path: Path) -> None:
    patch = "--- a/f.py\n+++ b/f.py\n" + OUT_OF_ORDER_PATCH
    by_git, _ = git_apply(tmp_path, "f.py", OUT_OF_ORDER_TEXT, patch)
    assert apply_unified_diff(OUT_OF_ORDER_TEXT, patch, "f.py").text == by_git


def test_create_file_from_dev_null() -> None:
    patch = "--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n"
    assert apply_unified_diff("", patch, "new.txt").text == "one\ntwo\n"


def test_create_file_without_final_newline() -> None:
    patch = "@@ -0,0 +1,2 @@\n+one\n+two\n\\ No newline at end of file\n"
    assert apply_unified_diff("", patch, "new.txt").text == "one\ntwo"


def test_remove_every_line_with_dev_null_gives_empty_text_and_says_it_is_no_delete() -> None:
    patch = "--- a/f.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n"
    done = apply_unified_diff("a\nb\n", patch, "f.txt")
    assert done.text == ""
    assert "left the file empty, not deleted: fs.delete deletes a file" in done.summary_note


def test_add_final_newline() -> None:
    patch = "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n"
    assert apply_unified_diff("a\nb", patch, "f.txt").text == "a\nb\n"


def test_remove_final_newline() -> None:
    patch = "@@ -1,2 +1,2 @@\n a\n-b\n+b\n\\ No newline at end of file\n"
    assert apply_unified_diff("a\nb\n", patch, "f.txt").text == "a\nb"


def test_context_line_without_newline_keeps_it_missing() -> None:
    patch = "@@ -1,2 +1,3 @@\n-a\n+A\n+A2\n b\n\\ No newline at end of file\n"
    assert apply_unified_diff("a\nb", patch, "f.txt").text == "A\nA2\nb"


def test_append_at_end_of_file() -> None:
    patch = "@@ -19,2 +19,3 @@\n line 19\n line 20\n+line 21\n"
    assert apply_unified_diff(BASE, patch, "f.txt").text == BASE + "line 21\n"


def test_pure_insertion_without_context_at_its_stated_line() -> None:
    patch = "@@ -2,0 +3 @@\n+inserted\n"
    assert apply_unified_diff("a\nb\nc\n", patch, "f.txt").text == "a\nb\ninserted\nc\n"


@pytest.mark.parametrize(
    "headers",
    [
        "--- a/src/f.txt\n+++ b/src/f.txt\n",
        "--- src/f.txt\n+++ src/f.txt\n",
        "--- ./src/f.txt\t2024-05-01 10:00:00 +0200\n+++ src/f.txt\t2024-05-01 10:01:00 +0200\n",
        "diff --git a/src/f.txt b/src/f.txt\nindex 3b18e51..a9c4f1e 100644\n"
        "--- a/src/f.txt\n+++ b/src/f.txt\n",
        '--- "a/src/f.txt"\n+++ "b/src/f.txt"\n',
        "\n",
    ],
)
def test_accepted_headers(headers: str) -> None:
    patch = headers + "@@ -1,2 +1,2 @@\n-a\n+A\n b\n"
    assert apply_unified_diff("a\nb\n", patch, "src/f.txt").text == "A\nb\n"


def test_crlf_patch_is_normalised() -> None:
    patch = "--- a/f.txt\r\n+++ b/f.txt\r\n@@ -1,2 +1,2 @@\r\n-a\r\n+A\r\n b\r\n"
    assert apply_unified_diff("a\nb\n", patch, "f.txt").text == "A\nb\n"


def test_empty_line_counts_as_context_when_counts_agree() -> None:
    text = "a\n\nb\nc\n"
    patch = "@@ -1,4 +1,4 @@\n a\n\n-b\n+B\n c\n"
    assert apply_unified_diff(text, patch, "f.txt").text == "a\n\nB\nc\n"


def test_trailing_empty_lines_are_context_only_as_far_as_counts_need() -> None:
    text = "a\nb\n\nc\n"
    # The header needs one trailing empty context line; the second one is a separator.
    patch = "@@ -1,3 +1,3 @@\n a\n-b\n+B\n\n\n"
    assert apply_unified_diff(text, patch, "f.txt").text == "a\nB\n\nc\n"


def test_blank_separators_between_hunks() -> None:
    patch = "@@ -1 +1 @@\n-line 1\n+one\n\n@@ -20 +20 @@\n-line 20\n+twenty\n\n"
    result = apply_unified_diff(BASE, patch, "f.txt")
    assert result.text.startswith("one\n")
    assert result.text.endswith("twenty\n")


def test_removed_line_that_looks_like_a_header() -> None:
    text = "-- a\n++ b\nc\n"
    patch = "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,1 @@\n--- a\n-++ b\n c\n"
    assert apply_unified_diff(text, patch, "f.txt").text == "c\n"


# -- ERR_INVALID_PATCH ------------------------------------------------------------


@pytest.mark.parametrize(
    ("patch", "fragment"),
    [
        ("", "no hunks"),
        ("--- a/f.txt\n+++ b/f.txt\n", "no hunks"),
        ("@@ -1,2 +1,2\n a\n b\n", "not a valid hunk header"),
        ("@@ -x +1 @@\n a\n", "not a valid hunk header"),
        ("@@ -0,2 +1,2 @@\n a\n b\n", "old start 0"),
        ("@@ -1,2 +1,2 @@\n a\n*b\n", "'*b'"),
        ("```diff\n@@ -1 +1 @@\n-a\n+b\n```\n", "markdown fence"),
        ("Here is the patch:\n@@ -1 +1 @@\n-a\n+b\n", "not part of a unified diff header"),
        ("+++ b/f.txt\n@@ -1 +1 @@\n-a\n+b\n", "must follow a '--- ' line"),
        ("--- a/f.txt\n@@ -1 +1 @@\n-a\n+b\n", "must be followed by a '+++ ' line"),
        ("--- /dev/null\n+++ /dev/null\n@@ -0,0 +1 @@\n+a\n", "both header lines"),
        ("@@ -0,0 +0,0 @@\n", "has no lines"),
        ("Binary files a/f.txt and b/f.txt differ\n", "binary"),
        ("diff --git a/f.txt b/g.txt\nrename from f.txt\nrename to g.txt\n", "two files"),
        ("@@ -1,2 +1,2 @@\n-a\n\\ No newline at end of file\n b\n+a\n", "same side"),
        ("@@ -1 +1 @@\n\\ No newline at end of file\n-a\n+b\n", "must follow a hunk line"),
        (
            "@@ -1,2 +1,2 @@\n-a\n+b\n\\ No newline at end of file\n c\n@@ -5 +5 @@\n-x\n+y\n",
            "same side",
        ),
        ("--- /dev/null\n+++ b/f.txt\n@@ -1 +1 @@\n-a\n+b\n", "have old lines"),
        ("--- a/f.txt\n+++ /dev/null\n@@ -1 +1 @@\n-a\n+b\n", "add lines"),
    ],
)
def test_malformed_patch(patch: str, fragment: str) -> None:
    error = apply_error("a\nb\nc\n", patch)
    assert error.code == "ERR_INVALID_PATCH"
    assert fragment.lower() in error.message.lower()


def test_no_newline_marker_before_another_hunk_is_refused() -> None:
    patch = "@@ -1 +1 @@\n-a\n+A\n\\ No newline at end of file\n@@ -3 +3 @@\n-c\n+C\n"
    error = apply_error("a\nb\nc\n", patch)
    assert error.code == "ERR_INVALID_PATCH"
    assert "more hunks follow" in error.message


def test_a_body_cut_short_names_the_hunk_and_the_counts() -> None:
    # "line 7" lost its leading space: the hunk cannot be recounted (test_patch_recount).
    patch = "@@ -1,2 +1,2 @@\n a\n-b\n+B\n@@ -5,3 +5,4 @@\n line 5\n-line 6\n+six\nline 7\n"
    error = apply_error(BASE, patch)
    assert error.code == "ERR_INVALID_PATCH"
    assert "hunk 2 (@@ -5,3 +5,4 @@)" in error.message
    assert "header counts 3 old and 4 new" in error.message
    assert "body has 2 old" in error.message
    assert error.details["header_counts"] == [3, 4]
    assert error.details["body_counts"] == [2, 2]


def test_empty_line_that_breaks_the_counts_is_read_as_context() -> None:
    # Recounted, the empty line is an empty context line the file does not have there.
    patch = "@@ -1,3 +1,3 @@\n a\n\n-b\n+B\n c\n"
    error = apply_error("a\nb\nc\n", patch)
    assert error.code == "ERR_PATCH_CONTEXT_MISMATCH"
    assert error.details["expected"] == ["a", "", "b", "c"]


def test_two_files_are_refused() -> None:
    patch = (
        "--- a/f.txt\n+++ b/f.txt\n@@ -1 +1 @@\n-a\n+A\n"
        "--- a/g.txt\n+++ b/g.txt\n@@ -1 +1 @@\n-x\n+X\n"
    )
    error = apply_error("a\nb\n", patch)
    assert error.code == "ERR_INVALID_PATCH"
    assert "second file" in error.message


def test_second_git_header_is_refused() -> None:
    patch = "diff --git a/f.txt b/f.txt\n@@ -1 +1 @@\n-a\n+A\ndiff --git a/g.txt b/g.txt\n"
    assert apply_error("a\nb\n", patch).code == "ERR_INVALID_PATCH"


@pytest.mark.parametrize(
    "headers",
    [
        "--- a/other.txt\n+++ b/other.txt\n",
        "--- a/f.txt\n+++ b/g.txt\n",
        "--- f.txt\n+++ x/f.txt\n",
    ],
)
def test_header_naming_another_file(headers: str) -> None:
    error = apply_error("a\n", headers + "@@ -1 +1 @@\n-a\n+b\n", "f.txt")
    assert error.code == "ERR_INVALID_PATCH"
    assert "names another file" in error.message
    assert "'--- a/f.txt'" in error.message


# -- ERR_PATCH_CONTEXT_MISMATCH -----------------------------------------------------


def test_mismatch_shows_expected_and_nearest_lines() -> None:
    patch = "@@ -8,3 +8,3 @@\n line 8\n-line 9\n+nine\n line ten\n"
    error = apply_error(BASE, patch, "f.txt")
    assert error.code == "ERR_PATCH_CONTEXT_MISMATCH"
    assert error.details == {
        "hunk": 1,
        "header": "@@ -8,3 +8,3 @@",
        "expected": ["line 8", "line 9", "line ten"],
        "found_at_line": 8,
        "found": ["line 8", "line 9", "line 10"],
    }
    assert "hunk 1 (@@ -8,3 +8,3 @@) does not apply to f.txt" in error.message
    assert ">    10 | line 10" in error.message
    assert ">    10 | line ten" in error.message
    assert "      8 | line 8" in error.message


def test_mismatch_nearest_place_is_where_most_lines_match() -> None:
    text = "a\nb\nc\nd\n" + "z\n" * 10 + "p\nq\nr\ns\n"
    patch = "@@ -1,4 +1,4 @@\n p\n q\n-R\n+r2\n s\n"
    error = apply_error(text, patch)
    assert error.details["found_at_line"] == 15
    assert error.details["found"] == ["p", "q", "r", "s"]
    assert ">    17 | r" in error.message


def test_mismatch_notes_whitespace_only_difference() -> None:
    patch = "@@ -1,2 +1,2 @@\n a\n-\tb\n+c\n"
    error = apply_error("a\n    b\n", patch)
    assert error.code == "ERR_PATCH_CONTEXT_MISMATCH"
    assert "differs only in whitespace" in error.message


def test_mismatch_on_final_newline_state() -> None:
    patch = "@@ -1,2 +1,2 @@\n a\n-b\n+c\n"
    error = apply_error("a\nb", patch)
    assert error.code == "ERR_PATCH_CONTEXT_MISMATCH"
    assert "No newline at end of file" in error.message


def test_marker_claims_end_of_file_that_is_not() -> None:
    patch = "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n"
    assert apply_error("a\nb\nc\n", patch).code == "ERR_PATCH_CONTEXT_MISMATCH"


def test_hunks_whose_places_overlap_are_refused() -> None:
    patch = "@@ -3,2 +3,2 @@\n line 3\n-line 4\n+four\n@@ -2,2 +2,2 @@\n line 2\n-line 3\n+3\n"
    error = apply_error(BASE, patch)
    assert error.code == "ERR_PATCH_OVERLAP"
    assert error.details == {"hunks": [2, 1], "lines": [2, 3]}
    assert "overlapping lines" in error.message


def test_creating_a_file_that_has_content_is_a_mismatch() -> None:
    patch = "--- /dev/null\n+++ b/f.txt\n@@ -0,0 +1 @@\n+a\n"
    error = apply_error("x\n", patch)
    assert error.code == "ERR_PATCH_CONTEXT_MISMATCH"
    assert "already has 1 line;" in error.message


def test_deleting_a_file_that_keeps_lines_is_a_mismatch() -> None:
    patch = "--- a/f.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-a\n"
    assert apply_error("a\nb\n", patch).code == "ERR_PATCH_CONTEXT_MISMATCH"


def test_pure_insertion_past_the_end_is_a_mismatch() -> None:
    error = apply_error("a\nb\n", "@@ -5,0 +6 @@\n+x\n")
    assert error.code == "ERR_PATCH_CONTEXT_MISMATCH"
    assert "nothing at that place" in error.message or "has 2 lines" in error.message


def test_insertion_after_a_last_line_without_newline_is_a_mismatch() -> None:
    assert apply_error("a\nb", "@@ -2,0 +3 @@\n+c\n").code == "ERR_PATCH_CONTEXT_MISMATCH"


def test_context_on_empty_text_is_a_mismatch() -> None:
    error = apply_error("", "@@ -1,2 +1,2 @@\n a\n-b\n+c\n")
    assert error.code == "ERR_PATCH_CONTEXT_MISMATCH"
    assert error.details["found"] == []


def test_long_hunk_message_is_trimmed_but_details_are_whole() -> None:
    text = "".join(f"row {n}\n" for n in range(200))
    body = "".join(f" row {n}\n" for n in range(100)).replace(" row 70\n", " row seventy\n")
    error = apply_error(text, f"@@ -1,100 +1,100 @@\n{body}")
    assert len(error.details["expected"]) == 100
    assert "55 lines above not shown" in error.message
    assert ">    71 | row seventy" in error.message


# -- speed ------------------------------------------------------------------------


def test_big_file_three_hunks_is_fast() -> None:
    lines = [f"value_{n} = compute({n * 7919 % 10007})" for n in range(100_000)]
    text = "\n".join(lines) + "\n"
    after = list(lines)
    for n in (1_000, 50_000, 99_000):
        after[n] += "  # changed"
    patch = unified_diff(text, "\n".join(after) + "\n", "big.py")
    start = time.perf_counter()
    result = apply_unified_diff(text, patch, "big.py")
    elapsed = time.perf_counter() - start
    assert result.text.count("# changed") == 3
    assert elapsed < 0.25, f"3 hunks on 100,000 lines took {elapsed:.3f}s"


# -- hypothesis ---------------------------------------------------------------------

line_lists = st.lists(st.sampled_from(["a", "b", "c", "", " d", "e f"]), max_size=30)


@settings(max_examples=examples(300), deadline=None)
@given(before=line_lists, after=line_lists, before_eol=st.booleans(), after_eol=st.booleans())
def test_applying_a_generated_diff_gives_after(
    before: list[str], after: list[str], before_eol: bool, after_eol: bool
) -> None:
    old = "\n".join(before) + ("\n" if before_eol and before else "")
    new = "\n".join(after) + ("\n" if after_eol and after else "")
    if old == new:
        return
    assert apply_unified_diff(old, unified_diff(old, new, "f.txt"), "f.txt").text == new


@settings(max_examples=examples(200), deadline=None)
@given(
    size=st.integers(min_value=12, max_value=60),
    changes=st.sets(st.integers(min_value=0, max_value=59), min_size=1, max_size=4),
    shift=st.integers(min_value=-5, max_value=5),
)
def test_shifted_line_numbers_apply_at_the_reported_offset(
    size: int, changes: set[int], shift: int
) -> None:
    before = [f"unique {n}" for n in range(size)]
    after = [f"changed {n}" if n in changes else line for n, line in enumerate(before)]
    old, new = "\n".join(before) + "\n", "\n".join(after) + "\n"
    if old == new:
        return
    patch = shift_hunks(unified_diff(old, new, "f.txt"), shift)
    result = apply_unified_diff(old, patch, "f.txt")
    assert result.text == new
    stated = [int(m) for m in re.findall(r"^@@ -(\d+)", patch, flags=re.MULTILINE)]
    if min(stated) > 1:  # a shift below line 1 is clamped, and the offset with it
        assert result.offsets == (-shift,) * result.hunks


def shift_hunks(patch: str, shift: int) -> str:
    def move(match: re.Match[str]) -> str:
        old, new = max(int(match[1]) + shift, 1), max(int(match[3]) + shift, 1)
        return f"@@ -{old}{match[2] or ''} +{new}{match[4] or ''} @@"

    return re.sub(r"^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@", move, patch, flags=re.MULTILINE)


# -- real git history, with git apply as the referee -----------------------------------

pytestmark_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def python_module(functions: int) -> list[str]:
    """A ~300-line module with the repetition real code has (blank lines, returns)."""
    out = ['"""Inventory records and their arithmetic."""', "", "import math", "", ""]
    for n in range(functions):
        out += [
            f"def record_{n}(item, quantity):",
            f'    """Return the total for record {n}."""',
            "    if quantity < 0:",
            '        raise ValueError("negative quantity")',
            f"    price = item.price * {n + 1}",
            "    total = price * quantity",
            "    return total",
            "",
            "",
        ]
    out += ['if __name__ == "__main__":', "    print(record_0(None, 0))"]
    return out


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        cwd=repo,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, str, str, str]]:
    """(path, before, after, git diff) for each of several realistic commits."""
    repo = tmp_path_factory.mktemp("repo")
    git(repo, "init", "-q")
    module = python_module(33)
    steps: list[tuple[str, str]] = [
        ("inventory.py", "\n".join(module) + "\n"),
        ("notes.txt", "first\nsecond\nthird"),
    ]
    edited = list(module)
    edited[2] = "import math\nimport logging"
    edited[30] = "    price = item.price * 4  # discounted"
    edited[150:152] = [
        "    total = round(price * quantity, 2)",
        "    log(total)",
        "    return total",
    ]
    edited[290] = "    return total  # last"
    steps.append(("inventory.py", "\n".join(edited) + "\n"))
    steps.append(("notes.txt", "zeroth\nfirst\nsecond\nthird\nfourth"))
    steps.append(("notes.txt", "zeroth\nfirst\nsecond\nthird\nfourth\n"))
    for n in (60, 120, 200):
        edited[n] = edited[n].replace("quantity", "count")
    steps.append(("inventory.py", "\n".join(edited) + "\n"))
    grown = ["# -*- coding: utf-8 -*-", *edited, "", "", "def extra():", "    return None"]
    steps.append(("inventory.py", "\n".join(grown) + "\n"))
    shrunk = [line for n, line in enumerate(grown) if not 100 <= n < 109]
    steps.append(("inventory.py", "\n".join(shrunk)))

    cases = []
    current: dict[str, str] = {}
    for path, text in steps:
        (repo / path).write_text(text, encoding="utf-8", newline="\n")
        git(repo, "add", path)
        git(repo, "commit", "-q", "-m", f"change {path}")
        if path in current:
            diff = git(repo, "diff", "HEAD~1", "HEAD", "--", path)
            cases.append((path, current[path], text, diff))
        current[path] = text
    return cases


def git_apply(tmp_path: Path, path: str, before: str, patch: str) -> tuple[str, str]:
    work = tmp_path / "apply"
    if work.exists():
        shutil.rmtree(work)
    work.mkdir()
    (work / path).write_text(before, encoding="utf-8", newline="\n")
    (work / "p.diff").write_text(patch, encoding="utf-8", newline="\n")
    done = subprocess.run(
        ["git", "apply", "--verbose", "p.diff"], cwd=work, capture_output=True, text=True
    )
    if done.returncode != 0:
        raise AssertionError(f"git apply failed: {done.stderr}")
    return (work / path).read_text(encoding="utf-8"), done.stderr


def git_offsets(stderr: str, hunks: int) -> tuple[int, ...]:
    offsets = dict.fromkeys(range(1, hunks + 1), 0)
    for number, offset in re.findall(
        r"Hunk #(\d+) succeeded at \d+ \(offset (-?\d+) lines?\)", stderr
    ):
        offsets[int(number)] = int(offset)
    return tuple(offsets.values())


@pytestmark_git
@pytest.mark.slow
def test_history_has_the_intended_shapes(history: list[tuple[str, str, str, str]]) -> None:
    diffs = [case[3] for case in history]
    assert len(history) == 6
    assert any(d.count("\n@@ ") >= 3 for d in diffs)
    assert any("\\ No newline at end of file" in d for d in diffs)


@pytestmark_git
@pytest.mark.slow
def test_git_diffs_apply_exactly_like_git_apply(
    history: list[tuple[str, str, str, str]], tmp_path: Path
) -> None:
    for path, before, after, diff in history:
        result = apply_unified_diff(before, diff, path)
        by_git, _ = git_apply(tmp_path, path, before, diff)
        assert result.text == by_git == after
        assert result.offsets == (0,) * result.hunks


@pytestmark_git
@pytest.mark.slow
def test_corrupted_context_line_fails(history: list[tuple[str, str, str, str]]) -> None:
    for path, before, _, diff in history:
        lines = diff.split("\n")
        first_hunk = next(i for i, line in enumerate(lines) if line.startswith("@@"))
        context = next(
            i for i in range(first_hunk, len(lines)) if lines[i].startswith(" ") and lines[i][1:]
        )
        lines[context] = lines[context] + " corrupted"
        error = apply_error(before, "\n".join(lines), path)
        assert error.code == "ERR_PATCH_CONTEXT_MISMATCH"
        assert error.details["hunk"] == 1
        assert lines[context][1:] in error.details["expected"]


@pytestmark_git
@pytest.mark.slow
@pytest.mark.parametrize("shift", [-4, 3, 7])
def test_shifted_git_diffs_apply_at_the_same_offsets_as_git_apply(
    history: list[tuple[str, str, str, str]], tmp_path: Path, shift: int
) -> None:
    checked = 0
    for path, before, after, diff in history:
        moved = shift_hunks(diff, shift)
        stated = [int(m) for m in re.findall(r"^@@ -(\d+)", diff, flags=re.MULTILINE)]
        if min(stated) + shift <= 1:
            continue  # git apply pins hunks at line 1 to the start; the shift is clamped
        result = apply_unified_diff(before, moved, path)
        by_git, stderr = git_apply(tmp_path, path, before, moved)
        assert result.text == by_git == after
        assert result.offsets == git_offsets(stderr, result.hunks)
        assert result.offsets == (-shift,) * result.hunks
        assert f"offset {-shift:+d}" in result.summary_note
        checked += 1
    assert checked >= 2
