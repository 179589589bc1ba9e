"""Read actions through a session: fs.list, fs.read, fs.readSlice, fs.search, fs.stat,
and the operator.* actions."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from support.paths import SPEC_FILE


def numbered(details: str) -> list[tuple[int, str]]:
    """The numbered lines of a readSlice/search payload (header lines start with #)."""
    out = []
    for line in details.rstrip("\n").split("\n"):
        if line.startswith("#") or not line:
            continue
        number, _, text = line.partition(": ")
        out.append((int(number), text))
    return out


def header(details: str) -> list[str]:
    return [line for line in details.split("\n") if line.startswith("#")]


def one(run_reply: Any, text: str) -> Any:
    (result,) = run_reply(text)
    return result


# -- fs.list --------------------------------------------------------------------------


def test_list_entries_one_per_line(run_reply: Any, cmd: Any, workspace: Path) -> None:
    (workspace / "empty").mkdir()
    os.symlink("README.md", workspace / "link.md")
    result = one(run_reply, cmd("l1", "fs.list", path="."))
    assert result.ok
    assert result.details.splitlines() == ["README.md", "empty/", "link.md@", "src/"]
    nested = one(run_reply, cmd("l2", "fs.list", path="src/pkg"))
    assert nested.details.splitlines() == ["util.py"]


def test_list_of_an_empty_folder_has_no_details_line(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    (workspace / "empty").mkdir()
    result = one(run_reply, cmd("l-empty", "fs.list", path="empty"))
    assert result.ok
    assert result.details is None
    assert "0 entries" in result.summary


@pytest.mark.parametrize(
    ("path", "code"), [("README.md", "ERR_NOT_A_DIRECTORY"), ("nope", "ERR_FILE_NOT_FOUND")]
)
def test_list_failures(path: str, code: str, run_reply: Any, cmd: Any) -> None:
    result = one(run_reply, cmd("l-bad", "fs.list", path=path))
    assert not result.ok
    assert result.summary.startswith(f"fs.list failed ({code}): ")


# -- fs.read --------------------------------------------------------------------------


def test_read_returns_the_whole_file(run_reply: Any, cmd: Any, workspace: Path) -> None:
    text = "naive caf\u00e9\nline two\n"
    (workspace / "notes.txt").write_text(text, encoding="utf-8")
    result = one(run_reply, cmd("r1", "fs.read", path="notes.txt"))
    assert result.ok
    assert result.details == text
    assert "notes.txt" in result.summary


def test_read_missing_file_suggests_a_near_name(run_reply: Any, cmd: Any) -> None:
    result = one(run_reply, cmd("r2", "fs.read", path="src/mian.py"))
    assert result.summary.startswith("fs.read failed (ERR_FILE_NOT_FOUND): ")
    assert "src/main.py" in result.summary


def test_read_of_a_folder_fails(run_reply: Any, cmd: Any) -> None:
    result = one(run_reply, cmd("r3", "fs.read", path="src"))
    assert result.summary.startswith("fs.read failed (ERR_IS_A_DIRECTORY): ")


def test_read_of_bytes_that_are_not_utf8(run_reply: Any, cmd: Any, workspace: Path) -> None:
    (workspace / "latin1.txt").write_bytes(b"caf\xe9\n")
    result = one(run_reply, cmd("r4", "fs.read", path="latin1.txt"))
    assert result.summary.startswith("fs.read failed (ERR_ENCODING_ERROR): ")


# -- fs.readSlice ---------------------------------------------------------------------


@pytest.fixture
def lines_file(workspace: Path) -> Path:
    path = workspace / "lines.txt"
    path.write_text("".join(f"line {n}\n" for n in range(1, 1001)), encoding="utf-8")
    return path


def test_read_slice_defaults_to_120_lines_from_line_1(
    run_reply: Any, cmd: Any, lines_file: Path
) -> None:
    result = one(run_reply, cmd("s1", "fs.readSlice", path="lines.txt"))
    assert result.ok
    rows = numbered(result.details)
    assert rows == [(n, f"line {n}") for n in range(1, 121)]
    heads = header(result.details)
    assert heads
    assert all(line.startswith("#") for line in heads)
    assert "# lines 1-120 of 1000" in heads
    assert "# more: start: 121" in heads


@pytest.mark.parametrize(
    ("params", "first", "count"),
    [
        ({"start": "10", "lines": "5"}, 10, 5),
        ({"line": "10", "count": "5"}, 10, 5),
        ({"from": "990", "len": "400"}, 990, 11),
        ({"start": "500", "lines": "400"}, 500, 400),
        ({"lines": "1"}, 1, 1),
    ],
)
def test_read_slice_params_and_aliases(
    params: dict[str, str], first: int, count: int, run_reply: Any, cmd: Any, lines_file: Path
) -> None:
    result = one(run_reply, cmd("s2", "fs.readSlice", path="lines.txt", **params))
    rows = numbered(result.details)
    assert rows == [(n, f"line {n}") for n in range(first, first + count)]
    last = first + count - 1
    assert f"# lines {first}-{last} of 1000" in header(result.details)


def test_read_slice_last_lines_say_end_of_file(run_reply: Any, cmd: Any, workspace: Path) -> None:
    (workspace / "short.txt").write_text("a\nb", encoding="utf-8")
    result = one(run_reply, cmd("s3", "fs.readSlice", path="short.txt"))
    assert numbered(result.details) == [(1, "a"), (2, "b")]
    assert "# end of file (no final newline)" in header(result.details)


def test_read_slice_counts_only_newlines_as_line_ends(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    # A form feed, a vertical tab and U+2028 are characters inside a line, not line ends:
    # the numbers must agree with fs.search, fs.searchTree and the edit actions.
    text = "page one\x0cpage two\nvt\x0bhere\nsep\u2028same line\nlast\n"
    (workspace / "ff.txt").write_text(text, encoding="utf-8")
    results = run_reply(
        cmd("ff1", "fs.readSlice", path="ff.txt")
        + "\n"
        + cmd("ff2", "fs.search", path="ff.txt", q="last")
        + "\n"
        + cmd("ff3", "fs.searchTree", path=".", q="last")
    )
    rows = numbered(results[0].details)
    assert [n for n, _ in rows] == [1, 2, 3, 4]
    assert rows[3] == (4, "last")
    assert "# lines 1-4 of 4" in header(results[0].details)
    assert numbered(results[1].details) == [(4, "last")]
    assert "ff.txt:4: last" in results[2].details.split("\n")


def test_read_slice_crlf_file(run_reply: Any, cmd: Any, workspace: Path) -> None:
    (workspace / "win.txt").write_bytes(b"one\r\ntwo\r\n")
    result = one(run_reply, cmd("crlf", "fs.readSlice", path="win.txt"))
    assert numbered(result.details) == [(1, "one"), (2, "two")]
    assert any("CRLF" in line for line in header(result.details))


def test_read_slice_of_an_empty_file(run_reply: Any, cmd: Any, workspace: Path) -> None:
    (workspace / "empty.txt").write_bytes(b"")
    result = one(run_reply, cmd("empty", "fs.readSlice", path="empty.txt"))
    assert result.ok
    assert numbered(result.details) == []


# -- fs.search ------------------------------------------------------------------------


def test_search_lists_matching_lines_with_numbers(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    result = one(run_reply, cmd("q1", "fs.search", path="src/main.py", query="main"))
    assert result.ok
    assert numbered(result.details) == [(4, "def main():")]
    assert header(result.details)[0] == "# path: src/main.py"
    assert all("(truncated)" not in line for line in header(result.details))


def test_search_q_alias_and_base64_query(run_reply: Any, cmd: Any, workspace: Path) -> None:
    (workspace / "de.txt").write_text("gr\u00fcn\nblau\ngr\u00fcner\n", encoding="utf-8")
    import base64

    encoded = base64.b64encode("gr\u00fcn".encode()).decode("ascii")
    by_q, by_b64 = run_reply(
        cmd("q2", "fs.search", path="de.txt", q="blau")
        + "\n"
        + cmd("q3", "fs.search", path="de.txt", query_b64=encoded)
    )
    assert numbered(by_q.details) == [(2, "blau")]
    assert numbered(by_b64.details) == [(1, "gr\u00fcn"), (3, "gr\u00fcner")]


def test_search_caps_at_50_matches(run_reply: Any, cmd: Any, lines_file: Path) -> None:
    result = one(run_reply, cmd("q4", "fs.search", path="lines.txt", query="line"))
    rows = numbered(result.details)
    assert rows == [(n, f"line {n}") for n in range(1, 51)]
    assert any("(truncated)" in line for line in header(result.details))
    assert "truncated" in result.summary


def test_search_exactly_50_matches_is_not_truncated(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    (workspace / "fifty.txt").write_text("hit\n" * 50 + "miss\n", encoding="utf-8")
    result = one(run_reply, cmd("q5", "fs.search", path="fifty.txt", query="hit"))
    assert len(numbered(result.details)) == 50
    assert all("truncated" not in line for line in header(result.details))


def test_search_without_matches(run_reply: Any, cmd: Any) -> None:
    result = one(run_reply, cmd("q6", "fs.search", path="README.md", query="zebra"))
    assert result.ok
    assert numbered(result.details) == []


# -- fs.stat --------------------------------------------------------------------------


def test_stat_has_exactly_the_spec_keys(run_reply: Any, cmd: Any, workspace: Path) -> None:
    file_result, dir_result = run_reply(
        cmd("st1", "fs.stat", path="README.md") + "\n" + cmd("st2", "fs.stat", path="src")
    )
    payload = file_result.json()
    assert list(payload) == ["path", "size", "isFile", "isDir", "mtimeMs", "ctimeMs"]
    info = (workspace / "README.md").stat()
    assert payload["path"] == "README.md"
    assert payload["size"] == info.st_size
    assert (payload["isFile"], payload["isDir"]) == (True, False)
    assert payload["mtimeMs"] == info.st_mtime_ns // 1_000_000
    assert isinstance(payload["ctimeMs"], int)
    folder = dir_result.json()
    assert set(folder) == set(payload)
    assert (folder["path"], folder["isFile"], folder["isDir"]) == ("src", False, True)


def test_stat_of_the_root_and_of_nothing(run_reply: Any, cmd: Any) -> None:
    root, missing = run_reply(
        cmd("st3", "fs.stat", path=".") + "\n" + cmd("st4", "fs.stat", path="ghost.txt")
    )
    assert root.json()["path"] == "."
    assert missing.summary.startswith("fs.stat failed (ERR_FILE_NOT_FOUND): ")


@pytest.mark.skipif(sys.platform == "win32", reason="named pipes")
def test_stat_of_a_named_pipe_does_not_call_it_a_file(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    os.mkfifo(workspace / "pipe.py")
    result = one(run_reply, cmd("st5", "fs.stat", path="pipe.py"))
    assert result.summary == "Stat pipe.py: FIFO (named pipe), 0 bytes"
    assert (result.json()["isFile"], result.json()["isDir"]) == (False, False)


@pytest.mark.skipif(sys.platform == "win32", reason="named pipes")
def test_every_message_names_a_named_pipe_the_same_way(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    # A stat, a read and a write all say what it is in the one wording of
    # ``passed_over.kind_of``, the wording a pack's list of what it left out uses.
    os.mkfifo(workspace / "pipe.py")
    stat, read, write = run_reply(
        cmd("st6", "fs.stat", path="pipe.py")
        + "\n"
        + cmd("rd6", "fs.read", path="pipe.py")
        + "\n"
        + cmd("wr6", "fs.write", path="pipe.py", content="x")
    )
    assert "FIFO (named pipe)" in stat.summary
    assert "is a FIFO (named pipe), not a regular file" in read.summary, read.summary
    assert "is a FIFO (named pipe), not a regular file" in write.summary, write.summary
    assert "named pipe (FIFO)" not in stat.summary + read.summary + write.summary


# -- operator.* -----------------------------------------------------------------------


def test_get_interface_spec_serves_the_resource_text(run_reply: Any, cmd: Any) -> None:
    result = one(run_reply, cmd("spec", "operator.getInterfaceSpec"))
    assert result.id == "spec"
    if not SPEC_FILE.is_file():
        pytest.skip("resources/interface-spec.txt is not in the repository yet")
    assert result.ok, result.summary
    assert result.details == SPEC_FILE.read_text(encoding="utf-8")


def test_get_comment_style_for_one_language(run_reply: Any, cmd: Any) -> None:
    ts, html, alias = run_reply(
        cmd("cs1", "operator.getCommentStyle", language="typescript")
        + "\n"
        + cmd("cs2", "operator.getCommentStyle", language="html")
        + "\n"
        + cmd("cs3", "operator.getCommentStyle", language="py")
    )
    assert ts.json() == {"language": "ts", "type": "line", "line_prefix": "//"}
    assert html.json() == {
        "language": "html",
        "type": "block",
        "block_start": "<!--",
        "block_end": "-->",
    }
    assert alias.json()["language"] == "python"


def test_get_comment_style_for_all_languages(run_reply: Any, cmd: Any) -> None:
    result = one(run_reply, cmd("cs4", "operator.getCommentStyle"))
    payload = result.json()
    assert list(payload) == ["styles"]
    styles = payload["styles"]
    assert len(styles) >= 25
    languages = [style["language"] for style in styles]
    assert len(set(languages)) == len(languages)
    assert {"python", "ts", "html", "css", "rust", "go"} <= set(languages)
    for style in styles:
        assert style["type"] in ("line", "block")


def test_get_comment_style_unknown_language(run_reply: Any, cmd: Any) -> None:
    result = one(run_reply, cmd("cs5", "operator.getCommentStyle", language="klingon"))
    assert not result.ok
    assert re.match(r"operator\.getCommentStyle failed \(ERR_UNKNOWN_LANGUAGE\): ", result.summary)


def test_details_are_json_where_the_spec_says_json(run_reply: Any, cmd: Any) -> None:
    result = one(run_reply, cmd("cs6", "operator.getCommentStyle", language="css"))
    assert json.loads(result.details)["language"] == "css"
