"""A hostile reply cannot exhaust the machine: each attack runs in a real ``exec`` process
under a time and memory limit and must end, inside them, with a clear ERR_ result.

The families: regexes that backtrack, glob / exclude / .gitignore patterns that backtrack,
an edit list that doubles the file 30 times, planning over a 20 GiB (sparse) file, folders
nested 5,000 deep, and a reply of many searches over a tree (the work budget).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from support.actions import b64, edits_b64
from support.fixtures import cmd, reply
from support.limited import HANG_LIMIT, run_limited

# -- regexes --------------------------------------------------------------------------


def test_nested_quantifier_regex_in_search_tree_ends(ws: Path, state: Path) -> None:
    (ws / "a.txt").write_text("a" * 5000 + "b\n" + "x\n")
    (ws / "b.txt").write_text(("a" * 40 + "!\n") * 2000)
    text = reply(cmd("s1", "fs.searchTree", path=".", query="(a+)+$", regex="true"))
    (result,) = run_limited(ws, state, text)
    assert result.ok, result.summary
    assert "Found 0 matches" in result.summary


def test_nested_quantifier_regex_in_apply_edits_ends(ws: Path, state: Path) -> None:
    (ws / "a.txt").write_text("a" * 50_000 + "b\n")
    edits = edits_b64({"op": "replaceAll", "find": "(a+)+$", "text": "x", "regex": True})
    text = reply(cmd("e1", "fs.applyEdits", path="a.txt", edits_b64=edits))
    (result,) = run_limited(ws, state, text, "--yes")
    assert result.code == "ERR_ANCHOR_NOT_FOUND", result.summary
    assert (ws / "a.txt").read_text() == "a" * 50_000 + "b\n"


def test_backreference_is_refused_with_what_to_write(ws: Path, state: Path) -> None:
    (ws / "a.txt").write_text("aa\n")
    text = reply(cmd("s1", "fs.searchTree", path=".", query=r"(a)\1", regex="true"))
    (result,) = run_limited(ws, state, text)
    assert result.code == "ERR_INVALID_REGEX"
    assert "backreferences" in result.summary
    assert "RE2" in result.summary


# -- glob, exclude and .gitignore patterns ----------------------------------------------

HOSTILE_GLOB = "*a" * 15 + "*b"  # *a*a*...*a*b backtracks on names made of a's


def _long_names(root: Path, count: int = 30) -> None:
    for index in range(count):
        (root / ("a" * 200 + f"{index:03}")).write_text("needle\n")


@pytest.mark.parametrize("field", ["glob", "exclude"])
def test_hostile_glob_or_exclude_ends(ws: Path, state: Path, field: str) -> None:
    _long_names(ws)
    text = reply(cmd("s1", "fs.searchTree", path=".", query="needle", **{field: HOSTILE_GLOB}))
    (result,) = run_limited(ws, state, text)
    assert result.ok, result.summary
    found = "Found 0 matches" if field == "glob" else "Found 30 matches"
    assert found in result.summary


def test_hostile_gitignore_ends_for_search_and_outline(ws: Path, state: Path) -> None:
    _long_names(ws)
    (ws / "code.py").write_text("def needle():\n    pass\n")
    (ws / ".gitignore").write_text("\n".join(["*?" * 60 + "b", HOSTILE_GLOB, "[z-a]"]) + "\n")
    text = reply(
        cmd("s1", "fs.searchTree", path=".", query="needle"),
        cmd("o1", "fs.outline", path="."),
    )
    search, outline = run_limited(ws, state, text)
    assert search.ok, search.summary
    assert "Found 31 matches" in search.summary  # the unreadable line [z-a] is left out
    assert outline.ok, outline.summary


# -- edit output -----------------------------------------------------------------------


def test_thirty_doublings_are_refused_at_the_output_bound(ws: Path, state: Path) -> None:
    (ws / "a.txt").write_text("a" * 100_000 + "\n")
    edit = {"op": "replaceAll", "find": "a", "text": "aa"}
    text = reply(cmd("e1", "fs.applyEdits", path="a.txt", edits_b64=edits_b64(*[edit] * 30)))
    (result,) = run_limited(ws, state, text, "--yes")
    assert result.code == "ERR_EDIT_OUTPUT_TOO_LARGE", result.summary
    assert "10000000 characters" in result.summary
    assert (ws / "a.txt").read_text() == "a" * 100_000 + "\n"


@pytest.mark.slow  # one of the slowest: run by .ci/run
def test_thirty_regex_doublings_stop_at_a_bound(ws: Path, state: Path) -> None:
    # Millions of regex replacements cost seconds: the output bound or, on a slow machine,
    # the reply's work budget (5 s here, through the test seam) ends them, changing nothing.
    (ws / "a.txt").write_text("a" * 100_000 + "\n")
    edit = {"op": "replaceAll", "find": "(a)", "text": "\\1\\1", "regex": True}
    text = reply(cmd("e1", "fs.applyEdits", path="a.txt", edits_b64=edits_b64(*[edit] * 30)))
    env = {"LLM_OPERATOR_WORK_BUDGET": "5:256000000"}
    (result,) = run_limited(ws, state, text, "--yes", env=env)
    assert result.code in ("ERR_EDIT_OUTPUT_TOO_LARGE", "ERR_WORK_BUDGET_EXCEEDED"), result.summary
    assert "nothing was changed" in result.summary.lower()
    assert (ws / "a.txt").read_text() == "a" * 100_000 + "\n"


# -- planning over a huge file -----------------------------------------------------------

HUGE = 20 * 1024**3


def _commands() -> list[str]:
    content = b64("x = 1\n")
    return [
        cmd("w", "fs.write", path="huge.py", content_b64=content),
        cmd(
            "e",
            "fs.applyEdits",
            path="huge.py",
            edits_b64=edits_b64({"op": "replaceAll", "find": "a", "text": "b"}),
        ),
        cmd(
            "p",
            "fs.patch",
            path="huge.py",
            patch_b64=b64("--- a/huge.py\n+++ b/huge.py\n@@ -1 +1 @@\n-a\n+b\n"),
        ),
        cmd("d", "fs.delete", path="huge.py"),
        cmd("rs", "fs.replaceStructure", path="huge.py", target="def f():", content_b64=content),
        cmd("ds", "fs.deleteStructure", path="huge.py", target="def f():"),
        cmd("ms", "fs.moveStructure", path="huge.py", target="def f():", position="end"),
        cmd(
            "ir", "fs.insertRegion", path="huge.py", marker_id="m1", anchor="x", content_b64=content
        ),
        cmd("rr", "fs.replaceRegion", path="huge.py", marker_id="m1", content_b64=content),
        cmd("dr", "fs.deleteRegion", path="huge.py", marker_id="m1"),
        cmd("lr", "fs.listRegions", path="huge.py"),
        cmd("rd", "fs.readStructure", path="huge.py", target="def f():"),
    ]


def test_a_huge_file_is_refused_by_its_size_before_reading(ws: Path, state: Path) -> None:
    huge = ws / "huge.py"
    with huge.open("wb") as handle:
        handle.truncate(HUGE)  # sparse: no disk used
    commands = _commands()
    results = run_limited(ws, state, reply(*commands), "--yes")
    assert [r.id for r in results] == [c.split("id: ")[1].split("\n")[0] for c in commands]
    for result in results:
        assert result.code == "ERR_FILE_TOO_LARGE", result.summary
        assert f"{HUGE} bytes" in result.summary
    assert huge.stat().st_size == HUGE


# -- deep folders ----------------------------------------------------------------------

DEPTH = 5000


def _nest(root: Path, depth: int = DEPTH) -> None:
    """``root/d/d/.../d/deep.py`` (``depth`` folders: longer than PATH_MAX, so by descriptor)
    and a file after the chain, ``root/z.py``, that the walk must still reach."""
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for _ in range(depth):
            os.mkdir("d", dir_fd=fd)
            child = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = child
        handle = os.open("deep.py", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
        os.write(handle, b"def needle():\n    return 1\n")
        os.close(handle)
    finally:
        os.close(fd)
    (root / "z.py").write_text("def needle_too():\n    return 2\n")


@pytest.mark.slow  # one of the slowest: run by .ci/run
def test_search_tree_walks_folders_nested_five_thousand_deep(ws: Path, state: Path) -> None:
    _nest(ws)
    (result,) = run_limited(ws, state, reply(cmd("s1", "fs.searchTree", path=".", query="needle")))
    assert result.ok, result.summary
    assert "Found 2 matches" in result.summary
    lines = (result.details or "").splitlines()
    assert lines[-2].startswith("d/" * DEPTH + "deep.py:1: def needle")
    assert lines[-1] == "z.py:1: def needle_too():"
    assert "0 unreadable" in result.details


@pytest.mark.slow  # one of the slowest: run by .ci/run
def test_outline_walks_folders_nested_five_thousand_deep(ws: Path, state: Path) -> None:
    _nest(ws)
    (result,) = run_limited(ws, state, reply(cmd("o1", "fs.outline", path=".")))
    assert result.ok, result.summary
    details = result.details or ""
    assert "d/" * DEPTH + "deep.py" in details
    assert "def needle():" in details
    assert "def needle_too():" in details


# -- the reply's work budget ----------------------------------------------------------


def _tree(root: Path, files: int, size: int) -> None:
    line = b"x = 'nothing to see here, keep looking'\n"
    body = line * (size // len(line))
    for index in range(files):
        folder = root / f"pkg{index // 50:02}"
        folder.mkdir(exist_ok=True)
        (folder / f"mod{index:03}.py").write_bytes(body)


def _searches(count: int) -> str:
    return reply(*(cmd(f"s{i}", "fs.searchTree", path=".", query="needle") for i in range(count)))


def test_many_searches_stop_at_the_reply_budget(ws: Path, state: Path) -> None:
    _tree(ws, 200, 100_000)  # 20 MB; the budget is scaled down through the test seam
    results = run_limited(
        ws, state, _searches(1500), env={"LLM_OPERATOR_WORK_BUDGET": "30:30000000"}
    )
    assert len(results) == 1500
    assert results[0].ok, results[0].summary
    assert "(complete)" in (results[0].details or "")
    stopped = results[1]  # 20 MB read, 10 MB left: stops mid-walk with where to resume
    assert stopped.ok, stopped.summary
    assert "stopped: this reply's work budget is used up" in stopped.summary
    resume = (stopped.details or "").split("# more: after: ")[1].split("\n")[0]
    assert resume.startswith("pkg0")
    for result in results[2:]:
        assert result.code == "ERR_WORK_BUDGET_EXCEEDED", result.summary
        assert (
            "not run: this reply's work budget (30 s of CPU / 30 MB read / 16 MB of results)"
            in result.summary
        )
        assert "send it again in a later reply" in result.summary


@pytest.mark.slow
def test_a_search_not_run_runs_when_sent_again(ws: Path, state: Path) -> None:
    _tree(ws, 20, 100_000)
    env = {"LLM_OPERATOR_WORK_BUDGET": "30:1000000"}
    first = run_limited(ws, state, _searches(3), env=env)
    assert first[2].code == "ERR_WORK_BUDGET_EXCEEDED"
    (again,) = run_limited(ws, state, reply(_searches(3).split("\n\n")[3]), env=env)
    assert again.id == "s2"
    assert again.ok, again.summary
    assert "[repeat" not in again.summary


@pytest.mark.slow
def test_many_searches_end_with_the_default_budget(ws: Path, state: Path) -> None:
    _tree(ws, 300, 100_000)  # 30 MB: the 256 MB budget is spent after nine searches
    results = run_limited(ws, state, _searches(1500))
    assert len(results) == 1500
    assert all(r.ok for r in results[:8])
    assert results[-1].code == "ERR_WORK_BUDGET_EXCEEDED"


@pytest.mark.slow
def test_many_literal_edits_of_a_big_file_stop_at_the_reply_budget(ws: Path, state: Path) -> None:
    import json

    big = ws / "big.txt"
    big.write_text("alpha beta gamma delta\n" * 400_000, encoding="utf-8")  # 9.2 MB
    before = big.read_bytes()
    swaps = [("alpha", "omega"), ("omega", "alpha")] * 300
    edits = {"version": 1, "edits": [{"op": "replaceAll", "find": a, "text": b} for a, b in swaps]}
    text = reply(cmd("e1", "fs.applyEdits", path="big.txt", edits_json=json.dumps(edits)))
    env = {"LLM_OPERATOR_WORK_BUDGET": "1:256000000"}  # the time is scaled down, 30 s -> 1 s
    (result,) = run_limited(ws, state, text, "--yes", env=env)
    assert result.code == "ERR_WORK_BUDGET_EXCEEDED", result.summary
    assert "stopped: this edit list used up this reply's work budget" in result.summary
    assert "nothing was changed" in result.summary
    assert big.read_bytes() == before


@pytest.mark.slow  # one of the slowest: run by .ci/run
def test_many_reads_of_a_control_heavy_file_stop_at_the_results_cap(ws: Path, state: Path) -> None:
    raw = ("a\x01\x1b\x85\u202e\U000e0041b" * 20 + "\n") * 750  # about 196 KB
    (ws / "ctl.txt").write_text(raw, encoding="utf-8")
    text = reply(*(cmd(f"r{n}", "fs.read", path="ctl.txt") for n in range(1500)))
    # The results cap is scaled down to 2 MB (the default is 16 MB); the time is not.
    env = {"LLM_OPERATOR_WORK_BUDGET": "600:256000000:2000000"}
    results = run_limited(ws, state, text, env=env)
    assert len(results) == 1500
    shown = [r for r in results if r.ok]
    assert 2_000_000 <= len(raw) * len(shown) < 2_000_000 + len(raw)
    assert all(r.details == raw for r in shown)
    for result in results[len(shown) :]:
        assert result.code == "ERR_WORK_BUDGET_EXCEEDED", result.summary
        assert "(600 s of CPU / 256 MB read / 2 MB of results) is used up" in result.summary


@pytest.mark.slow
def test_deleting_a_deep_folder_is_refused_before_anything_moves(ws: Path, state: Path) -> None:
    from llm_operator.core.store.tree_walk import count_files

    _nest(ws)
    fd = os.open(ws, os.O_RDONLY | os.O_DIRECTORY)
    try:
        assert count_files(fd, "d") == 1  # deep.py, 5,000 folders down
    finally:
        os.close(fd)
    (result,) = run_limited(ws, state, reply(cmd("d1", "fs.delete", path="d")), "--yes")
    assert result.code == "ERR_FOLDER_TOO_DEEP", result.summary
    assert "nested 4999 levels deep" in result.summary
    assert (ws / "d" / "d").is_dir()


def test_a_folder_two_hundred_deep_is_deleted_and_undone(
    ws: Path, state: Path, tmp_path: Path
) -> None:
    _nest(ws, 200)
    home = tmp_path / "home"
    (home / "share").mkdir(parents=True)
    env = {"HOME": str(home), "XDG_DATA_HOME": str(home / "share")}
    (result,) = run_limited(ws, state, reply(cmd("d1", "fs.delete", path="d")), "--yes", env=env)
    assert result.ok, result.summary
    assert "with 1 file" in result.summary
    assert not (ws / "d").exists()
    command = [sys.executable, "-m", "llm_operator.cli", "undo", "--yes", "--workspace", str(ws)]
    command += ["--state-dir", str(state)]
    undone = subprocess.run(
        command, capture_output=True, text=True, timeout=HANG_LIMIT, env={**os.environ, **env}
    )
    assert undone.returncode == 0, undone.stderr
    assert (ws / ("d/" * 200 + "deep.py")).read_text().startswith("def needle")


@pytest.mark.slow
def test_gitignore_files_count_against_the_budget(ws: Path, state: Path) -> None:
    ignore = ("".join(f"pattern{i}/\n" for i in range(10_000))).encode()  # about 150 KB
    for index in range(40):
        folder = ws / f"f{index:02}"
        folder.mkdir()
        (folder / ".gitignore").write_bytes(ignore)
    (ws / "f39" / "last.txt").write_text("needle\n")
    env = {"LLM_OPERATOR_WORK_BUDGET": "30:1000000"}
    search, outline = run_limited(
        ws,
        state,
        reply(
            cmd("s1", "fs.searchTree", path=".", query="needle"), cmd("o1", "fs.outline", path=".")
        ),
        env=env,
    )
    assert search.ok, search.summary
    assert "stopped: this reply's work budget is used up" in search.summary
    assert "(complete)" not in (search.details or "")
    assert outline.code == "ERR_WORK_BUDGET_EXCEEDED", outline.summary


def test_an_outline_stopped_before_its_first_file_never_says_complete(
    ws: Path, state: Path
) -> None:
    # The walk reads .gitignore first: with a byte budget smaller than it, the budget is
    # spent before any file is outlined.
    (ws / "sub").mkdir()
    (ws / "sub" / ".gitignore").write_text("# " + "x" * 4000 + "\n")
    (ws / "sub" / "code.py").write_text("def needle():\n    pass\n")
    text = reply(
        cmd("o1", "fs.outline", path="."), cmd("s1", "fs.searchTree", path=".", query="needle")
    )
    outline, search = run_limited(ws, state, text, env={"LLM_OPERATOR_WORK_BUDGET": "30:100"})
    for result in (outline, search):
        if result.ok:
            assert "# complete" not in result.details, result.details
            assert "(complete)" not in result.details, result.details
            assert "work budget" in result.summary, result.summary
        else:
            assert result.code == "ERR_WORK_BUDGET_EXCEEDED", result.summary
    assert outline.ok, outline.summary
    assert "# more: " in outline.details


def test_a_pattern_of_thousands_of_capturing_groups_costs_no_time(ws: Path, state: Path) -> None:
    """RE2 tracks every capturing group of every thread: 10,000 groups (21,000 characters)
    cost 40 s a match. A search needs no groups and runs at once; an edit, which may
    use them, refuses the pattern before it runs."""
    (ws / "a.txt").write_text(("a" * 1000 + "\n") * 5, encoding="utf-8")  # 5 matches
    pattern = "((((((((((a))))))))))" * 1000
    edit = {"op": "replaceAll", "find": pattern, "regex": True, "text": "b"}
    text = reply(
        cmd("s1", "fs.searchTree", path=".", regex="true", query_b64=b64(pattern)),
        cmd("s2", "fs.searchTree", path=".", regex="true", query="(a|b){1000}"),
        cmd("e1", "fs.applyEdits", path="a.txt", edits_b64=edits_b64(edit)),
    )
    search, repeated, edit_result = run_limited(ws, state, text, "--no")
    assert search.summary.startswith("Found 5 matches in . "), search.summary
    assert repeated.summary.startswith("Found 5 matches in . "), repeated.summary
    assert edit_result.code == "ERR_INVALID_REGEX"
    # The edit's summary quotes the pattern; its details say why.
    said = edit_result.summary + (edit_result.details or "")
    assert "10000 capturing groups; at most 100 are allowed" in said


@pytest.mark.slow  # one of the slowest: run by .ci/run
def test_a_regex_edit_slow_per_match_stops_at_the_budget(ws: Path, state: Path) -> None:
    """A repeated group costs RE2 about 20 ms a match (3,000 matches: a minute); the edit
    looks at the budget after every regex match, not every 4,096."""
    (ws / "a.txt").write_text(("ab" * 500 + "\n") * 3000, encoding="utf-8")
    edit = {"op": "replaceAll", "find": "(a|b){1000}", "regex": True, "text": "x"}
    text = reply(cmd("e1", "fs.applyEdits", path="a.txt", edits_b64=edits_b64(edit)))
    env = {"LLM_OPERATOR_WORK_BUDGET": "2:1000000000"}
    (result,) = run_limited(ws, state, text, "--no", env=env)
    assert result.code == "ERR_WORK_BUDGET_EXCEEDED", result.summary
    assert "stopped: this regex edit used up this reply's work budget" in result.summary


# -- planning that compares lines -------------------------------------------------------


def test_the_nearest_line_of_a_missing_find_in_a_minified_file_ends(ws: Path, state: Path) -> None:
    """An edit whose find is missing names the most similar line: difflib over a 300 KB
    line and a 5,000-character find took minutes; each side is compared by its start."""
    rng = __import__("random").Random(1)
    line = "".join(rng.choice("abcdefghij") for _ in range(300_000))
    (ws / "bundle.min.js").write_text(f'var x="{line}";\n')
    find = "".join(rng.choice("abcdefghij") for _ in range(5_000))
    edits = edits_b64({"op": "replaceFirst", "find": find, "text": "y"})
    text = reply(cmd("e1", "fs.applyEdits", path="bundle.min.js", edits_b64=edits))
    (result,) = run_limited(ws, state, text, "--no")
    assert result.code == "ERR_ANCHOR_NOT_FOUND", result.summary
    assert result.json()["details"]["nearest_line"] == 1


@pytest.mark.slow  # one of the slowest: run by .ci/run
def test_a_patch_whose_context_repeats_a_million_times_stops_at_the_budget(
    ws: Path, state: Path
) -> None:
    """Hunks stated past the end whose one context line is every line of a 4 MB file: each
    was placed by walking every occurrence; now the walk looks at the reply's budget, and a
    write the budget stopped is not planned a second time under the lock."""
    (ws / "f.txt").write_text("a\n" * 2_000_000)
    patch = "--- a/f.txt\n+++ b/f.txt\n" + "@@ -9999999,1 +9999999,2 @@\n a\n+b\n" * 20
    text = reply(cmd("p1", "fs.patch", path="f.txt", patch_b64=b64(patch)))
    env = {"LLM_OPERATOR_WORK_BUDGET": "2:1000000000"}
    (result,) = run_limited(ws, state, text, "--no", env=env)
    assert result.code == "ERR_WORK_BUDGET_EXCEEDED", result.summary
    assert "placing the patch's hunks" in result.summary
    assert (ws / "f.txt").read_text() == "a\n" * 2_000_000


def test_a_write_over_a_file_of_mixed_breaks_and_many_equal_lines_ends(
    ws: Path, state: Path
) -> None:
    """An overwrite keeps each kept line's own break, found by pairing old and new lines:
    difflib without its junk heuristic took minutes over 200,000 blank lines."""
    (ws / "notes.txt").write_bytes(b"title\r\n" + b"\n" * 200_000)
    text = reply(cmd("w1", "fs.write", path="notes.txt", content_b64=b64("title\n" + "\n" * 5_000)))
    (result,) = run_limited(ws, state, text, "--yes")
    assert result.ok, result.summary
    assert (ws / "notes.txt").read_bytes() == b"title\r\n" + b"\n" * 5_000


def test_a_review_diff_of_repeated_lines_ends(ws: Path, state: Path) -> None:
    """Two writes of one new file, "x" lines and then "x", "y" alternating: the second's
    review diff gave difflib an item of 4,096 lines whose matching is cubic in them (1,024
    took 20 s). Such an item is now matched by its unique lines."""
    first = cmd("w1", "fs.write", path="a.txt", content_b64=b64("x\n" * 2048))
    second = cmd("w2", "fs.write", path="a.txt", content_b64=b64("x\ny\n" * 1024))
    results = run_limited(ws, state, reply(first, second), "--yes")
    assert [result.ok for result in results] == [True, True], results
    assert (ws / "a.txt").read_text() == "x\ny\n" * 1024


@pytest.mark.slow  # one of the slowest: run by .ci/run
def test_a_review_of_many_hunks_in_a_big_item_ends(ws: Path, state: Path) -> None:
    """An edit list doubles one line 16 times (65,536 lines, no line twice), the next
    edit changes one line in eight and the middle 41: one diff item with 8,000 hunks. Each
    hunk's first line was found by walking from the item's ends (quadratic: minutes); the
    walk now goes on from the last hunk."""
    double = {"op": "replaceAll", "find": "^(.+)$", "regex": True, "text": "\\1a\n\\1b"}
    mid = 2**15 + 1
    change = [
        {"op": "replaceAll", "find": "^(.*bbb)$", "regex": True, "text": "\\1X"},
        {"op": "replaceRange", "startLine": mid - 20, "endLine": mid + 20, "text": "c\n" * 41},
    ]
    text = reply(
        cmd("w1", "fs.write", path="a.txt", content="x"),
        cmd("e1", "fs.applyEdits", path="a.txt", edits_b64=edits_b64(*[double] * 16)),
        cmd("e2", "fs.applyEdits", path="a.txt", edits_b64=edits_b64(*change)),
    )
    results = run_limited(ws, state, text, "--yes")
    assert [result.ok for result in results] == [True, True, True], results
    lines = (ws / "a.txt").read_text().splitlines()
    assert len(lines) == 2**16
    assert sum(line.endswith("bbbX") for line in lines) > 7000


def test_a_review_of_forty_million_new_lines_ends_in_little_memory(ws: Path, state: Path) -> None:
    """Edit lists of 200 characters grow ten characters to one line of 9,990,000 and then
    to 39,960,000 line breaks: the review split them all into lines and rows (minutes and
    gigabytes, past the memory limit here). Such an item is not matched line by line, the
    review shows its first lines and says so, and the counts stay exact."""
    grow = [
        {"op": "replaceAll", "find": "x", "text": "x" * 1000},
        {"op": "replaceAll", "find": "x", "text": "x" * 999},
    ]
    text = reply(
        cmd("w1", "fs.write", path="a.txt", content="x" * 10),
        cmd("e1", "fs.applyEdits", path="a.txt", edits_b64=edits_b64(*grow)),
        cmd(
            "e2",
            "fs.applyEdits",
            path="a.txt",
            edits_b64=edits_b64({"op": "replaceAll", "find": "x", "text": "\n" * 4}),
        ),
    )
    results = run_limited(ws, state, text, "--no")
    assert [result.ok for result in results] == [False] * 3
    assert all("rejected" in result.summary.lower() for result in results), results
    assert not (ws / "a.txt").exists()
