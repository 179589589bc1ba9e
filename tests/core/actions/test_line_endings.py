"""Line endings as reads tell them: a read shows every line break as LF, so its summary (and
fs.readSlice's header) names any other style: CRLF, a lone CR (classic Mac) or a mix, with
each kind counted. Every action numbers the lines of such a file alike (fs.readSlice,
fs.search, fs.searchTree), and edits keep the file's CR breaks."""

from __future__ import annotations

import itertools
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from llm_operator.core.plan.session import Session
from llm_operator.core.store.workspace import Workspace
from support.actions import b64, edits_b64
from support.examples import examples
from support.fixtures import cmd, run_session

BOM = b"\xef\xbb\xbf"

# name: (bytes, the note a read gives, the lines a read shows)
FILES: dict[str, tuple[bytes, str, list[str]]] = {
    "lf.txt": (b"one\ntwo\nthree\n", "", ["one", "two", "three"]),
    "crlf.txt": (b"one\r\ntwo\r\nthree\r\n", "CRLF line endings", ["one", "two", "three"]),
    "cr.txt": (b"one\rtwo\rthree\r", "CR line endings", ["one", "two", "three"]),
    "cr_no_final.txt": (b"one\rtwo\rthree", "CR line endings", ["one", "two", "three"]),
    "cr_blank.txt": (b"one\r\r\rtwo\r", "CR line endings", ["one", "", "", "two"]),
    "cr_bom.txt": (BOM + b"one\rtwo\r", "CR line endings, UTF-8 BOM", ["one", "two"]),
    "mixed.txt": (
        b"one\r\ntwo\nthree\rfour\r\n",
        "mixed line endings: 2 CRLF + 1 LF + 1 CR",
        ["one", "two", "three", "four"],
    ),
    "mostly_cr.txt": (
        b"one\rtwo\rthree\nfour",
        "mixed line endings: 2 CR + 1 LF",
        ["one", "two", "three", "four"],
    ),
}


@pytest.fixture
def endings(workspace: Path) -> Path:
    for name, (data, _, _) in FILES.items():
        (workspace / name).write_bytes(data)
    return workspace


def numbered(details: str) -> list[tuple[int, str]]:
    rows = []
    for line in details.rstrip("\n").split("\n"):
        if line.startswith("#") or not line:
            continue
        number, _, text = line.partition(": ")
        rows.append((int(number), text))
    return rows


@pytest.mark.parametrize("name", FILES)
def test_reads_name_the_line_endings_they_show_as_lf(
    run_reply: Any, endings: Path, name: str
) -> None:
    data, note, lines = FILES[name]
    read, sliced = run_reply(
        cmd("r", "fs.read", path=name) + "\n" + cmd("s", "fs.readSlice", path=name)
    )
    assert read.ok, read.summary
    # The details are the text the read shows (both result forms carry the same bytes).
    final = b"" if data.endswith((b"\n", b"\r")) else None
    assert read.details == "\n".join(lines) + ("\n" if final is not None else "")
    assert read.summary.endswith(f" lines, {note})" if note else " lines)"), read.summary
    header = [line for line in (sliced.details or "").split("\n") if line.startswith("#")]
    assert (f"# file: {note}" in header) == bool(note), header
    assert numbered(sliced.details or "") == list(enumerate(lines, start=1))


@pytest.mark.parametrize("name", ["cr.txt", "cr_no_final.txt", "mixed.txt", "mostly_cr.txt"])
@pytest.mark.parametrize("regex", ["false", "true"])
def test_searches_number_the_lines_of_cr_files_as_reads_do(
    run_reply: Any, endings: Path, name: str, regex: str
) -> None:
    query = "^three$" if regex == "true" else "three"
    searched, tree = run_reply(
        cmd("q", "fs.search", path=name, query="three")
        + "\n"
        + cmd("t", "fs.searchTree", path=".", query=query, regex=regex, glob=name)
    )
    assert numbered(searched.details or "") == [(3, "three")]
    hits = [line for line in (tree.details or "").split("\n") if line.startswith(name)]
    assert hits == [f"{name}:3: three"], tree.details


EDITS = {
    "fs.write": {"content_b64": b64("one\nTWO\nthree\n")},
    "fs.patch": {"patch_b64": b64("@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n")},
    "fs.applyEdits": {"edits_b64": edits_b64({"op": "replaceFirst", "find": "two", "text": "TWO"})},
    "fs.applyEdits-lines": {
        "edits_b64": edits_b64({"op": "replaceFirst", "find": "two", "text": "TWO\nand more"})
    },
}


@pytest.mark.parametrize("edit", EDITS)
@pytest.mark.parametrize("final", [True, False])
def test_edits_keep_a_cr_file_cr(run_reply: Any, workspace: Path, edit: str, final: bool) -> None:
    target = workspace / "mac.txt"
    target.write_bytes(b"one\rtwo\rthree" + (b"\r" if final else b""))
    fields = dict(EDITS[edit])
    if edit == "fs.write" and not final:
        fields = {"content_b64": b64("one\nTWO\nthree")}
    if edit == "fs.patch" and not final:
        end = "\\ No newline at end of file\n"
        fields = {"patch_b64": b64(f"@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n{end}")}
    (result,) = run_reply(cmd("e", edit.removesuffix("-lines"), path="mac.txt", **fields))
    assert result.ok, result.summary
    middle = b"TWO\rand more" if edit.endswith("-lines") else b"TWO"
    assert target.read_bytes() == b"one\r" + middle + b"\rthree" + (b"\r" if final else b"")


BREAKS = st.sampled_from(["\n", "\r\n", "\r"])
WORDS = st.sampled_from(["alpha", "beta", "gamma", "", "  delta"])


@settings(max_examples=examples(40), deadline=None)
@given(st.lists(st.tuples(WORDS, BREAKS), min_size=1, max_size=12), st.booleans())
def test_any_mix_of_breaks_is_numbered_alike_by_every_read(
    lines: list[tuple[str, str]], final: bool
) -> None:
    # A CR before an empty line ended by LF is one CRLF: not the two lines drawn.
    assume(
        not any(
            brk == "\r" and not text and after.startswith("\n")
            for (_, brk), (text, after) in itertools.pairwise(lines)
        )
    )
    assume(final or lines[-1][0])  # without a final break, an empty last line is no line
    data = "".join(text + brk for text, brk in lines)
    if not final:
        data = data.removesuffix(lines[-1][1])
    shown = [text for text, _ in lines]
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / "ws"
        root.mkdir()
        (root / "f.txt").write_bytes(data.encode())
        session = Session(Workspace(root), Path(folder) / "state")
        read, sliced, searched, tree = run_session(
            session,
            "\n".join(
                [
                    cmd("r", "fs.read", path="f.txt"),
                    cmd("s", "fs.readSlice", path="f.txt", lines=50),
                    cmd("q", "fs.search", path="f.txt", query="a"),
                    cmd("t", "fs.searchTree", path=".", query="a"),
                ]
            ),
        )
    kinds = {brk for _, brk in lines[: len(lines) if final else len(lines) - 1]}
    assert read.details == "\n".join(shown) + ("\n" if final else "")
    assert ("line endings" in read.summary) == bool(kinds - {"\n"}), read.summary
    assert numbered(sliced.details or "") == list(enumerate(shown, start=1))
    expected = [(n, text) for n, text in enumerate(shown, start=1) if "a" in text]
    assert numbered(searched.details or "") == expected
    tree_hits = [
        line.removeprefix("f.txt:")
        for line in (tree.details or "").split("\n")
        if line.startswith("f.txt:")
    ]
    assert numbered("\n".join(tree_hits)) == expected
