"""Names met by fs.searchTree / fs.outline / fs.list as the model and the person read them:
a summary never carries a raw invisible or bidi character, a cursor can be sent back as it
is given, a walk always moves forward, and no name reads as something it is not.

Each case runs a real ``llm-operator exec`` process (the work budget set through its
``LLM_OPERATOR_WORK_BUDGET`` seam where a cut is needed).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from support.actions import b64
from support.fixtures import cmd, reply
from support.limited import run_limited

RLO = "\u202e"


def test_search_summary_escapes_a_bidi_name_as_the_details_do(ws: Path, state: Path) -> None:
    (ws / f"d{RLO}exe.txt").write_text("needle\n" * 3)
    (ws / "z.txt").write_text("needle\n")
    text = reply(cmd("s1", "fs.searchTree", path=".", query="needle"))
    (result,) = run_limited(ws, state, text, env={"LLM_OPERATOR_WORK_BUDGET": "30:10"})
    assert result.ok, result.summary
    assert RLO not in result.summary
    assert "d\\u202eexe.txt" in result.summary, result.summary


def test_outline_summary_escapes_a_bidi_name(ws: Path, state: Path) -> None:
    (ws / f"m{RLO}yp.py").write_text("def f():\n    return 1\n")
    (ws / "z.py").write_text("def g():\n    return 2\n")
    text = reply(cmd("o1", "fs.outline", path="."))
    (result,) = run_limited(ws, state, text, env={"LLM_OPERATOR_WORK_BUDGET": "30:10"})
    assert result.ok, result.summary
    assert RLO not in result.summary, result.summary
    assert "m\\u202eyp.py" in result.summary, result.summary


def _more_line(details: str) -> str:
    (line,) = [line for line in details.splitlines() if line.startswith("# more: ")]
    return line.removeprefix("# more: ")


def _non_ascii_tree(ws: Path) -> None:
    for name in ("a.txt", "z.txt", "\u00e9.txt", "\u00fc.txt"):
        (ws / name).write_text("needle\n" * 150)


def test_search_resumes_after_a_non_ascii_name_with_the_cursor_it_gives(
    ws: Path, state: Path
) -> None:
    _non_ascii_tree(ws)
    first = reply(cmd("s1", "fs.searchTree", path=".", query="needle", after="z.txt"))
    (result,) = run_limited(ws, state, first)
    assert result.ok, result.summary
    cursor = _more_line(result.details)
    assert cursor == 'after_json: "\\u00e9.txt"', cursor
    assert cursor in result.summary, result.summary
    assert cursor.isascii()
    key, _, value = cursor.partition(": ")
    second = reply(cmd("s2", "fs.searchTree", path=".", query="needle", **{key: value}))
    (resumed,) = run_limited(ws, state, second)
    assert resumed.ok, resumed.summary
    assert resumed.details.count("\u00fc.txt:") == 150, resumed.summary
    assert "\u00e9.txt:" not in resumed.details
    assert "# more:" not in resumed.details


def test_after_b64_resumes_a_search_too(ws: Path, state: Path) -> None:
    _non_ascii_tree(ws)
    text = reply(cmd("s1", "fs.searchTree", path=".", query="needle", after_b64=b64("\u00e9.txt")))
    (result,) = run_limited(ws, state, text)
    assert result.ok, result.summary
    assert result.details.count("\u00fc.txt:") == 150


def test_outline_resumes_after_a_non_ascii_name_with_the_cursor_it_gives(
    ws: Path, state: Path
) -> None:
    for name in ("a.py", "\u00e9.py", "\u00fc.py"):
        (ws / name).write_text("def f():\n    return 1\n" * 5)
    first = reply(cmd("o1", "fs.outline", path="."))
    (result,) = run_limited(ws, state, first, env={"LLM_OPERATOR_WORK_BUDGET": "30:150"})
    assert result.ok, result.summary
    cursor = _more_line(result.details)
    assert cursor.startswith("after_json: "), cursor
    assert cursor in result.summary, result.summary
    key, _, value = cursor.partition(": ")
    second = reply(cmd("o2", "fs.outline", path=".", **{key: value}))
    (resumed,) = run_limited(ws, state, second)
    assert resumed.ok, resumed.summary
    assert "\u00fc.py (" in resumed.details, resumed.details
    assert "# complete" in resumed.details


def _follow(
    ws: Path, state: Path, env: dict[str, str], limit: int, **fields: str
) -> tuple[list[str], list[str]]:
    """fs.searchTree from the start, then again with each '# more:' cursor it gives, one
    reply each; (every cursor, every match line). Fails when a cursor does not move forward
    or when a call ends short of '(complete)' without a cursor."""
    cursors: list[str] = []
    matches: list[str] = []
    extra: dict[str, str] = {}
    for number in range(limit):
        text = reply(
            cmd(f"s{number}", "fs.searchTree", path=".", query="needle", **fields, **extra)
        )
        (result,) = run_limited(ws, state / str(number), text, env=env)
        assert result.ok, result.summary
        lines = result.details.splitlines()
        matches += [line for line in lines if not line.startswith("#")]
        more = [line for line in lines if line.startswith("# more: ")]
        if not more:
            assert any(line.endswith("(complete)") for line in lines), result.details
            return cursors, matches
        cursor = more[0].removeprefix("# more: ")
        assert not cursors or cursor.split("/") > cursors[-1].split("/"), (cursors, cursor)
        cursors.append(cursor)
        key, _, value = cursor.partition(": ")
        extra = {key: value}
    raise AssertionError(f"no end after {limit} calls: {cursors[-3:]}")


@pytest.mark.slow  # one of the slowest: run by .ci/run
def test_a_deep_tree_of_long_gitignore_files_is_searched_to_its_end(ws: Path, state: Path) -> None:
    folder = ws
    for level in range(40):
        folder = folder / "d"
        folder.mkdir()
        lines = "".join(f"**/x{level}_{j}*y*z*/**/q\n" for j in range(3000))
        (folder / ".gitignore").write_text(lines)
        (folder / "f.txt").write_text("needle\n")
    env = {"LLM_OPERATOR_WORK_BUDGET": "8:256000000"}
    _, matches = _follow(ws, state, env, 12)
    assert len(matches) == 40, matches[-3:]
    assert len(set(matches)) == 40


@pytest.mark.slow  # one of the slowest: run by .ci/run
def test_a_walk_that_leaves_out_every_file_still_moves_forward(ws: Path, state: Path) -> None:
    (ws / ".gitignore").write_text("*.log\n" * 5)  # read first: it uses up the byte budget
    for name in ("a", "b", "c"):
        (ws / name).mkdir()
        for file in ("1.txt", "2.txt"):
            (ws / name / file).write_text("needle\n")
    env = {"LLM_OPERATOR_WORK_BUDGET": "30:10"}
    cursors, matches = _follow(ws, state, env, 15, exclude="*.txt, .gitignore")
    assert matches == []
    assert len(cursors) >= 2


def test_delete_of_a_folder_link_with_a_slash_says_it_is_a_link(ws: Path, state: Path) -> None:
    (ws / "real").mkdir()
    (ws / "real" / "keep.txt").write_text("kept\n")
    (ws / "lndir").symlink_to("real")
    (ws / "lnfile").symlink_to("real/keep.txt")
    text = reply(cmd("d1", "fs.delete", path="lndir/"), cmd("d2", "fs.delete", path="lnfile/"))
    folder, file = run_limited(ws, state, text, "--yes")
    assert folder.code == "ERR_NOT_A_DIRECTORY", folder.summary
    assert "'lndir' is a symlink to a folder" in folder.summary, folder.summary
    assert "only the link" in folder.summary
    assert "is a file" not in folder.summary
    assert file.code == "ERR_NOT_A_DIRECTORY", file.summary
    assert "'lnfile' is a symlink;" in file.summary, file.summary
    assert (ws / "lndir").is_symlink()
    assert (ws / "lnfile").is_symlink()
    assert (ws / "real" / "keep.txt").read_text() == "kept\n"


def test_a_name_that_reads_as_a_match_is_quoted_in_search_lines(ws: Path, state: Path) -> None:
    (ws / "x.txt").write_text("plain\n")
    (ws / "x.txt:1: needle").write_text("other\nneedle too\n")
    text = reply(cmd("s1", "fs.searchTree", path=".", query="needle"))
    (result,) = run_limited(ws, state, text)
    assert result.ok, result.summary
    lines = [line for line in result.details.splitlines() if not line.startswith("#")]
    assert lines == ['"x.txt:1: needle":2: needle too'], lines
    assert not any(line.startswith("x.txt:") for line in lines)


def test_list_marks_only_real_links_and_folders(ws: Path, state: Path) -> None:
    (ws / "evil@").write_text("a regular file\n")
    (ws / "plain.txt").write_text("x\n")
    (ws / "evil").symlink_to("plain.txt")
    (ws / "sub").mkdir()
    text = reply(cmd("l1", "fs.list", path="."))
    (result,) = run_limited(ws, state, text)
    assert result.ok, result.summary
    assert result.details.splitlines() == ["evil@", '"evil@"', "plain.txt", "sub/"]
    assert "2 files" in result.summary, result.summary
    assert "1 symlink" in result.summary, result.summary
