"""Region actions through the protocol path: every error code, round trips in many
languages, overrides, and the write machinery (approval, stale check, undo)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from llm_operator.core.plan.preview import describe_pending
from llm_operator.core.plan.run import APPROVE
from support.actions import b64, expect_failure, tree

# extension: (file content, anchor, comment opener, comment closer)
LANGUAGES: dict[str, tuple[str, str, str, str]] = {
    "py": ("import os\n\n\ndef main():\n    return os.getcwd()\n", "def main", "#", ""),
    "js": ("const fs = require('fs');\nfunction main() {\n  return 1;\n}\n", "function", "//", ""),
    "ts": ("export interface User {\n  id: number;\n}\n", "id: number", "//", ""),
    "go": ("package main\n\nfunc main() {\n\tprintln(1)\n}\n", "println", "//", ""),
    "rs": ('fn main() {\n    println!("hi");\n}\n', "fn main", "//", ""),
    "java": ("class App {\n    void run() {}\n}\n", "void run", "//", ""),
    "c": ("#include <stdio.h>\n\nint main(void) {\n    return 0;\n}\n", "#include", "//", ""),
    "rb": ("class Greeter\n  def hi\n    puts 'hi'\n  end\nend\n", "def hi", "#", ""),
    "sh": ("#!/bin/sh\nset -e\necho start\n", "set -e", "#", ""),
    "sql": ("CREATE TABLE users (\n  id INTEGER\n);\n", "CREATE TABLE", "--", ""),
    "lua": ("local M = {}\nfunction M.run()\nend\nreturn M\n", "local M", "--", ""),
    "yaml": ("name: ci\non: push\njobs:\n  build:\n    runs-on: linux\n", "jobs:", "#", ""),
    "html": ("<html>\n<body>\n  <main>\n  </main>\n</body>\n</html>\n", "<main>", "<!--", "-->"),
    "css": ("body {\n  margin: 0;\n}\n\nh1 { color: red; }\n", "h1 {", "/*", "*/"),
    "md": ("# Title\n\nSome text.\n\n## Usage\n", "## Usage", "<!--", "-->"),
}


def marker(opener: str, closer: str, kind: str, marker_id: str, indent: str = "") -> str:
    return f"{indent}{opener} {kind} {marker_id}" + (f" {closer}" if closer else "")


def line_of(text: str, line: str) -> int:
    return text.split("\n").index(line) + 1


@pytest.mark.parametrize("ext", list(LANGUAGES))
def test_round_trip_in_each_language(run_reply: Any, cmd: Any, workspace: Path, ext: str) -> None:
    source, anchor, opener, closer = LANGUAGES[ext]
    path = f"files/sample.{ext}"
    target = workspace / path
    target.parent.mkdir()
    target.write_text(source, encoding="utf-8")
    anchor_line = next(line for line in source.split("\n") if anchor in line)
    indent = anchor_line[: len(anchor_line) - len(anchor_line.lstrip())]
    begin = marker(opener, closer, "OPERATOR_BEGIN", "added", indent)
    end = marker(opener, closer, "OPERATOR_END", "added", indent)

    content = f"{indent}first = 1\n{indent}second = 2\n"
    (ins,) = run_reply(
        cmd(
            "i1",
            "fs.insertRegion",
            path=path,
            marker_id="added",
            anchor=anchor,
            position="before",
            content_b64=b64(content),
        )
    )
    assert ins.ok, ins.summary
    text = target.read_text(encoding="utf-8")
    block = f"{begin}\n{content}{end}\n{anchor_line}\n"
    assert text == source.replace(anchor_line + "\n", block, 1)

    (listed,) = run_reply(cmd("l1", "fs.listRegions", path=path))
    first = line_of(text, begin)
    assert listed.json() == {
        "regions": [
            {
                "marker_id": "added",
                "begin_line": first,
                "end_line": first + 3,
                "content_start_line": first + 1,
                "content_end_line": first + 2,
                "content_line_count": 2,
            }
        ]
    }
    (read,) = run_reply(cmd("r1", "fs.readRegion", path=path, marker_id="added"))
    assert read.details == content

    (rep,) = run_reply(
        cmd("p1", "fs.replaceRegion", path=path, marker_id="added", content_b64=b64("only = 3"))
    )
    assert rep.ok, rep.summary
    (read2,) = run_reply(cmd("r2", "fs.readRegion", path=path, marker_id="added"))
    assert read2.details == "only = 3\n"
    assert "1 line of content" in read2.summary
    assert target.read_text(encoding="utf-8") == text.replace(content, "only = 3\n")

    (dele,) = run_reply(cmd("d1", "fs.deleteRegion", path=path, marker_id="added"))
    assert dele.ok, dele.summary
    (read3,) = run_reply(cmd("r3", "fs.readRegion", path=path, marker_id="added"))
    assert read3.ok
    assert read3.details is None  # an empty region has no content to send...
    assert "empty" in read3.summary  # ...and the summary says why there are no details
    assert target.read_text(encoding="utf-8") == text.replace(content, "")


def test_insert_after_is_the_default_position(run_reply: Any, cmd: Any, workspace: Path) -> None:
    (result,) = run_reply(
        cmd(
            "i1",
            "fs.insertRegion",
            path="src/main.py",
            marker_id="imports",
            anchor="import sys",
            content_b64=b64("import os"),
        )
    )
    assert result.ok, result.summary
    assert (
        (workspace / "src" / "main.py")
        .read_text(encoding="utf-8")
        .startswith("import sys\n# OPERATOR_BEGIN imports\nimport os\n# OPERATOR_END imports\n\n")
    )


def test_occurrence_picks_the_matching_line(run_reply: Any, cmd: Any, workspace: Path) -> None:
    (workspace / "a.js").write_text("f();\ng();\nf();\n", encoding="utf-8")
    (result,) = run_reply(
        cmd(
            "i1",
            "fs.insertRegion",
            path="a.js",
            marker_id="x",
            anchor="f()",
            occurrence="2",
            content_b64=b64("h();\n"),
        )
    )
    assert result.ok, result.summary
    assert (workspace / "a.js").read_text(encoding="utf-8") == (
        "f();\ng();\nf();\n// OPERATOR_BEGIN x\nh();\n// OPERATOR_END x\n"
    )


def test_crlf_html_with_bom_stays_so(run_reply: Any, cmd: Any, workspace: Path) -> None:
    page = "\ufeff<ul>\r\n  <li>a</li>\r\n</ul>\r\n".encode()
    (workspace / "page.html").write_bytes(page)
    (ins,) = run_reply(
        cmd(
            "i1",
            "fs.insertRegion",
            path="page.html",
            marker_id="items",
            anchor="<li>a</li>",
            content_b64=b64("  <li>b</li>\n  <li>c</li>\n"),
        )
    )
    assert ins.ok, ins.summary
    assert (workspace / "page.html").read_bytes() == (
        "\ufeff<ul>\r\n  <li>a</li>\r\n  <!-- OPERATOR_BEGIN items -->\r\n  <li>b</li>\r\n"
        "  <li>c</li>\r\n  <!-- OPERATOR_END items -->\r\n</ul>\r\n"
    ).encode()
    (read,) = run_reply(cmd("r1", "fs.readRegion", path="page.html", marker_id="items"))
    assert read.details == "  <li>b</li>\n  <li>c</li>\n"
    (rep,) = run_reply(
        cmd(
            "p1",
            "fs.replaceRegion",
            path="page.html",
            marker_id="items",
            content_b64=b64("  <li>z</li>\n"),
        )
    )
    assert rep.ok, rep.summary
    assert (workspace / "page.html").read_bytes() == (
        "\ufeff<ul>\r\n  <li>a</li>\r\n  <!-- OPERATOR_BEGIN items -->\r\n  <li>z</li>\r\n"
        "  <!-- OPERATOR_END items -->\r\n</ul>\r\n"
    ).encode()


# -- per-command comment style ------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "style", "begin"),
    [
        ("notes.txt", {"comment_line_prefix": ";;"}, ";; OPERATOR_BEGIN r"),
        (
            "page.tpl",
            {"comment_block_start": "{#", "comment_block_end": "#}"},
            "{# OPERATOR_BEGIN r #}",
        ),
        ("build-script", {"language": "python"}, "# OPERATOR_BEGIN r"),
        (
            "app.js",
            {"comment_block_start": "/*", "comment_block_end": "*/"},
            "/* OPERATOR_BEGIN r */",
        ),
        ("query.txt", {"language": "postgresql"}, "-- OPERATOR_BEGIN r"),
        ("x.conf", {"language": "lua", "comment_line_prefix": "--"}, "-- OPERATOR_BEGIN r"),
    ],
    ids=["line-prefix", "block", "language", "block-over-js-default", "alias", "agreeing"],
)
def test_per_command_style_overrides(
    run_reply: Any, cmd: Any, workspace: Path, path: str, style: dict[str, str], begin: str
) -> None:
    (workspace / path).write_text("head\nanchor line\ntail\n", encoding="utf-8")
    (ins,) = run_reply(
        cmd(
            "i1",
            "fs.insertRegion",
            path=path,
            marker_id="r",
            anchor="anchor",
            content_b64=b64("inside\n"),
            **style,
        )
    )
    assert ins.ok, ins.summary
    text = (workspace / path).read_text(encoding="utf-8")
    assert text.split("\n")[2] == begin
    (read,) = run_reply(cmd("r1", "fs.readRegion", path=path, marker_id="r", **style))
    assert read.details == "inside\n"
    (listed,) = run_reply(cmd("l1", "fs.listRegions", path=path, **style))
    assert [r["marker_id"] for r in listed.json()["regions"]] == ["r"]
    if path.endswith(".js"):
        # Without the override, .js means '//': the block markers are not markers there.
        (other,) = run_reply(cmd("l2", "fs.listRegions", path=path))
        assert other.json() == {"regions": []}


# -- every error code: code, result id, file byte-identical ---------------------------------

BROKEN = {
    "dup.py": "# OPERATOR_BEGIN r\nx\n# OPERATOR_END r\n# OPERATOR_BEGIN r\n# OPERATOR_END r\n",
    "order.py": "# OPERATOR_END r\nx\n# OPERATOR_BEGIN r\n",
    "unpaired.py": "# OPERATOR_BEGIN r\nx\ny = 2\n",
    "overlap.py": "# OPERATOR_BEGIN a\n# OPERATOR_BEGIN b\n# OPERATOR_END a\n# OPERATOR_END b\n",
    "nested.py": "# OPERATOR_BEGIN a\n# OPERATOR_BEGIN b\n# OPERATOR_END b\n# OPERATOR_END a\n",
    "good.py": "top = 1\n# OPERATOR_BEGIN r\ninside = 1\n# OPERATOR_END r\nbottom = 2\n",
    "plain.txt": "no style can be told for this file\n",
}


@pytest.fixture
def broken(workspace: Path) -> Path:
    folder = workspace / "regions"
    folder.mkdir()
    for name, text in BROKEN.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


C64 = b64("new = 1\n")

ERROR_CASES: list[tuple[str, str, dict[str, str], str]] = [
    # (action, file, fields, code)
    ("fs.readRegion", "good.py", {}, "ERR_MISSING_MARKER_ID"),
    ("fs.replaceRegion", "good.py", {"marker_id": "", "content_b64": C64}, "ERR_MISSING_MARKER_ID"),
    ("fs.deleteRegion", "good.py", {"marker_id": "two words"}, "ERR_MISSING_MARKER_ID"),
    ("fs.insertRegion", "good.py", {"anchor": "top", "content_b64": C64}, "ERR_MISSING_MARKER_ID"),
    ("fs.readRegion", "good.py", {"marker_id": "nope"}, "ERR_REGION_MARKER_NOT_FOUND"),
    (
        "fs.replaceRegion",
        "good.py",
        {"marker_id": "nope", "content_b64": C64},
        "ERR_REGION_MARKER_NOT_FOUND",
    ),
    ("fs.deleteRegion", "dup.py", {"marker_id": "r"}, "ERR_REGION_MARKER_NOT_UNIQUE"),
    ("fs.listRegions", "dup.py", {}, "ERR_REGION_MARKER_NOT_UNIQUE"),
    (
        "fs.replaceRegion",
        "order.py",
        {"marker_id": "r", "content_b64": C64},
        "ERR_REGION_MARKER_ORDER",
    ),
    ("fs.readRegion", "unpaired.py", {"marker_id": "r"}, "ERR_REGION_MARKER_MISMATCH"),
    (
        "fs.insertRegion",
        "unpaired.py",
        {"marker_id": "s", "anchor": "y = 2", "content_b64": C64},
        "ERR_REGION_MARKER_MISMATCH",
    ),
    (
        "fs.replaceRegion",
        "overlap.py",
        {"marker_id": "a", "content_b64": C64},
        "ERR_REGION_MARKER_MISMATCH",
    ),
    ("fs.deleteRegion", "nested.py", {"marker_id": "b"}, "ERR_REGION_MARKER_MISMATCH"),
    (
        "fs.insertRegion",
        "good.py",
        {"marker_id": "s", "anchor": "inside", "content_b64": C64},
        "ERR_REGION_MARKER_MISMATCH",
    ),
    (
        "fs.replaceRegion",
        "good.py",
        {"marker_id": "r", "content_b64": b64("x\n# OPERATOR_BEGIN q\n# OPERATOR_END q\n")},
        "ERR_REGION_MARKER_MISMATCH",
    ),
    (
        "fs.insertRegion",
        "good.py",
        {"marker_id": "r", "anchor": "top", "content_b64": C64},
        "ERR_REGION_MARKER_ALREADY_EXISTS",
    ),
    ("fs.insertRegion", "good.py", {"marker_id": "s", "content_b64": C64}, "ERR_MISSING_ANCHOR"),
    (
        "fs.insertRegion",
        "good.py",
        {"marker_id": "s", "anchor": "", "content_b64": C64},
        "ERR_MISSING_ANCHOR",
    ),
    (
        "fs.insertRegion",
        "good.py",
        {"marker_id": "s", "anchor": "Top", "content_b64": C64},
        "ERR_ANCHOR_NOT_FOUND",
    ),
    (
        "fs.insertRegion",
        "good.py",
        {"marker_id": "s", "anchor": "top", "occurrence": "0", "content_b64": C64},
        "ERR_INVALID_ANCHOR_OCCURRENCE",
    ),
    (
        "fs.insertRegion",
        "good.py",
        {"marker_id": "s", "anchor": "= ", "occurrence": "4", "content_b64": C64},
        "ERR_INVALID_ANCHOR_OCCURRENCE",
    ),
    (
        "fs.insertRegion",
        "good.py",
        {"marker_id": "s", "anchor": "top", "position": "inside", "content_b64": C64},
        "ERR_INVALID_INSERT_POSITION",
    ),
    ("fs.insertRegion", "good.py", {"marker_id": "s", "anchor": "top"}, "ERR_MISSING_CONTENT_B64"),
    ("fs.replaceRegion", "good.py", {"marker_id": "r"}, "ERR_MISSING_CONTENT_B64"),
    ("fs.listRegions", "good.py", {"language": "klingon"}, "ERR_UNKNOWN_LANGUAGE"),
    (
        "fs.replaceRegion",
        "good.py",
        {"marker_id": "r", "language": "pyhton", "content_b64": C64},
        "ERR_UNKNOWN_LANGUAGE",
    ),
    ("fs.listRegions", "plain.txt", {}, "ERR_COMMENT_STYLE_REQUIRED"),
    (
        "fs.insertRegion",
        "plain.txt",
        {"marker_id": "s", "anchor": "style", "content_b64": C64},
        "ERR_COMMENT_STYLE_REQUIRED",
    ),
    (
        "fs.readRegion",
        "good.py",
        {"marker_id": "r", "comment_block_start": "/*"},
        "ERR_INVALID_COMMENT_STYLE",
    ),
    (
        "fs.deleteRegion",
        "good.py",
        {"marker_id": "r", "comment_line_prefix": "#", "comment_block_end": "*/"},
        "ERR_INVALID_COMMENT_STYLE",
    ),
    (
        "fs.replaceRegion",
        "good.py",
        {"marker_id": "r", "language": "python", "comment_line_prefix": "//", "content_b64": C64},
        "ERR_INVALID_COMMENT_STYLE",
    ),
]


@pytest.mark.parametrize(
    ("action", "name", "fields", "code"),
    ERROR_CASES,
    ids=[
        f"{code[4:].lower()}-{action[3:]}-{n}" for n, (action, _, _, code) in enumerate(ERROR_CASES)
    ],
)
def test_region_errors(
    run_reply: Any,
    cmd: Any,
    workspace: Path,
    broken: Path,
    action: str,
    name: str,
    fields: dict[str, str],
    code: str,
) -> None:
    path = f"regions/{name}"
    result = expect_failure(
        run_reply, workspace, cmd("reg-1", action, path=path, **fields), code, "reg-1", path=path
    )
    assert result.id == "reg-1"


def test_missing_file_and_folder(run_reply: Any, cmd: Any, workspace: Path) -> None:
    for number, (path, code) in enumerate(
        [("src/nope.py", "ERR_FILE_NOT_FOUND"), ("src/pkg", "ERR_IS_A_DIRECTORY")]
    ):
        block = cmd(
            f"m{number}",
            "fs.replaceRegion",
            path=path,
            marker_id="r",
            content_b64=C64,
            language="python",
        )
        expect_failure(run_reply, workspace, block, code, f"m{number}")


def test_not_found_lists_the_regions_there(
    run_reply: Any, cmd: Any, workspace: Path, broken: Path
) -> None:
    (result,) = run_reply(cmd("r1", "fs.readRegion", path="regions/good.py", marker_id="nope"))
    assert "regions in this file: (quoted in the details)" in result.summary
    assert "regions in this file: r" in result.json()["message"]


# -- the write machinery: preview, approval, stale check, undo --------------------------------


def test_region_write_is_previewed_and_a_rejection_changes_nothing(
    make_session: Any, cmd: Any, workspace: Path, broken: Path
) -> None:
    session = make_session()
    run = session.prepare(
        cmd(
            "p1",
            "fs.replaceRegion",
            path="regions/good.py",
            marker_id="r",
            content_b64=b64("changed = 2\n"),
        )
    )
    (pending,) = run.pending
    shown = describe_pending(pending)
    assert "-inside = 1" in shown
    assert "+changed = 2" in shown
    before = tree(workspace)
    (result,) = session.execute(run, {})
    assert "ERR_REJECTED_BY_USER" in result.outcome.summary
    assert tree(workspace) == before


def test_region_write_refuses_a_file_changed_since_the_preview(
    make_session: Any, cmd: Any, workspace: Path, broken: Path
) -> None:
    session = make_session()
    run = session.prepare(cmd("d1", "fs.deleteRegion", path="regions/good.py", marker_id="r"))
    edited = BROKEN["good.py"].replace("inside = 1", "inside = 100")
    (broken / "good.py").write_text(edited, encoding="utf-8")
    (result,) = session.execute(run, {p.index: APPROVE for p in run.pending})
    assert "ERR_STALE_FILE" in result.outcome.summary
    assert (broken / "good.py").read_text(encoding="utf-8") == edited


def test_region_writes_are_undone(
    make_session: Any, cmd: Any, workspace: Path, broken: Path
) -> None:
    before = tree(workspace)
    session = make_session()
    text = "\n".join(
        [
            cmd(
                "i1",
                "fs.insertRegion",
                path="regions/good.py",
                marker_id="s",
                anchor="bottom",
                content_b64=b64("extra = 3\n"),
            ),
            cmd(
                "p1",
                "fs.replaceRegion",
                path="regions/good.py",
                marker_id="r",
                content_b64=b64("changed = 2\n"),
            ),
            cmd("d1", "fs.deleteRegion", path="regions/good.py", marker_id="s"),
        ]
    )
    run = session.prepare(text)
    results = session.execute(run, {p.index: APPROVE for p in run.pending})
    assert all(r.ok for r in results), [r.outcome.summary for r in results]
    assert (broken / "good.py").read_text(encoding="utf-8") == (
        "top = 1\n# OPERATOR_BEGIN r\nchanged = 2\n# OPERATOR_END r\nbottom = 2\n"
        "# OPERATOR_BEGIN s\n# OPERATOR_END s\n"
    )
    report = make_session().undo_last()
    assert report.ok, report.summary
    assert tree(workspace) == before


def test_list_regions_json_for_several_regions(run_reply: Any, cmd: Any, workspace: Path) -> None:
    (workspace / "multi.go").write_text(
        "package x\n// OPERATOR_BEGIN a\n// OPERATOR_END a\nvar y = 1\n"
        "  // OPERATOR_BEGIN b\n  z := 2\n  // OPERATOR_END b\n",
        encoding="utf-8",
    )
    (result,) = run_reply(cmd("l1", "fs.listRegions", path="multi.go"))
    assert result.ok, result.summary
    assert json.loads(result.details or "") == {
        "regions": [
            {
                "marker_id": "a",
                "begin_line": 2,
                "end_line": 3,
                "content_start_line": None,
                "content_end_line": None,
                "content_line_count": 0,
            },
            {
                "marker_id": "b",
                "begin_line": 5,
                "end_line": 7,
                "content_start_line": 6,
                "content_end_line": 6,
                "content_line_count": 1,
            },
        ]
    }
