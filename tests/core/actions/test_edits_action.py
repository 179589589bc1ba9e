"""fs.applyEdits through the protocol path: every op, every failure, all or nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from support.actions import b64, edits_b64, expect_failure, tree

SOURCE = "import sys\n\n\ndef main():\n    print('hello')\n    return 0\n"


def apply(run_reply: Any, cmd: Any, *edits: dict[str, Any], path: str = "src/main.py") -> Any:
    (result,) = run_reply(cmd("e1", "fs.applyEdits", path=path, edits_b64=edits_b64(*edits)))
    return result


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (
            {"op": "insertAfter", "anchor": "import sys", "text": "import os"},
            "import sys\nimport os\n\n\ndef main():\n    print('hello')\n    return 0\n",
        ),
        (
            {"op": "insertBefore", "anchor": "def main", "text": "@cli"},
            "import sys\n\n\n@cli\ndef main():\n    print('hello')\n    return 0\n",
        ),
        (
            {"op": "replaceFirst", "find": "'hello'", "text": "'bye'"},
            "import sys\n\n\ndef main():\n    print('bye')\n    return 0\n",
        ),
        (
            {"op": "replaceAll", "find": "\n\n", "text": "\n"},
            "import sys\n\ndef main():\n    print('hello')\n    return 0\n",
        ),
        (
            {"op": "replaceRange", "startLine": 5, "endLine": 6, "text": "    return 1\n"},
            "import sys\n\n\ndef main():\n    return 1\n",
        ),
        (
            {"op": "insertAfter", "anchor": "    ", "occurrence": 2, "text": "# "},
            "import sys\n\n\ndef main():\n    print('hello')\n    # return 0\n",
        ),
    ],
    ids=["insertAfter", "insertBefore", "replaceFirst", "replaceAll", "replaceRange", "occurrence"],
)
def test_each_op(
    run_reply: Any, cmd: Any, workspace: Path, edit: dict[str, Any], expected: str
) -> None:
    (workspace / "src" / "main.py").write_text(SOURCE, encoding="utf-8")
    result = apply(run_reply, cmd, edit)
    assert result.ok, result.summary
    assert result.summary.startswith("Edited src/main.py")
    assert (workspace / "src" / "main.py").read_text(encoding="utf-8") == expected


def test_edits_build_on_each_other(run_reply: Any, cmd: Any, workspace: Path) -> None:
    result = apply(
        run_reply,
        cmd,
        {"op": "replaceFirst", "find": "def main():", "text": "def run():"},
        {"op": "insertAfter", "anchor": "def run():", "text": "    '''Run.'''"},
        {"op": "replaceAll", "find": "run", "text": "start"},
    )
    assert result.ok, result.summary
    assert "3 edits applied" in result.summary
    assert (workspace / "src" / "main.py").read_text(encoding="utf-8") == (
        "import sys\n\n\ndef start():\n    '''Run.'''\n    print('hello')\n    return 0\n"
    )


# -- failures ---------------------------------------------------------------------------


def test_missing_edits_b64(run_reply: Any, cmd: Any, workspace: Path) -> None:
    expect_failure(
        run_reply,
        workspace,
        cmd("e1", "fs.applyEdits", path="src/main.py"),
        "ERR_MISSING_EDITS_B64",
        "e1",
        path="src/main.py",
    )


@pytest.mark.parametrize(
    ("payload", "names"),
    [
        ("not json at all", ["not valid JSON"]),
        (
            '{"version":1,"edits":[{"op":"replaceFirst","find":"sys","text":"os"},'
            '{"op":"replaceFirst","fnd":"x","text":"y"}]}',
            ["edit 1", "find"],
        ),
        (
            '{"version":1,"edits":[{"op":"insertAfter","anchor":"sys","text":"x","occurrence":0}]}',
            ["edit 0", "occurrence"],
        ),
        (
            '{"version":1,"edits":[{"op":"replaceRange","startLine":3,"endLine":2,"text":""}]}',
            ["edit 0", "startLine"],
        ),
        ('{"version":1,"edits":[{"op":"moveLines","find":"x","text":"y"}]}', ["edit 0"]),
        ('{"version":1,"edits":[{"op":"replaceAll","find":"","text":"y"}]}', ["edit 0", "find"]),
    ],
    ids=["not-json", "misspelt-field", "occurrence-0", "range-backwards", "unknown-op", "empty"],
)
def test_invalid_edits_json_names_the_field_and_the_edit(
    run_reply: Any, cmd: Any, workspace: Path, payload: str, names: list[str]
) -> None:
    block = cmd("e1", "fs.applyEdits", path="src/main.py", edits_b64=b64(payload))
    result = expect_failure(
        run_reply, workspace, block, "ERR_INVALID_EDITS_JSON", "e1", path="src/main.py"
    )
    for name in names:
        assert name in result.summary


@pytest.mark.parametrize(
    ("edits", "code", "names"),
    [
        (
            [
                {"op": "replaceFirst", "find": "import sys", "text": "import os"},
                {"op": "insertAfter", "anchor": "def mian():", "text": "x"},
            ],
            "ERR_ANCHOR_NOT_FOUND",
            ["edit 1", "def mian():", "line 4"],
        ),
        (
            [{"op": "replaceAll", "find": "print('Hello')", "text": "x"}],
            "ERR_ANCHOR_NOT_FOUND",
            ["edit 0", "print('Hello')"],
        ),
        (
            [{"op": "insertBefore", "anchor": "return", "occurrence": 3, "text": "x"}],
            "ERR_INVALID_ANCHOR_OCCURRENCE",
            ["edit 0", "occurrence 3", "1 time"],
        ),
        (
            [{"op": "replaceRange", "startLine": 4, "endLine": 9, "text": "x"}],
            "ERR_INVALID_LINE_RANGE",
            ["edit 0", "4-9", "6 lines"],
        ),
    ],
    ids=["anchor", "find", "occurrence", "range"],
)
def test_edit_failures_leave_the_file_untouched(
    run_reply: Any,
    cmd: Any,
    workspace: Path,
    edits: list[dict[str, Any]],
    code: str,
    names: list[str],
) -> None:
    block = cmd("e1", "fs.applyEdits", path="src/main.py", edits_b64=edits_b64(*edits))
    result = expect_failure(run_reply, workspace, block, code, "e1", path="src/main.py")
    assert result.summary.startswith(f"fs.applyEdits failed ({code})")
    for name in names:
        assert name in result.summary


@pytest.mark.parametrize(
    ("path", "code"),
    [
        ("src/missing.py", "ERR_FILE_NOT_FOUND"),
        ("src/pkg", "ERR_IS_A_DIRECTORY"),
        (".git/config", "ERR_PATH_PROTECTED"),
        (".", "ERR_PATH_PROTECTED"),
        ("/etc/passwd", "ERR_PATH_OUTSIDE_WORKSPACE"),
        ("legacy.txt", "ERR_ENCODING_ERROR"),
    ],
)
def test_edit_path_failures(
    run_reply: Any, cmd: Any, workspace: Path, path: str, code: str
) -> None:
    (workspace / ".git").mkdir()
    (workspace / ".git" / "config").write_bytes(b"import sys\n")
    (workspace / "legacy.txt").write_bytes(b"import sys\nna\xefve\n")
    edit = {"op": "replaceFirst", "find": "import sys", "text": "import os"}
    block = cmd("e1", "fs.applyEdits", path=path, edits_b64=edits_b64(edit))
    expect_failure(run_reply, workspace, block, code, "e1", path=path if path[0] != "/" else None)


def test_rejected_edits_change_nothing(run_reply: Any, cmd: Any, workspace: Path) -> None:
    before = tree(workspace)
    (result,) = run_reply(
        cmd(
            "e1",
            "fs.applyEdits",
            path="src/main.py",
            edits_b64=edits_b64({"op": "replaceAll", "find": "sys", "text": "os"}),
        ),
        False,
    )
    assert result.code == "ERR_REJECTED_BY_USER"
    assert tree(workspace) == before


def test_regex_options_through_the_protocol_path(run_reply: Any, cmd: Any, workspace: Path) -> None:
    edit = {
        "op": "replaceAll",
        "find": r"PRINT\('(\w+)'\)",
        "text": r"log('\1')",
        "regex": True,
        "caseSensitive": False,
        "wholeWord": True,
        "expectedCount": 1,
    }
    result = apply(run_reply, cmd, edit)
    assert result.ok, result.summary
    assert (workspace / "src/main.py").read_text() == SOURCE.replace(
        "print('hello')", "log('hello')"
    )


def test_expected_count_mismatch_through_the_protocol_path_writes_nothing(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    edit = {"op": "replaceAll", "find": "s", "text": "S", "expectedCount": 1}
    text = cmd("e1", "fs.applyEdits", path="src/main.py", edits_b64=edits_b64(edit))
    result = expect_failure(run_reply, workspace, text, "ERR_COUNT_MISMATCH", "e1", "src/main.py")
    assert "expectedCount is 1 but find 's' matches 2 times (at lines 1, 1)" in result.summary


def test_bad_pattern_through_the_protocol_path_names_edit_and_problem(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    edit = {"op": "replaceFirst", "find": "a)b", "text": "x", "regex": True}
    text = cmd("e1", "fs.applyEdits", path="src/main.py", edits_b64=edits_b64(edit))
    result = expect_failure(run_reply, workspace, text, "ERR_INVALID_REGEX", "e1", "src/main.py")
    assert "edit 0 (replaceFirst): find pattern 'a)b' is not valid RE2 syntax" in result.summary
    assert "(unexpected ): a)b)" in result.summary
