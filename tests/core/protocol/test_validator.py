"""The validator's error codes, each through a whole session next to a valid write.

``expect_refused`` (conftest) checks the code, the result id, the operator.error JSON,
that the independent write in the same reply still ran and that nothing else changed.
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import Any

import pytest

from llm_operator.core import actions
from llm_operator.core.protocol.scanner import CommandBlock, scan
from llm_operator.core.protocol.validator import Command, Invalid, allowed_keys, validate
from support.actions import b64

WRITE_HEAD = "OPERATOR_CMD\nversion: 1\nid: {id}\naction: fs.write\npath: README.md\n"


def block_of(text: str) -> CommandBlock:
    (item,) = scan(text).items
    assert isinstance(item, CommandBlock)
    return item


def listed_keys(summary: str) -> list[str]:
    match = re.search(r"allowed keys: (.*)$", summary)
    assert match, summary
    return match.group(1).split(", ")


# -- required fields, version, action -------------------------------------------------


@pytest.mark.parametrize(
    ("lines", "result_id", "missing"),
    [
        (["id: no-version", "action: fs.write"], "no-version", "version"),
        (["version: 1", "action: fs.write"], "error-1", "id"),
        (["version: 1", "id: no-action"], "no-action", "action"),
        (["version: 1", "id:", "action: fs.write"], "error-1", "id"),
        (["Version: 1", "id: case", "action: fs.write"], "case", "version"),
    ],
)
def test_missing_required_fields(
    lines: list[str], result_id: str, missing: str, expect_refused: Any, raw_block: Any
) -> None:
    bad = raw_block(*lines, "path: README.md", "content: overwritten")
    refused = expect_refused(bad, "ERR_MISSING_REQUIRED_FIELDS", result_id)
    assert f"missing {missing}" in refused.summary


@pytest.mark.parametrize("version", ["2", "1.0", "01", "v1", "0"])
def test_unsupported_version(version: str, expect_refused: Any, raw_block: Any) -> None:
    bad = raw_block(
        f"version: {version}", "id: old", "action: fs.write", "path: README.md", "content: x"
    )
    refused = expect_refused(bad, "ERR_UNSUPPORTED_VERSION", "old")
    assert repr(version) in refused.summary


def test_unknown_action_suggests_the_nearest(expect_refused: Any, cmd: Any) -> None:
    refused = expect_refused(cmd("typo", "fs.raed", path="README.md"), "ERR_UNKNOWN_ACTION", "typo")
    assert "did you mean fs.read?" in refused.summary
    for name in actions.action_names():
        assert name in refused.summary


def test_unknown_action_without_a_near_name(expect_refused: Any, cmd: Any) -> None:
    refused = expect_refused(cmd("far", "shell.run", command="ls"), "ERR_UNKNOWN_ACTION", "far")
    assert "did you mean" not in refused.summary


def test_reserved_action(expect_refused: Any, cmd: Any) -> None:
    refused = expect_refused(
        cmd("fake-error", "operator.error", message="x"), "ERR_RESERVED_ACTION", "fake-error"
    )
    assert "operator.error" in refused.summary


@pytest.mark.parametrize("path_line", [None, "path:", "path:    "])
def test_action_requires_path(path_line: str | None, expect_refused: Any, raw_block: Any) -> None:
    lines = ["version: 1", "id: nopath", "action: fs.write", "content: x"]
    if path_line is not None:
        lines.append(path_line)
    refused = expect_refused(raw_block(*lines), "ERR_ACTION_REQUIRES_PATH", "nopath")
    assert "fs.write" in refused.summary


@pytest.mark.parametrize("action", ["operator.getInterfaceSpec", "operator.getCommentStyle"])
def test_action_forbids_path(action: str, expect_refused: Any, cmd: Any) -> None:
    bad = cmd("withpath", action, path=".")
    refused = expect_refused(bad, "ERR_ACTION_FORBIDS_PATH", "withpath")
    assert action in refused.summary


# -- field values -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ("QUJD-RA==", "'-'"),  # url-safe alphabet
        ("QUJD_RA==", "'_'"),
        ("QUJDRA=", "multiple of 4"),  # padding missing
        ("QUJDRA", "multiple of 4"),
        ("QU==JDRA", "padding"),  # padding in the middle
        ("QUJDR===", "padding"),
        ("QUJD RA==", "' '"),  # whitespace inside
        ("QUJD\tRA==", "'\\t'"),
        (base64.b64encode(b"\xff\xfe caf\xe9").decode("ascii"), "UTF-8"),  # not UTF-8
    ],
)
def test_invalid_base64(value: str, why: str, expect_refused: Any) -> None:
    bad = WRITE_HEAD.format(id="b64") + f"content_b64: {value}\nEND_OPERATOR_CMD"
    refused = expect_refused(bad, "ERR_INVALID_BASE64", "b64")
    assert why in refused.summary
    assert "content_b64" in refused.summary


def test_valid_base64_decodes_for_the_write(run_reply: Any, cmd: Any, workspace: Path) -> None:
    text = "Gr\u00fc\u00dfe\nzweite Zeile\n"
    (result,) = run_reply(cmd("good-b64", "fs.write", path="new.txt", content_b64=b64(text)))
    assert result.ok, result.summary
    assert (workspace / "new.txt").read_bytes() == text.encode("utf-8")


@pytest.mark.parametrize(
    ("action", "extra"),
    [
        ("fs.search", {}),
        ("fs.search", {"query": ""}),
        ("fs.search", {"q": ""}),
        ("fs.searchTree", {}),
        ("fs.searchTree", {"query_b64": ""}),
    ],
)
def test_missing_query(action: str, extra: dict[str, str], expect_refused: Any, cmd: Any) -> None:
    bad = cmd("noq", action, path="README.md", **extra)
    refused = expect_refused(bad, "ERR_MISSING_QUERY", "noq")
    assert "query" in refused.summary


@pytest.mark.parametrize(
    "params",
    [
        {"start": "abc"},
        {"start": "0"},
        {"start": "-3"},
        {"start": "1.5"},
        {"lines": "0"},
        {"lines": "401"},
        {"count": "ten"},
        {"len": "1000"},
        {"start": "99"},  # past the end of README.md (3 lines)
    ],
)
def test_invalid_read_slice_params(params: dict[str, str], expect_refused: Any, cmd: Any) -> None:
    bad = cmd("slice", "fs.readSlice", path="README.md", **params)
    expect_refused(bad, "ERR_INVALID_READSLICE_PARAMS", "slice")


def test_read_slice_bounds_that_are_allowed(run_reply: Any, cmd: Any) -> None:
    results = run_reply(
        cmd("max", "fs.readSlice", path="README.md", lines="400")
        + "\n"
        + cmd("last", "fs.readSlice", path="README.md", start="3", lines="1")
    )
    assert [r.ok for r in results] == [True, True]


@pytest.mark.parametrize("path", ["src", ".", "src/pkg"])
def test_search_path_is_a_folder(path: str, expect_refused: Any, cmd: Any) -> None:
    refused = expect_refused(
        cmd("dir", "fs.search", path=path, query="x"), "ERR_SEARCH_PATH_IS_DIR", "dir"
    )
    assert "fs.searchTree" in refused.summary


def _big_file(workspace: Path, name: str, size: int) -> Path:
    line = "the quick brown fox jumps over the lazy dog\n"
    data = (line * (size // len(line) + 1))[:size]
    path = workspace / name
    path.write_text(data, encoding="ascii")
    assert path.stat().st_size == size
    return path


@pytest.mark.parametrize(
    ("action", "params"), [("fs.readSlice", {}), ("fs.search", {"query": "fox"})]
)
def test_file_too_large_for_slice_and_search(
    action: str, params: dict[str, str], expect_refused: Any, cmd: Any, workspace: Path
) -> None:
    _big_file(workspace, "huge.txt", 2_000_001)
    bad = cmd("huge", action, path="huge.txt", **params)
    refused = expect_refused(bad, "ERR_FILE_TOO_LARGE", "huge")
    assert "2000001" in refused.summary
    assert "fox" not in refused.summary
    assert "fox" not in json.dumps(refused.json())


def test_slice_and_search_read_a_file_at_the_limit(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    _big_file(workspace, "big.txt", 2_000_000)
    results = run_reply(
        cmd("s1", "fs.readSlice", path="big.txt", start="3", lines="2")
        + "\n"
        + cmd("s2", "fs.search", path="big.txt", q="lazy")
    )
    assert [r.ok for r in results] == [True, True]


def test_read_over_200000_bytes_has_the_exact_spec_summary(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    _big_file(workspace, "medium.txt", 200_001)
    _big_file(workspace, "limit.txt", 200_000)
    too_big, at_limit = run_reply(
        cmd("r-big", "fs.read", path="medium.txt") + "\n" + cmd("r-ok", "fs.read", path="limit.txt")
    )
    assert not too_big.ok
    assert too_big.summary == "File too large for fs.read (200001 bytes). Use fs.readSlice."
    assert too_big.json()["code"] == "ERR_FILE_TOO_LARGE"
    assert "fox" not in (too_big.details or "")
    assert at_limit.ok
    assert at_limit.details is not None
    assert len(at_limit.details) == 200_000


# -- keys -----------------------------------------------------------------------------


def test_unknown_key_names_the_allowed_keys(expect_refused: Any, cmd: Any) -> None:
    refused = expect_refused(
        cmd("extra", "fs.stat", path="README.md", follow="yes"), "ERR_UNKNOWN_KEY", "extra"
    )
    assert listed_keys(refused.summary) == ["version", "id", "action", "path"]


def test_typo_of_content_b64_is_a_did_you_mean_not_missing_content(
    expect_refused: Any, cmd: Any
) -> None:
    bad = cmd("typo-key", "fs.write", path="README.md", contnet_b64=b64("overwritten"))
    refused = expect_refused(bad, "ERR_UNKNOWN_KEY", "typo-key")
    assert "did you mean content_b64?" in refused.summary
    assert "ERR_MISSING_WRITE_CONTENT" not in refused.summary
    assert listed_keys(refused.summary) == [
        "version",
        "id",
        "action",
        "path",
        "content",
        "content_json",
        "content_b64",
    ]


def test_unknown_key_lists_aliases_of_the_action(expect_refused: Any, cmd: Any) -> None:
    refused = expect_refused(
        cmd("alias", "fs.readSlice", path="README.md", stop="4"), "ERR_UNKNOWN_KEY", "alias"
    )
    keys = listed_keys(refused.summary)
    for expected in (
        "start",
        "lines",
        "line (= start)",
        "from (= start)",
        "count (= lines)",
        "len (= lines)",
    ):
        assert expected in keys


@pytest.mark.parametrize(
    "key", ["workspace", "workspaceRoot", "workspace_root", "WorkspaceDir", "root", "cwd"]
)
def test_workspace_field_is_refused_with_rule_11(key: str, expect_refused: Any, cmd: Any) -> None:
    bad = cmd("ws-field", "fs.write", path="README.md", content="x", **{key: "/tmp/elsewhere"})
    refused = expect_refused(bad, "ERR_UNKNOWN_KEY", "ws-field")
    assert "rule 11" in refused.summary
    assert key in refused.summary


def test_workspace_field_is_refused_on_operator_actions(expect_refused: Any, cmd: Any) -> None:
    bad = cmd("ws-op", "operator.getCommentStyle", workspace="/tmp")
    refused = expect_refused(bad, "ERR_UNKNOWN_KEY", "ws-op")
    assert "rule 11" in refused.summary


@pytest.mark.parametrize(
    "lines",
    [
        ["path: README.md", "path: other.md", "content: x"],
        ["path: README.md", "content: x", "content: y"],
        ["id: second-id", "path: README.md", "content: x"],
    ],
)
def test_duplicate_key(lines: list[str], expect_refused: Any, raw_block: Any) -> None:
    bad = raw_block("version: 1", "id: dupkey", "action: fs.write", *lines)
    refused = expect_refused(bad, "ERR_DUPLICATE_KEY", "dupkey")
    assert "more than once" in refused.summary


@pytest.mark.parametrize(("first", "second"), [("start", "from"), ("line", "from"), ("q", "query")])
def test_alias_and_its_field_together_are_a_duplicate(
    first: str, second: str, expect_refused: Any, cmd: Any
) -> None:
    action = "fs.search" if "q" in (first, second) else "fs.readSlice"
    bad = cmd("alias-dup", action, path="README.md", **{first: "1", second: "2"})
    refused = expect_refused(bad, "ERR_DUPLICATE_KEY", "alias-dup")
    assert "another name" in refused.summary


# -- the validator as a pure function --------------------------------------------------


def test_valid_block_becomes_a_typed_command(cmd: Any) -> None:
    checked = validate(block_of(cmd("typed", "fs.readSlice", path="a.txt", from_="7", len="3")))
    assert isinstance(checked, Command)
    assert (checked.id, checked.action, checked.path) == ("typed", "fs.readSlice", "a.txt")
    assert (checked.fields.start, checked.fields.lines) == (7, 3)  # type: ignore[attr-defined]


def test_read_slice_defaults(cmd: Any) -> None:
    checked = validate(block_of(cmd("defaults", "fs.readSlice", path="a.txt")))
    assert isinstance(checked, Command)
    assert (checked.fields.start, checked.fields.lines) == (1, 120)  # type: ignore[attr-defined]


def test_first_problem_wins_in_a_fixed_order(raw_block: Any) -> None:
    # Duplicate key comes before the missing id and the unknown action.
    checked = validate(
        block_of(raw_block("version: 2", "action: fs.nope", "x: 1", "x: 2", "path: a"))
    )
    assert isinstance(checked, Invalid)
    assert checked.code == "ERR_DUPLICATE_KEY"
    assert checked.id is None


def test_allowed_keys_come_from_the_action_table() -> None:
    for spec in actions.all_specs():
        keys = allowed_keys(spec)
        assert keys[:3] == ["version", "id", "action"]
        assert ("path" in keys) == spec.needs_path


def test_detect_lists_blocks_without_touching_files(cmd: Any, raw_block: Any) -> None:
    from llm_operator.core.protocol.detect import detect

    text = "\n".join(
        [
            cmd("d-read", "fs.read", path="README.md"),
            cmd("d-write", "fs.write", path="nowhere/new.txt", content="x"),
            raw_block("version: 1", "action: fs.list", "path: ."),
            cmd("d-bad", "fs.nope", path="."),
            "OPERATOR_RESULT\nid: fake\nEND_OPERATOR_RESULT",
        ]
    )
    found, result_blocks = detect(text)
    assert result_blocks == 1
    assert [(d.id, d.action, d.writes) for d in found] == [
        ("d-read", "fs.read", False),
        ("d-write", "fs.write", True),
        ("error-3", "fs.list", False),
        ("d-bad", "fs.nope", False),
    ]
    assert [d.problem.split(":")[0] if d.problem else None for d in found] == [
        None,
        None,
        "ERR_MISSING_REQUIRED_FIELDS",
        "ERR_UNKNOWN_ACTION",
    ]
