"""Hunk headers whose counts disagree with their lines: recounted as ``git apply --recount``
does, with git itself as the referee on real diffs (tests/data/patches, and diffs git makes
of real files from tests/data/structure_real)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from llm_operator.core.engines.patching import apply_unified_diff
from llm_operator.core.errors import OperatorError
from support.paths import DATA

PATCHES = DATA / "patches"
REAL = DATA / "structure_real"
HEADER = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", re.MULTILINE)
needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def miscounted(patch: str) -> str:
    """Every hunk header with wrong counts: one old line too many, one new line too few
    (at least one), the mistakes a model makes."""

    def wrong(found: re.Match[str]) -> str:
        old = int(found.group(2) or 1)
        new = int(found.group(4) or 1)
        return f"@@ -{found.group(1)},{old + 1} +{found.group(3)},{max(new - 1, 1)} @@"

    changed = HEADER.sub(wrong, patch)
    assert changed != patch
    return changed


def git_recount(tmp_path: Path, name: str, before: str, patch: str) -> str:
    work = tmp_path / "git"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    (work / name).write_text(before, encoding="utf-8", newline="")
    # git wants a/ b/ headers: the samples' own (none, GNU timestamps) are replaced.
    hunks = patch[patch.index("@@") :]
    (work / "p.diff").write_text(f"--- a/{name}\n+++ b/{name}\n{hunks}", "utf-8", newline="")
    done = subprocess.run(
        ["git", "apply", "--recount", "p.diff"], cwd=work, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return (work / name).read_bytes().decode("utf-8")


def real_diff(tmp_path: Path, name: str, before: str, after: str) -> str:
    """``git diff`` of ``before`` -> ``after`` as the file ``name``."""
    old, new = tmp_path / "a" / name, tmp_path / "b" / name
    for path, text in ((old, before), (new, after)):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="")
    done = subprocess.run(
        ["git", "diff", "--no-index", "--no-prefix", str(old), str(new)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1, done.stderr  # 1: the files differ
    body = done.stdout[done.stdout.index("@@") :]
    return f"--- a/{name}\n+++ b/{name}\n{body}"


GOLDEN = ["bad_count", "multi_hunk", "llm_style", "gnu_timestamps"]


@needs_git
@pytest.mark.parametrize("name", GOLDEN)
def test_golden_patches_with_wrong_counts_apply_as_git_recounts_them(
    tmp_path: Path, name: str
) -> None:
    before = (PATCHES / f"{name}.before").read_text(encoding="utf-8")
    patch = miscounted((PATCHES / f"{name}.patch").read_text(encoding="utf-8"))
    ours = apply_unified_diff(before, patch, "greeter.py")
    assert ours.text == git_recount(tmp_path, "greeter.py", before, patch)
    assert ours.text == (PATCHES / f"{name}.after").read_text(encoding="utf-8")
    assert "recounted from the lines (as git apply --recount does)" in ours.summary_note


def edited(text: str) -> str:
    """A realistic edit: a line changed near the top, two inserted in the middle, one
    removed near the end."""
    lines = text.split("\n")
    third, half = len(lines) // 3, len(lines) // 2
    lines[third] = lines[third] + "  # changed"
    lines[half:half] = ["# inserted one", "# inserted two"]
    del lines[-5]
    return "\n".join(lines)


REAL_FILES = [
    "python/flask-flask-ctx.py",
    "ruby/rake-rake-file_list.rb",
    "go/gin-utils.go",
    "javascript/express-lib-request.js",
]


@needs_git
@pytest.mark.parametrize("rel", REAL_FILES)
def test_real_diffs_with_wrong_counts_match_git_apply_recount(tmp_path: Path, rel: str) -> None:
    before = (REAL / rel).read_text(encoding="utf-8")
    after = edited(before)
    name = Path(rel).name
    patch = miscounted(real_diff(tmp_path, name, before, after))
    ours = apply_unified_diff(before, patch, name)
    assert ours.text == after
    assert ours.text == git_recount(tmp_path, name, before, patch)
    assert ours.summary_note.count("'s header said") == len(HEADER.findall(patch))


def test_the_result_names_each_recounted_hunk_and_both_counts() -> None:
    text = "".join(f"line {n}\n" for n in range(1, 11))
    patch = "@@ -1,2 +1,2 @@\n line 1\n-line 2\n+two\n@@ -5,3 +5,4 @@\n line 5\n-line 6\n+six\n"
    result = apply_unified_diff(text, patch, "f.txt")
    assert result.text == text.replace("line 2\n", "two\n").replace("line 6\n", "six\n")
    assert result.summary_note == (
        "2 hunks applied; hunk 2's header said 3 old and 4 new lines, its lines hold 2 and 2:"
        " recounted from the lines (as git apply --recount does)"
    )


def test_a_recounted_hunk_that_does_not_match_is_the_usual_context_mismatch() -> None:
    text = "a\nb\nc\n"
    patch = "@@ -1,2 +1,2 @@\n a\n-x\n+X\n c\n"  # counts wrong, and "x" is not in the file
    with pytest.raises(OperatorError) as caught:
        apply_unified_diff(text, patch, "f.txt")
    assert caught.value.code == "ERR_PATCH_CONTEXT_MISMATCH"
    assert caught.value.details["expected"] == ["a", "x", "c"]


def test_a_hunk_cut_short_by_a_line_without_its_prefix_is_still_refused() -> None:
    # The context line lost its leading space: recounting would drop the rest of the hunk.
    patch = "@@ -1,3 +1,3 @@\n a\n-b\n+B\nc\n"
    with pytest.raises(OperatorError) as caught:
        apply_unified_diff("a\nb\nc\n", patch, "f.txt")
    assert caught.value.code == "ERR_INVALID_PATCH"
    assert "line 5 ('c') is not a hunk line" in caught.value.message
    assert caught.value.details["header_counts"] == [3, 3]


def test_a_count_too_large_does_not_read_into_a_second_file() -> None:
    patch = "--- a/f.txt\n+++ b/f.txt\n@@ -1,5 +1,5 @@\n-a\n+A\n--- a/g.txt\n+++ b/g.txt\n"
    with pytest.raises(OperatorError) as caught:
        apply_unified_diff("a\nb\n", patch, "f.txt")
    assert caught.value.code == "ERR_INVALID_PATCH"
    assert "a/f.txt" not in (caught.value.details.get("header") or "")


def test_trailing_empty_lines_of_a_recounted_hunk_are_separators() -> None:
    text = "a\nb\nc\n"
    patch = "@@ -1,1 +1,1 @@\n a\n-b\n+B\n\n\n"
    assert apply_unified_diff(text, patch, "f.txt").text == "a\nB\nc\n"
