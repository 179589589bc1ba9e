"""fs.patch placement rules, each checked against `git apply` (and GNU patch) on the same bytes.

Cases live in tests/data/patches_ported (README there names their sources). Where git
applies a case, the engine gives the same bytes; where git refuses, the engine refuses
with the named code. The `stricter_*` cases are the documented refusals of what git
applies.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from llm_operator.core.engines.patching import apply_unified_diff
from llm_operator.core.engines.textfile import TextFile
from llm_operator.core.errors import OperatorError
from support.paths import DATA

PORTED = DATA / "patches_ported"
CASES = sorted(p.stem for p in PORTED.glob("*.patch"))
needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _read(name: str, suffix: str) -> str:
    return (PORTED / f"{name}.{suffix}").read_bytes().decode("utf-8")


def _engine(name: str) -> str | OperatorError:
    try:
        return apply_unified_diff(_read(name, "before"), _read(name, "patch"), "file").text
    except OperatorError as exc:
        return exc


def _git(tmp_path: Path, name: str) -> str | None:
    """The file after `git apply`, or None when git refuses the patch."""
    work = tmp_path / name
    work.mkdir()
    (work / "file").write_bytes((PORTED / f"{name}.before").read_bytes())
    (work / "p.diff").write_bytes((PORTED / f"{name}.patch").read_bytes())
    done = subprocess.run(["git", "apply", "p.diff"], cwd=work, capture_output=True)
    return (work / "file").read_text("utf-8") if done.returncode == 0 else None


def test_the_ported_cases_are_there() -> None:
    assert len(CASES) >= 12
    for name in CASES:
        assert (PORTED / f"{name}.after").exists() != (PORTED / f"{name}.error").exists()


@pytest.mark.parametrize("name", CASES)
def test_engine_gives_the_expected_result(name: str) -> None:
    got = _engine(name)
    if (PORTED / f"{name}.error").exists():
        assert isinstance(got, OperatorError), got
        assert got.code == _read(name, "error").strip()
    else:
        assert got == _read(name, "after")


@needs_git
@pytest.mark.parametrize("name", CASES)
def test_engine_agrees_with_git_apply(tmp_path: Path, name: str) -> None:
    by_git = _git(tmp_path, name)
    got = _engine(name)
    if name.startswith("stricter_"):
        assert by_git is not None
        assert isinstance(got, OperatorError)
    elif by_git is None:
        assert isinstance(got, OperatorError)
    else:
        assert got == by_git


@pytest.mark.skipif(shutil.which("patch") is None, reason="GNU patch is not installed")
@pytest.mark.parametrize("name", [n for n in CASES if n.startswith("gnu_")])
def test_engine_agrees_with_gnu_patch(tmp_path: Path, name: str) -> None:
    work = tmp_path / name
    work.mkdir()
    (work / "file").write_bytes((PORTED / f"{name}.before").read_bytes())
    done = subprocess.run(
        ["patch", "-N", "--batch", "-o", "out", "file", "-i", str(PORTED / f"{name}.patch")],
        cwd=work,
        capture_output=True,
        text=True,
    )
    got = _engine(name)
    if done.returncode == 0:
        assert got == (work / "out").read_text("utf-8")
    else:
        assert isinstance(got, OperatorError)
        assert got.code == "ERR_PATCH_ALREADY_APPLIED"
        assert "previously applied" in done.stdout + done.stderr


def test_already_applied_names_the_line() -> None:
    got = _engine("t4113_apply_at_the_beginning")
    assert isinstance(got, OperatorError)
    assert "looks already applied at line 1" in got.message
    assert got.details["applied_at_line"] == 1


def test_reversed_patch_names_where_the_new_side_stands() -> None:
    text = "".join(f"{n}\n" for n in range(1, 11)).replace("5\n", "FIVE\n")
    patch = "@@ -4,3 +4,3 @@\n 4\n-5\n+FIVE\n 6\n"
    with pytest.raises(OperatorError) as caught:
        apply_unified_diff(text, patch, "f.txt")
    assert caught.value.code == "ERR_PATCH_ALREADY_APPLIED"
    assert caught.value.details["applied_at_line"] == 4


def test_context_past_the_end_says_where_the_file_ends() -> None:
    got = _engine("t4104_context_past_the_end")
    assert isinstance(got, OperatorError)
    assert "run from line 2 to line 4, but file ends at line 2" in got.message


def test_equal_distance_refusal_names_both_lines() -> None:
    got = _engine("stricter_equal_distance")
    assert isinstance(got, OperatorError)
    assert got.details["candidate_lines"] == [2, 8]


def test_creation_hunk_onto_content_says_why() -> None:
    got = _engine("creation_hunk_without_dev_null_onto_content")
    assert isinstance(got, OperatorError)
    assert "already has 1 line;" in got.message


# -- mixed line endings: untouched lines keep their exact bytes ------------------------


def test_untouched_lines_keep_their_own_breaks_next_to_an_identical_line() -> None:
    # Line 1 (CRLF) and line 2 (LF) are identical; the patch removes line 2. Matching old
    # and new lines would give the kept "same" the LF of the removed one.
    data = b"same\r\nsame\nother\r\nend\n"
    decoded = TextFile.decode(data)
    result = apply_unified_diff(decoded.text, "@@ -1,3 +1,2 @@\n same\n-same\n other\n", "f")
    assert decoded.encode(result.text, result.kept) == b"same\r\nother\r\nend\n"


def test_lines_added_next_to_mixed_breaks_take_the_common_break() -> None:
    data = b"a\r\nb\r\nc\n"
    decoded = TextFile.decode(data)
    result = apply_unified_diff(decoded.text, "@@ -1,2 +1,3 @@\n a\n+new\n b\n", "f")
    assert decoded.encode(result.text, result.kept) == b"a\r\nnew\r\nb\r\nc\n"


def test_mode_lines_set_and_clear_the_executable_bit() -> None:
    patch = "diff --git a/f b/f\nold mode 100644\nnew mode 100755\n"
    result = apply_unified_diff("a\n", patch + "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n", "f")
    assert (result.text, result.executable) == ("b\n", True)
    assert apply_unified_diff("a\n", patch, "f").executable is True
    cleared = "diff --git a/f b/f\nold mode 100755\nnew mode 100644\n"
    assert apply_unified_diff("a\n", cleared, "f").executable is False
    assert apply_unified_diff("a\n", "@@ -1 +1 @@\n-a\n+b\n", "f").executable is None
    with pytest.raises(OperatorError) as caught:
        apply_unified_diff("a\n", "diff --git a/f b/f\nnew mode 120000\n", "f")
    assert caught.value.code == "ERR_INVALID_PATCH"


@pytest.mark.parametrize(
    ("text", "patch", "patched"),
    [
        # Adding a copy of a line after its twin: the old side stands at the stated line,
        # the new side only overlaps it one line earlier. git apply applies it.
        ("a\na\n", "@@ -2 +2,2 @@\n a\n+a\n", "a\na\na\n"),
        # The same with blank lines between two functions.
        ("}\n\n\n}\n", "@@ -3,2 +3,3 @@\n \n+\n }\n", "}\n\n\n\n}\n"),
    ],
)
def test_a_repeated_line_added_at_its_stated_place_is_not_already_applied(
    text: str, patch: str, patched: str, tmp_path: Path
) -> None:
    assert apply_unified_diff(text, patch, "f.txt").text == patched
    if shutil.which("git") is None:
        return
    (tmp_path / "f.txt").write_text(text, encoding="utf-8")
    (tmp_path / "p.diff").write_text("--- a/f.txt\n+++ b/f.txt\n" + patch, encoding="utf-8")
    subprocess.run(["git", "apply", "p.diff"], cwd=tmp_path, check=True, capture_output=True)
    assert (tmp_path / "f.txt").read_text(encoding="utf-8") == patched


def test_an_append_sent_again_is_still_already_applied() -> None:
    once = apply_unified_diff("x\ny\n", "@@ -2 +2,2 @@\n y\n+z\n", "f.txt").text
    with pytest.raises(OperatorError) as caught:
        apply_unified_diff(once, "@@ -2 +2,2 @@\n y\n+z\n", "f.txt")
    assert caught.value.code == "ERR_PATCH_ALREADY_APPLIED"
