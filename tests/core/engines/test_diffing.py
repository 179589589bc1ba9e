"""unified_diff: valid patches (checked by our patcher, git apply and GNU patch), and fast."""

from __future__ import annotations

import contextlib
import difflib
import random
import re
import shutil
import subprocess
import time
from collections import Counter
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llm_operator.core.engines import diffing
from llm_operator.core.engines.diffing import LineDiff, unified_diff
from llm_operator.core.engines.patching import apply_unified_diff
from llm_operator.core.errors import OperatorError
from support.examples import examples

_HUNK_COUNTS = re.compile(r"^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@")


def diff_stats(diff: str) -> tuple[int, int]:
    """Lines added and removed by a unified diff, read from its text (``counts`` agrees).

    Hunk bodies are read by their header counts, so a removed line that reads "-- x"
    (shown as "--- x") is counted, not mistaken for a file header.
    """
    added = removed = 0
    old_left = new_left = 0
    for line in diff.split("\n"):
        if old_left > 0 or new_left > 0:
            kind = line[:1] or " "
            if kind == "-":
                removed += 1
                old_left -= 1
            elif kind == "+":
                added += 1
                new_left -= 1
            elif kind == " ":
                old_left -= 1
                new_left -= 1
            continue
        header = _HUNK_COUNTS.match(line)
        if header is not None:
            old_left = int(header.group(1) or "1")
            new_left = int(header.group(2) or "1")
    return added, removed


def text_of(lines: list[str], final_newline: bool = True) -> str:
    return "\n".join(lines) + ("\n" if final_newline and lines else "")


def test_identical_inputs_give_empty_diff() -> None:
    assert unified_diff("a\nb\n", "a\nb\n", "f.txt") == ""
    assert unified_diff("", "", "f.txt") == ""


def test_headers_and_hunk_like_difflib() -> None:
    before = "".join(f"{n}\n" for n in range(20))
    after = before.replace("10\n", "ten\n")
    ours = unified_diff(before, after, "src/f.txt")
    theirs = "".join(
        difflib.unified_diff(
            before.splitlines(keepends=True),
            after.splitlines(keepends=True),
            "a/src/f.txt",
            "b/src/f.txt",
            lineterm="\n",
        )
    )
    assert ours == theirs
    assert ours.startswith("--- a/src/f.txt\n+++ b/src/f.txt\n@@ -8,7 +8,7 @@\n")


def test_created_and_deleted_files_use_dev_null() -> None:
    assert (
        unified_diff("", "a\nb\n", "n.txt")
        == "--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,2 @@\n+a\n+b\n"
    )
    assert unified_diff("a\n", "", "n.txt") == "--- a/n.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-a\n"


def test_no_newline_markers() -> None:
    assert unified_diff("a\nb", "a\nb\n", "f") == (
        "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n"
    )
    assert unified_diff("a\n", "a\nb", "f") == (
        "--- a/f\n+++ b/f\n@@ -1 +1,2 @@\n a\n+b\n\\ No newline at end of file\n"
    )
    both = unified_diff("x\ny", "X\ny", "f")
    assert both.endswith(" y\n\\ No newline at end of file\n")


def test_context_setting() -> None:
    before = "".join(f"{n}\n" for n in range(20))
    after = before.replace("5\n", "five\n").replace("14\n", "fourteen\n")
    assert unified_diff(before, after, "f", context=3).count("@@ -") == 2
    assert unified_diff(before, after, "f", context=5).count("@@ -") == 1
    zero = unified_diff(before, after, "f", context=0)
    assert "@@ -6 +6 @@\n-5\n+five\n" in zero
    assert apply_unified_diff(before, zero, "f").text == after


def test_diff_stats_counts_lines_not_headers() -> None:
    before = "-- a\nb\n+ c\n"
    after = "b\n++ d\n--- e\n"
    diff = unified_diff(before, after, "f")
    assert diff_stats(diff) == (2, 2)
    assert diff_stats("") == (0, 0)
    assert diff_stats(unified_diff("", "a\nb\nc", "f")) == (3, 0)


def test_moved_block_still_gives_a_valid_diff() -> None:
    block = [f"moved {n}" for n in range(300)]
    rest = [f"stay {n}" for n in range(700)]
    before = text_of(block + rest)
    after = text_of(rest[:350] + block + rest[350:])
    assert apply_unified_diff(before, unified_diff(before, after, "f"), "f").text == after


def test_repetitive_big_gap_falls_back_to_difflib() -> None:
    before = text_of(["same"] * 800 + ["x"])
    after = text_of(["same"] * 700 + ["y"] + ["same"] * 50)
    diff = unified_diff(before, after, "f")
    assert apply_unified_diff(before, diff, "f").text == after


def big_pair(lines: int, changes: tuple[int, ...]) -> tuple[str, str]:
    rng = random.Random(7)
    body = [f"    total_{n} = compute({rng.randint(0, 10**6)}, 'item-{n}')" for n in range(lines)]
    changed = list(body)
    for n in changes:
        changed[n] += "  # changed"
    return text_of(body), text_of(changed)


def test_big_file_small_change_is_fast_and_minimal() -> None:
    before, after = big_pair(100_000, (1_000, 50_000, 99_000))
    start = time.perf_counter()
    diff = unified_diff(before, after, "big.py")
    elapsed = time.perf_counter() - start
    assert diff.count("\n@@ ") == 3
    assert diff_stats(diff) == (3, 3)
    assert apply_unified_diff(before, diff, "big.py").text == after
    # difflib over the whole file takes seconds; the anchored diff must not.
    assert elapsed < 0.5, f"diff of 100,000 lines took {elapsed:.3f}s"


@settings(max_examples=examples(300), deadline=None)
@given(
    before=st.lists(st.sampled_from(["a", "b", "c", "", "d d", "  e"]), max_size=40),
    after=st.lists(st.sampled_from(["a", "b", "c", "", "d d", "  e", "f"]), max_size=40),
    before_eol=st.booleans(),
    after_eol=st.booleans(),
    context=st.integers(min_value=0, max_value=4),
)
def test_round_trip_property(
    before: list[str], after: list[str], before_eol: bool, after_eol: bool, context: int
) -> None:
    old, new = text_of(before, before_eol), text_of(after, after_eol)
    diff = unified_diff(old, new, "f.txt", context=context)
    if old == new:
        assert diff == ""
        return
    if old and "\n@@ -0,0 " in diff and diff.count("\n@@ ") == 1:
        # Without context, an insertion above line 1 reads "@@ -0,0 ...", the shape of a
        # creation patch when it is the only hunk: refused on a file that has lines, as
        # git apply refuses it.
        with pytest.raises(OperatorError) as caught:
            apply_unified_diff(old, diff, "f.txt")
        assert caught.value.code == "ERR_PATCH_CONTEXT_MISMATCH"
        return
    assert apply_unified_diff(old, diff, "f.txt").text == new
    added, removed = diff_stats(diff)
    assert added - removed == len(_lines(new)) - len(_lines(old))


@settings(max_examples=examples(40), deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=10**6),
    size=st.integers(min_value=500, max_value=3000),
)
def test_round_trip_on_big_anchored_inputs(seed: int, size: int) -> None:
    rng = random.Random(seed)
    before = [f"line {n} {rng.choice(['x', 'y', ''])}" for n in range(size)]
    before += [rng.choice(["", "}", "pass"]) for _ in range(size // 5)]
    rng.shuffle(before)
    after = list(before)
    for _ in range(rng.randint(1, 8)):
        at = rng.randrange(len(after))
        after[at : at + rng.randint(0, 4)] = [f"new {rng.random()}"] * rng.randint(0, 3)
    old, new = text_of(before), text_of(after, rng.random() < 0.5)
    diff = unified_diff(old, new, "f")
    if old == new:
        assert diff == ""
        return
    assert apply_unified_diff(old, diff, "f").text == new


def _lines(text: str) -> list[str]:
    return text.splitlines()


# -- the output is a patch other tools accept -------------------------------------------

EXTERNAL_CASES = [
    ("a\nb\nc\n", "a\nB\nc\n"),
    ("a\nb", "a\nb\n"),
    ("a\nb\n", "a\nb"),
    ("x\n", "x\ny"),
    ("".join(f"{n}\n" for n in range(50)), "".join(f"{n}\n" for n in range(50) if n % 7)),
    ("head\n" + "".join(f"{n}\n" for n in range(30)), "".join(f"{n}\n" for n in range(30)) + "t\n"),
]


@pytest.mark.parametrize(("before", "after"), EXTERNAL_CASES)
@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_git_apply_accepts_the_diff(tmp_path: Path, before: str, after: str) -> None:
    (tmp_path / "f.txt").write_text(before, encoding="utf-8", newline="\n")
    (tmp_path / "p.diff").write_text(unified_diff(before, after, "f.txt"), newline="\n")
    subprocess.run(["git", "apply", "p.diff"], cwd=tmp_path, check=True, capture_output=True)
    assert (tmp_path / "f.txt").read_text(encoding="utf-8") == after


@pytest.mark.parametrize(("before", "after"), EXTERNAL_CASES)
@pytest.mark.skipif(shutil.which("patch") is None, reason="GNU patch is not installed")
def test_gnu_patch_accepts_the_diff(tmp_path: Path, before: str, after: str) -> None:
    (tmp_path / "f.txt").write_text(before, encoding="utf-8", newline="\n")
    (tmp_path / "p.diff").write_text(unified_diff(before, after, "f.txt"), newline="\n")
    subprocess.run(
        ["patch", "-s", "-p1", "-o", "out.txt", "f.txt", "p.diff"],
        cwd=tmp_path,
        check=True,
        capture_output=True,
    )
    assert (tmp_path / "out.txt").read_text(encoding="utf-8") == after


def test_anchor_search_splits_at_lines_unique_on_both_sides() -> None:
    before = text_of(["x", "one", "y", "two", "z"])
    after = text_of(["X", "one", "Y", "two", "Z"])
    found: list[tuple[int, int] | None] = []

    def spy(*args: object) -> tuple[int, int] | None:
        anchor = real_anchor(*args)  # type: ignore[arg-type]
        found.append(anchor)
        return anchor

    real_anchor = diffing._anchor
    with mock.patch.object(diffing, "SMALL_ITEM", 0), mock.patch.object(diffing, "_anchor", spy):
        diff = unified_diff(before, after, "f", context=0)
    assert [before[i : before.index("\n", i)] for i, _ in filter(None, found)] == ["one", "two"]
    assert diff.count("\n@@ ") == 3
    assert diff_stats(diff) == (3, 3)


@settings(max_examples=examples(400), deadline=None)
@given(
    a=st.lists(st.sampled_from(["x", "y", "z", "", "x\n"]), min_size=1, max_size=260),
    b=st.lists(st.sampled_from(["x", "y", "z", "", "x\n"]), min_size=1, max_size=260),
    big=st.booleans(),
    one_side=st.sampled_from(["a", "b", "neither"]),
)
def test_line_blocks_are_difflibs_matching_blocks(
    a: list[str], b: list[str], big: bool, one_side: str
) -> None:
    # One line against many is matched without difflib: the blocks must be difflib's own,
    # autojunk (from 200 lines of b on) included.
    if one_side == "a":
        a = a[:1]
    elif one_side == "b":
        b = b[:1]
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=big)
    theirs = [tuple(block) for block in matcher.get_matching_blocks() if block[2]]
    assert [tuple(block) for block in diffing._line_blocks(a, b, big)] == theirs


def test_one_popular_line_against_many_is_junk_as_in_difflib() -> None:
    # 250 lines of b where "x" is popular: difflib's autojunk drops it from the matching.
    a, b = ["x"], ["y"] * 240 + ["x"] * 10
    expected = [
        tuple(m)
        for m in difflib.SequenceMatcher(None, a, b, autojunk=True).get_matching_blocks()
        if m[2]
    ]
    assert expected == []  # the case the shortcut must not take
    assert diffing._line_blocks(a, b, True) == []
    assert diffing._line_blocks(a, b, False) == [(0, 240, 1)]


LINES = st.lists(st.sampled_from(["x", "y", "z", "", "}", "u1", "u2", "u3", "u4"]), max_size=80)


def _assert_equal_runs_in_order(
    a: list[str], b: list[str], blocks: list[tuple[int, int, int]]
) -> None:
    a_end = b_end = 0
    for i, j, size in blocks:
        assert size > 0
        assert i >= a_end
        assert j >= b_end
        assert a[i : i + size] == b[j : j + size]
        a_end, b_end = i + size, j + size


@settings(max_examples=examples(400), deadline=None)
@given(a=LINES, b=LINES)
def test_unique_blocks_are_equal_runs_in_order(a: list[str], b: list[str]) -> None:
    blocks = diffing._unique_blocks(a, b)
    _assert_equal_runs_in_order(a, b, blocks)
    # Lines both lists hold once are matched where their order agrees: one pair at least.
    in_a, in_b = Counter(a), Counter(b)
    if any(in_a[line] == 1 == in_b[line] for line in a):
        assert blocks


def test_unique_blocks_pair_the_longest_agreeing_order() -> None:
    a = ["u1", "u2", "x", "u3", "u4"]
    b = ["u3", "u1", "u2", "y", "u4"]
    # u3 is out of order; u1, u2 and u4 pair (adjacent blocks merge as every diff's do).
    assert diffing._merged(diffing._unique_blocks(a, b)) == [(0, 1, 2), (4, 4, 1)]


def test_repeated_lines_are_not_given_to_difflib_past_its_work() -> None:
    # "x" lines against "x", "y" alternating: difflib's matching is cubic in them (1,024
    # lines took 20 s). Such an item is matched by its unique lines (here: none), and the
    # diff still gives the new text back.
    old, new = "x\n" * 4096, "x\ny\n" * 2048
    assert diffing._difflib_bound(old.splitlines(), new.splitlines(), False) > diffing.ITEM_WORK
    diff = unified_diff(old, new, "f.txt")
    assert apply_unified_diff(old, diff, "f.txt").text == new
    added, removed = diff_stats(diff)
    assert added - removed == 0


def test_one_diff_spends_at_most_its_work_on_difflib() -> None:
    # Items each within ITEM_WORK but together past DIFF_WORK: the first ones go to
    # difflib, the next to Myers' diff while its steps last, the rest to the patience
    # matching; every block is still an equal run.
    item_a, item_b = ["x"] * 60, ["x", "y"] * 30
    bound = diffing._difflib_bound(item_a, item_b, False)
    assert bound <= diffing.ITEM_WORK
    steps = [10**9]
    by_myers = diffing._myers_blocks(item_a, item_b, steps)
    used = 10**9 - steps[0]
    work = diffing.DiffWork(bound * 3, used * 2)
    found = [diffing._line_blocks(item_a, item_b, False, work) for _ in range(6)]
    assert work == diffing.DiffWork(0, 0)
    matcher = difflib.SequenceMatcher(None, item_a, item_b, autojunk=False)
    by_difflib = [tuple(m) for m in matcher.get_matching_blocks() if m[2]]
    assert found[:3] == [by_difflib] * 3
    assert found[3] == found[4] == by_myers
    assert sum(size for _, _, size in by_myers) == 30  # every "x" of the new side
    assert found[5] == diffing._unique_blocks(item_a, item_b) == []


def _lcs(a: list[str], b: list[str]) -> int:
    row = [0] * (len(b) + 1)
    for line in a:
        prev = 0
        for j, other in enumerate(b):
            prev, row[j + 1] = row[j + 1], prev + 1 if line == other else max(row[j + 1], row[j])
    return row[-1]


@settings(max_examples=examples(500), deadline=None)
@given(
    a=st.lists(st.sampled_from("xyz"), max_size=25), b=st.lists(st.sampled_from("xyz"), max_size=25)
)
def test_myers_blocks_are_a_longest_common_subsequence(a: list[str], b: list[str]) -> None:
    blocks = diffing._myers_blocks(a, b, [10**9])
    assert blocks is not None
    _assert_equal_runs_in_order(a, b, blocks)
    assert sum(size for _, _, size in blocks) == _lcs(a, b)


def test_myers_gives_up_when_its_steps_are_spent() -> None:
    a, b = ["x"] * 400, ["x", "y"] * 200
    assert diffing._myers_blocks(a, b, [1000]) is None


def test_two_lines_put_into_many_repeated_ones_show_as_two_lines() -> None:
    # 30,000 lines cycling through 100 values: difflib's matching would take minutes and
    # the unique lines are none; Myers' diff finds the two new lines at once.
    old = "".join(f"L{n % 100:02d}\n" for n in range(30_000))
    lines = old.splitlines(keepends=True)
    new = "head\n" + "".join(lines[:15_000]) + "mid\n" + "".join(lines[15_000:])
    diff = unified_diff(old, new, "f.txt", context=0)
    assert diff_stats(diff) == (2, 0)
    assert apply_unified_diff(old, diff, "f.txt").text == new


@settings(max_examples=examples(300), deadline=None)
@given(
    before=st.lists(st.sampled_from(["a", "b", "c", "", "u1"]), max_size=40),
    after=st.lists(st.sampled_from(["a", "b", "c", "", "u2"]), max_size=40),
    after_eol=st.booleans(),
    limit=st.integers(min_value=1, max_value=30),
)
def test_counts_and_a_cut_diff_agree_with_the_whole_one(
    before: list[str], after: list[str], after_eol: bool, limit: int
) -> None:
    old, new = text_of(before), text_of(after, after_eol)
    whole = LineDiff(old, new).unified("f.txt")
    assert LineDiff(old, new).counts() == diff_stats(whole)
    cut = LineDiff(old, new).unified("f.txt", limit=limit)
    shown = [line for line in whole.split("\n")[2:] if line[:1] in (" ", "-", "+")]
    if cut == whole:  # cut only where there is more to show
        assert len(shown) <= limit
        return
    assert len(shown) > limit
    lines = cut.split("\n")[:-1]
    assert lines[-1] == f"\\ The diff is cut here: it goes on past {limit:,} lines"
    body = [line for line in lines[2:-1] if line[:1] in (" ", "-", "+")]
    assert len(body) == limit
    assert whole.startswith("\n".join(lines[:-1]))  # the same lines, up to the cut


# Each way of matching an item, forced on every item: with no item counted as small, the
# anchor search; with no work for difflib, Myers' diff; with no steps for it either, the
# lines each side holds once; past the line cap, no matching at all.
WAYS = [
    {"SMALL_ITEM": 0},
    {"ITEM_WORK": 0},
    {"ITEM_WORK": 0, "MYERS_WORK": 0},
    {"MAX_MATCH_LINES": 0},
]


@pytest.mark.parametrize("way", WAYS, ids=["anchors", "myers", "patience", "unmatched"])
@settings(max_examples=examples(200), deadline=None)
@given(
    before=st.lists(st.sampled_from(["a", "b", "c", "", "d d", "u1", "u2"]), max_size=50),
    after=st.lists(st.sampled_from(["a", "b", "c", "", "d d", "u1", "u3"]), max_size=50),
    before_eol=st.booleans(),
    after_eol=st.booleans(),
)
def test_every_way_of_matching_gives_a_diff_that_applies(
    way: dict[str, int], before: list[str], after: list[str], before_eol: bool, after_eol: bool
) -> None:
    old, new = text_of(before, before_eol), text_of(after, after_eol)
    with contextlib.ExitStack() as stack:
        for name, value in way.items():
            stack.enter_context(mock.patch.object(diffing, name, value))
        diff = unified_diff(old, new, "f.txt", context=1)
        counts = LineDiff(old, new).counts()
    if old == new:
        assert diff == ""
        return
    assert apply_unified_diff(old, diff, "f.txt").text == new
    assert counts == diff_stats(diff)
