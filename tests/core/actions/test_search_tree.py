"""fs.searchTree: format, limits, skipping rules, .gitignore and a stable order."""

from __future__ import annotations

import itertools
import os
import re
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from llm_operator.core.actions.search_tree import MAX_FILE_BYTES, MAX_FILES, MAX_MATCHES

SEARCH_IDS = itertools.count(1)  # each search gets a new id: the state dir remembers ids
HIT = re.compile(r"(?P<path>[^:]+):(?P<line>[0-9]+): (?P<text>.*)\Z")


def split(details: str) -> tuple[list[str], list[tuple[str, int, str]]]:
    """(header lines, matches as (path, line, text))."""
    heads: list[str] = []
    hits: list[tuple[str, int, str]] = []
    for line in details.rstrip("\n").split("\n"):
        if line.startswith("#"):
            heads.append(line)
            continue
        match = HIT.match(line)
        assert match, f"not <path>:<line>: <text>: {line!r}"
        hits.append((match["path"], int(match["line"]), match["text"]))
    return heads, hits


def counts(heads: list[str]) -> tuple[int, int]:
    """(files scanned, files skipped) from the header."""
    (line,) = [h for h in heads if h.startswith("# files scanned:")]
    match = re.match(r"# files scanned: (\d+); skipped: (\d+)", line)
    assert match, line
    return int(match[1]), int(match[2])


def truncated(heads: list[str]) -> bool:
    (line,) = [h for h in heads if h.startswith("# matches:")]
    return "truncated" in line


def search(run_reply: Any, cmd: Any, query: str, path: str = ".") -> Any:
    (result,) = run_reply(cmd(f"tree-{next(SEARCH_IDS)}", "fs.searchTree", path=path, query=query))
    assert result.ok, result.summary
    return result


def write(root: Path, rel: str, text: str | bytes) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")


def test_matches_are_path_line_text(run_reply: Any, cmd: Any, workspace: Path) -> None:
    write(workspace, "docs/guide.md", "intro\nsee main() here\n\nmain again\n")
    result = search(run_reply, cmd, "main")
    heads, hits = split(result.details)
    assert hits == [
        ("docs/guide.md", 2, "see main() here"),
        ("docs/guide.md", 4, "main again"),
        ("src/main.py", 4, "def main():"),
    ]
    assert heads[0] == "# path: ."
    assert "# query: main" in heads
    assert not truncated(heads)


def test_one_line_with_two_hits_is_listed_once(run_reply: Any, cmd: Any, workspace: Path) -> None:
    write(workspace, "twice.txt", "aXa aXa\nnone\nX\n")
    _, hits = split(search(run_reply, cmd, "X", path="twice.txt").details)
    assert hits == [("twice.txt", 1, "aXa aXa"), ("twice.txt", 3, "X")]


def test_crlf_lines_are_shown_without_cr(run_reply: Any, cmd: Any, workspace: Path) -> None:
    write(workspace, "win.txt", b"first\r\nneedle here\r\n")
    _, hits = split(search(run_reply, cmd, "needle").details)
    assert hits == [("win.txt", 2, "needle here")]


def test_match_cap_is_200_and_the_header_says_truncated(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    for n in range(3):
        write(workspace, f"many/f{n}.txt", "hit\n" * 100)
    result = search(run_reply, cmd, "hit", path="many")
    heads, hits = split(result.details)
    assert len(hits) == MAX_MATCHES == 200
    assert hits[0] == ("many/f0.txt", 1, "hit")
    assert hits[-1] == ("many/f1.txt", 100, "hit")
    assert truncated(heads)
    assert "truncated" in result.summary
    # The walk stops at the cap: the third file is left for the next call.
    assert "after: many/f1.txt" in result.summary
    assert heads[-1] == "# more: after: many/f1.txt"


def test_file_cap_is_300(run_reply: Any, cmd: Any, workspace: Path) -> None:
    for n in range(MAX_FILES + 5):
        write(workspace, f"lots/f{n:04d}.txt", "needle\n")
    result = search(run_reply, cmd, "needle", path="lots")
    heads, hits = split(result.details)
    assert MAX_FILES == 300
    # The match cap binds first here, and the walk stops there: 200 files read, not 300.
    assert counts(heads)[0] == 200
    assert len(hits) == 200
    assert truncated(heads)
    assert any("match limit" in h for h in heads)
    assert heads[-1] == "# more: after: lots/f0199.txt"


def test_file_cap_alone_truncates(run_reply: Any, cmd: Any, workspace: Path) -> None:
    for n in range(MAX_FILES + 5):
        write(workspace, f"lots/f{n:04d}.txt", "needle\n" if n < 3 or n > 301 else "hay\n")
    heads, hits = split(search(run_reply, cmd, "needle", path="lots").details)
    assert [path for path, _, _ in hits] == ["lots/f0000.txt", "lots/f0001.txt", "lots/f0002.txt"]
    assert truncated(heads)
    assert any("file limit 300" in h for h in heads)


def test_files_over_500000_bytes_are_skipped(run_reply: Any, cmd: Any, workspace: Path) -> None:
    write(workspace, "big/large.txt", "needle\n" + "x" * (MAX_FILE_BYTES - 7 + 1))
    write(workspace, "big/edge.txt", "needle\n" + "x" * (MAX_FILE_BYTES - 7))
    assert (workspace / "big/large.txt").stat().st_size == 500_001
    assert (workspace / "big/edge.txt").stat().st_size == 500_000
    heads, hits = split(search(run_reply, cmd, "needle", path="big").details)
    assert [path for path, _, _ in hits] == ["big/edge.txt"]
    assert counts(heads) == (1, 1)
    assert any("1 over 500000 bytes" in h for h in heads)


def test_git_folders_and_binary_files_are_skipped(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    write(workspace, ".git/config", "needle in git\n")
    write(workspace, "sub/.git/HEAD", "needle in nested git\n")
    write(workspace, "image.bin", b"\x89PNG\x00\x00needle\n")
    write(workspace, "text.txt", "needle\n")
    heads, hits = split(search(run_reply, cmd, "needle").details)
    assert [path for path, _, _ in hits] == ["text.txt"]
    assert any("1 binary" in h for h in heads)


def test_gitignore_is_respected_including_nested_ones(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    write(workspace, ".gitignore", "*.log\nbuild/\n")
    write(workspace, "app.log", "needle\n")
    write(workspace, "build/out.txt", "needle\n")
    write(workspace, "pkg/.gitignore", "generated.txt\n!keep.log\n")
    write(workspace, "pkg/generated.txt", "needle\n")
    write(workspace, "pkg/keep.log", "needle\n")
    write(workspace, "pkg/drop.log", "needle\n")
    write(workspace, "pkg/kept.txt", "needle\n")
    write(workspace, "other/generated.txt", "needle\n")  # the nested rule applies below pkg only
    heads, hits = split(search(run_reply, cmd, "needle").details)
    assert [path for path, _, _ in hits] == [
        "other/generated.txt",
        "pkg/keep.log",
        "pkg/kept.txt",
    ]
    assert any("ignored by .gitignore" in h for h in heads)
    assert counts(heads)[1] == 4  # app.log, build/, pkg/generated.txt, pkg/drop.log


def test_gitignore_of_folders_above_the_start_folder_applies(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    write(workspace, ".gitignore", "*.log\npkg/build/\n")
    write(workspace, "pkg/app.log", "needle\n")
    write(workspace, "pkg/build/out.txt", "needle\n")
    write(workspace, "pkg/src/code.txt", "needle\n")
    from_root = split(search(run_reply, cmd, "needle").details)[1]
    from_pkg = split(search(run_reply, cmd, "needle", path="pkg").details)[1]
    from_src = split(search(run_reply, cmd, "needle", path="pkg/src").details)[1]
    assert from_root == from_pkg == from_src == [("pkg/src/code.txt", 1, "needle")]


def test_order_is_stable_across_runs(run_reply: Any, cmd: Any, workspace: Path) -> None:
    names = ["b/z.txt", "a.txt", "B.txt", "b/a.txt", "a/b/c.txt", "a-b.txt", "_x.txt"]
    for name in names:
        write(workspace, name, "needle\n")
    first = search(run_reply, cmd, "needle").details
    for name in names:  # touch in another order: the file system order may change
        os.utime(workspace / name)
    second = search(run_reply, cmd, "needle").details
    assert second == first
    # Depth first, each folder's names sorted by code point ("a" < "a-b.txt" < "a.txt").
    paths = [path for path, _, _ in split(first)[1]]
    assert paths == ["B.txt", "_x.txt", "a/b/c.txt", "a-b.txt", "a.txt", "b/a.txt", "b/z.txt"]


def test_a_single_file_can_be_searched(run_reply: Any, cmd: Any) -> None:
    heads, hits = split(search(run_reply, cmd, "print", path="src/main.py").details)
    assert hits == [("src/main.py", 5, "    print('hello')")]
    assert counts(heads) == (1, 0)


def test_missing_path(run_reply: Any, cmd: Any) -> None:
    (result,) = run_reply(cmd("tree-x", "fs.searchTree", path="nowhere", query="x"))
    assert result.summary.startswith("fs.searchTree failed (ERR_FILE_NOT_FOUND): ")


def _feed_readers(fifo: Path, stop: threading.Event) -> None:
    """Unblock anyone who opens ``fifo`` for reading, so a bug fails instead of hanging."""
    while not stop.is_set():
        try:
            handle = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:  # no reader yet
            time.sleep(0.01)
            continue
        os.write(handle, b"x\n")
        os.close(handle)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_is_refused_not_read(run_reply: Any, cmd: Any, workspace: Path) -> None:
    fifo = workspace / "pipe"
    os.mkfifo(fifo)
    stop = threading.Event()
    feeder = threading.Thread(target=_feed_readers, args=(fifo, stop), daemon=True)
    feeder.start()
    try:
        (result,) = run_reply(cmd("fifo", "fs.searchTree", path="pipe", query="x"))
        # Inside a folder a FIFO is passed over, never opened.
        (inside,) = run_reply(cmd("fifo-2", "fs.searchTree", path=".", query="x"))
    finally:
        stop.set()
        feeder.join()
    assert result.summary.startswith("fs.searchTree failed (ERR_NOT_A_FILE): ")
    assert "pipe:" not in (inside.details or "")


@pytest.mark.skipif(sys.platform == "win32", reason="symlinks")
def test_symlinked_folder_inside_the_root_is_not_followed(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    os.symlink("src", workspace / "loop")
    _, hits = split(search(run_reply, cmd, "VALUE").details)
    assert hits == [("src/pkg/util.py", 1, "VALUE = 42")]
