"""Structure actions through the protocol: targets, refused fields, engine errors, warnings,
approval, stale files, undo, two-file moves, byte fidelity, and ``llm-operator exec``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from llm_operator.core.errors import OperatorError
from llm_operator.core.plan.run import APPROVE
from llm_operator.core.store import entries
from support.actions import b64, cli

SHOP = (
    "class Shop:\n    @staticmethod\n    def helper(x):\n        return x\n\n"
    "    def total(self):\n        return 1\n\n\ndef helper(y):\n    return y\n"
)


@pytest.fixture
def shop(workspace: Path) -> Path:
    path = workspace / "shop.py"
    path.write_bytes(SHOP.encode())
    return path


def failed(result: Any, action: str, code: str) -> dict[str, Any]:
    assert not result.ok
    assert result.summary.startswith(f"{action} failed ({code}): "), result.summary
    payload: dict[str, Any] = result.json()
    assert payload["code"] == code
    return payload


# -- targets -------------------------------------------------------------------------------


def test_target_b64_names_nested_levels_and_includes_the_decorator(
    shop: Path, run_reply: Any, cmd: Any, reply: Any
) -> None:
    (result,) = run_reply(
        reply(
            cmd(
                "d1",
                "fs.deleteStructure",
                path="shop.py",
                target_b64=b64("class Shop:\n  def helper(x):\n"),  # indentation and blanks ignored
            )
        )
    )
    assert result.json() == {"deleted_line_range_inclusive": [2, 4], "warnings": []}
    assert result.landed == ["# landed in shop.py:", "# 4 line(s) removed before line 2"]
    assert (
        shop.read_bytes()
        == SHOP.replace("    @staticmethod\n    def helper(x):\n        return x\n\n", "").encode()
    )


def test_a_second_target_line_written_inline_is_refused(
    shop: Path, cmd: Any, expect_refused: Any
) -> None:
    bad = cmd("s1", "fs.deleteStructure", "def helper(x):", path="shop.py", target="class Shop:")
    refused = expect_refused(bad, "ERR_CONTENT_HAS_NEWLINES", "s1")
    assert "target_b64" in refused.summary
    assert shop.read_bytes() == SHOP.encode()


def test_a_one_line_target_takes_the_one_nested_definition_and_says_so(
    shop: Path, run_reply: Any, cmd: Any, reply: Any
) -> None:
    (result,) = run_reply(
        reply(cmd("n0", "fs.deleteStructure", path="shop.py", target="def total"))
    )
    assert result.ok, result.summary
    assert "target matched Shop/total" in result.summary
    assert result.json()["target_matched"] == {"symbol": "Shop/total"}
    assert b"def total" not in shop.read_bytes()


def test_target_not_found_suggests_the_nearest_definitions(
    shop: Path, run_reply: Any, cmd: Any, reply: Any
) -> None:
    (result,) = run_reply(
        reply(cmd("n1", "fs.deleteStructure", path="shop.py", target="def totals(self):"))
    )
    payload = failed(result, "fs.deleteStructure", "ERR_TARGET_NOT_FOUND")
    details = payload["details"]
    assert "message" not in payload  # the summary says it once
    assert details["state"] == "FILE_UNCHANGED"
    assert details["searched_path"] == ["def totals(self):"]
    assert details["suggestions"]["nearest"][0] == {
        "line": 6,
        "symbol": "Shop/total",
        "definition": "def total(self):",
    }
    assert details["suggestions"]["next_levels"] == ["class Shop:", "def helper(y):"]
    assert "'symbol: Shop/total'" in result.summary
    assert shop.read_bytes() == SHOP.encode()


def test_an_ambiguous_target_lists_its_matches_and_read_returns_them_all(
    shop: Path, run_reply: Any, cmd: Any, reply: Any
) -> None:
    shop.write_bytes((SHOP + "\n\ndef helper(z):\n    return z\n").encode())
    before = shop.read_bytes()
    replaced, read = run_reply(
        reply(
            cmd("a1", "fs.replaceStructure", path="shop.py", target="def helper(", content="x = 1"),
            cmd("a2", "fs.readStructure", path="shop.py", target="def helper("),
        )
    )
    details = failed(replaced, "fs.replaceStructure", "ERR_TARGET_AMBIGUOUS")["details"]
    assert details["matches"] == [
        {"line_range_inclusive": [10, 11], "first_line": "def helper(y):", "symbol": "helper[1]"},
        {"line_range_inclusive": [14, 15], "first_line": "def helper(z):", "symbol": "helper[2]"},
    ]
    assert details["state"] == "FILE_UNCHANGED"
    assert read.json()["matches"] == [
        {"text": "def helper(y):\n    return y", "line_range_inclusive": [10, 11]},
        {"text": "def helper(z):\n    return z", "line_range_inclusive": [14, 15]},
    ]
    assert "lines 10-11, lines 14-15" in read.summary
    assert shop.read_bytes() == before


# -- fields the validator refuses ------------------------------------------------------------

T = {"path": "shop.py", "target": "def helper("}
REFUSED = [
    ("fs.deleteStructure", {"path": "shop.py"}, "ERR_MISSING_TARGET"),
    ("fs.replaceStructure", T, "ERR_MISSING_CONTENT"),
    ("fs.insertAfterStructure", T, "ERR_MISSING_CONTENT"),
    ("fs.replaceTextInStructure", {**T, "new_text": "x"}, "ERR_MISSING_OLD_TEXT"),
    ("fs.replaceTextInStructure", {**T, "old_text": "", "new_text": "x"}, "ERR_MISSING_OLD_TEXT"),
    (
        "fs.replaceAllTextInStructure",
        {**T, "old_text_b64": "", "new_text": "x"},
        "ERR_MISSING_OLD_TEXT",
    ),
    ("fs.replaceTextInStructure", {**T, "old_text": "y"}, "ERR_MISSING_NEW_TEXT"),
    ("fs.readStructure", {**T, "target_b64": b64("def helper(")}, "ERR_CONFLICTING_FIELDS"),
    ("fs.moveStructure", {**T, "position": "middle"}, "ERR_INVALID_POSITION"),
    ("fs.moveStructure", T, "ERR_INVALID_POSITION"),
    ("fs.moveStructure", {**T, "position": "after"}, "ERR_MISSING_DEST_TARGET"),
    (
        "fs.replaceAllTextInStructure",
        {**T, "old_text": "y", "new_text": "z", "expected_count": "two"},
        "ERR_INVALID_EXPECTED_COUNT",
    ),
    (
        "fs.replaceAllTextInStructure",
        {**T, "old_text": "y", "new_text": "z", "expected_count": "-1"},
        "ERR_INVALID_EXPECTED_COUNT",
    ),
    ("fs.deleteStructure", {"path": "shop.py", "target_b64": "ZGVm*"}, "ERR_INVALID_BASE64"),
    ("fs.deleteStructure", {"path": "shop.py", "target_b64": "ZGVmIGE"}, "ERR_INVALID_BASE64"),
]


@pytest.mark.parametrize(("action", "fields", "code"), REFUSED)
def test_invalid_fields_are_refused(
    shop: Path, cmd: Any, expect_refused: Any, action: str, fields: dict[str, str], code: str
) -> None:
    expect_refused(cmd("bad1", action, **fields), code, "bad1")
    assert shop.read_bytes() == SHOP.encode()


# -- engine errors ------------------------------------------------------------------------

TXT = {"path": "shop.py", "target_b64": b64("class Shop:\ndef total")}
ENGINE_ERRORS = [
    (
        "fs.replaceTextInStructure",
        {**TXT, "old_text": "nope", "new_text": "x"},
        "ERR_TEXT_NOT_FOUND",
        {"structure_lines": [6, 7], "structure_matched": "def total(self):"},
    ),
    (
        "fs.replaceTextInStructure",
        {"path": "shop.py", "target": "class Shop", "old_text": "return", "new_text": "yield"},
        "ERR_TEXT_AMBIGUOUS",
        {"occurrences": 2, "lines": [4, 7]},
    ),
    (
        "fs.replaceAllTextInStructure",
        {
            "path": "shop.py",
            "target": "class Shop",
            "old_text": "return",
            "new_text": "yield",
            "expected_count": 3,
        },
        "ERR_COUNT_MISMATCH",
        {"expected": 3, "found": 2},
    ),
    (
        "fs.deleteStructure",
        {"path": "shop.py", "target": ""},
        "ERR_TARGET_REQUIRED",
        {"searched_path": []},
    ),
    (
        "fs.moveStructure",
        {"path": "shop.py", "target": "class Shop", "position": "end", "dest_path": "notes.txt"},
        "ERR_LANGUAGE_UNSUPPORTED",
        {"file": "notes.txt"},
    ),
]


@pytest.mark.parametrize(("action", "fields", "code", "details"), ENGINE_ERRORS)
def test_engine_errors_carry_their_details(
    shop: Path,
    workspace: Path,
    run_reply: Any,
    cmd: Any,
    reply: Any,
    snapshot: Any,
    action: str,
    fields: dict[str, object],
    code: str,
    details: dict[str, object],
) -> None:
    (workspace / "notes.txt").write_bytes(b"plain\n")
    before = snapshot(workspace)
    (result,) = run_reply(reply(cmd("e1", action, **fields)))
    got = failed(result, action, code)["details"]
    assert got["state"] == "FILE_UNCHANGED"
    assert got.items() >= details.items(), got
    assert snapshot(workspace) == before


BAD_FILES = [
    ("notes.txt", b"plain text\n", "ERR_LANGUAGE_UNSUPPORTED"),
    ("broken.py", b"def bad():\n    pass\n\n\ndef ok(:\n    pass\n", "ERR_PARSER_FAILED"),
    ("latin.py", b"NAME = '\xe9t\xe9'\n", "ERR_ENCODING_ERROR"),
]


@pytest.mark.parametrize(("name", "data", "code"), BAD_FILES)
def test_files_the_engine_cannot_edit_are_left_untouched(
    workspace: Path, run_reply: Any, cmd: Any, reply: Any, name: str, data: bytes, code: str
) -> None:
    (workspace / name).write_bytes(data)
    (result,) = run_reply(
        reply(
            cmd(
                "f1",
                "fs.replaceStructure",
                path=name,
                target="def ok",
                content="def ok(): return 1",
            )
        )
    )
    details = failed(result, "fs.replaceStructure", code)["details"]
    assert details["state"] == "FILE_UNCHANGED"
    if code == "ERR_PARSER_FAILED":
        assert details["parse_errors"][0]["line"] == 5
    assert (workspace / name).read_bytes() == data


def test_file_too_large_and_file_not_found(
    workspace: Path, run_reply: Any, cmd: Any, reply: Any
) -> None:
    from llm_operator.core.engines.structure import MAX_FILE_BYTES

    big = b"x = 1\n" * (MAX_FILE_BYTES // 6 + 1)
    (workspace / "big.py").write_bytes(big)
    large, missing = run_reply(
        reply(
            cmd("l1", "fs.deleteStructure", path="big.py", target="x = 1"),
            cmd("l2", "fs.readStructure", path="nothere.py", target="x"),
        )
    )
    details = failed(large, "fs.deleteStructure", "ERR_FILE_TOO_LARGE")["details"]
    assert details == {"file_size": len(big), "limit": MAX_FILE_BYTES, "state": "FILE_UNCHANGED"}
    failed(missing, "fs.readStructure", "ERR_FILE_NOT_FOUND")
    assert (workspace / "big.py").read_bytes() == big
    assert not (workspace / "nothere.py").exists()


def test_content_over_1_mb_is_refused_by_the_engine_and_cannot_reach_it_in_a_block(
    shop: Path, run_reply: Any, cmd: Any, reply: Any
) -> None:
    from llm_operator.core.engines.structure import MAX_CONTENT_BYTES, replace_structure

    # A command block holds at most 50,000 characters, so a content this large never
    # reaches the engine through the protocol: the scanner refuses the block first.
    (result,) = run_reply(
        reply(
            cmd(
                "c1",
                "fs.replaceStructure",
                path="shop.py",
                target="def helper(",
                content_b64=b64("#" * 40_000),
            )
        )
    )
    assert result.code == "ERR_BLOCK_TOO_LARGE"
    with pytest.raises(OperatorError) as info:
        replace_structure(
            SHOP.encode(), "shop.py", ["def helper("], "x = '" + "y" * MAX_CONTENT_BYTES + "'"
        )
    assert info.value.code == "ERR_CONTENT_TOO_LARGE"
    assert info.value.details["state"] == "FILE_UNCHANGED"
    assert shop.read_bytes() == SHOP.encode()


# -- warnings ------------------------------------------------------------------------------


def test_warnings_reach_the_result_and_the_summary(
    shop: Path, workspace: Path, run_reply: Any, cmd: Any, reply: Any
) -> None:
    (workspace / "A.java").write_bytes(
        b"class A {\n    void m() {}\n}\n\nclass B {\n    void n() {}\n}\n"
    )
    indent, broken, empty, refused = run_reply(
        reply(
            cmd(
                "w1",
                "fs.replaceStructure",
                path="shop.py",
                target_b64=b64("class Shop:\ndef total"),
                content_b64=b64("def total(self):\n    if self:\n      return 2\n"),
            ),
            cmd(
                "w2",
                "fs.replaceStructure",
                path="shop.py",
                target="def helper(",
                content_b64=b64("def helper(y:\n    return y\n"),
            ),
            cmd("w3", "fs.deleteStructure", path="A.java", target_b64=b64("class B\nvoid n()")),
            # The structure the previous edit broke is refused from now on.
            cmd("w4", "fs.deleteStructure", path="shop.py", target="def helper("),
        )
    )
    assert [w["type"] for w in broken.json()["warnings"]] == ["SYNTAX_BROKEN"]
    assert broken.json()["warnings"][0]["details"]["errors"][0]["line"] == 11
    assert "warnings: SYNTAX_BROKEN" in broken.summary
    assert empty.json()["warnings"][0]["type"] == "STRUCTURE_EMPTY"
    assert empty.json()["warnings"][0]["details"] == {"structure": "class B {", "lines": [5, 6]}
    # Each warning is also a line of its own, before what landed.
    lines = (empty.details or "").split("\n")
    warned = [n for n, line in enumerate(lines) if line.startswith("# warning STRUCTURE_EMPTY: ")]
    landed = [n for n, line in enumerate(lines) if line.startswith("# landed in ")]
    assert warned
    assert landed
    assert warned[0] < landed[0]
    assert "# warning SYNTAX_BROKEN: " in (broken.details or "")
    assert "warnings: STRUCTURE_EMPTY" in empty.summary
    [warning] = indent.json()["warnings"]
    assert warning["type"] == "INDENTATION_INCONSISTENT"
    assert warning["details"]["line"] == 8
    assert "warnings: INDENTATION_INCONSISTENT" in indent.summary
    assert (workspace / "A.java").read_bytes() == b"class A {\n    void m() {}\n}\n\nclass B {\n}\n"
    assert failed(refused, "fs.deleteStructure", "ERR_PARSER_FAILED")
    assert (
        shop.read_bytes()
        == SHOP.replace("        return 1\n", "        if self:\n          return 2\n")
        .replace("def helper(y):", "def helper(y:")
        .encode()
    )  # applied all the same


# -- approval, stale files and undo ------------------------------------------------------------

EDIT = {"path": "shop.py", "target": "def helper(", "content": "def helper(y): return 2 * y"}


def test_rejected_edit_leaves_the_file_byte_identical(
    shop: Path, run_reply: Any, cmd: Any, reply: Any
) -> None:
    (result,) = run_reply(reply(cmd("r1", "fs.replaceStructure", **EDIT)), False)
    assert result.code == "ERR_REJECTED_BY_USER"
    assert shop.read_bytes() == SHOP.encode()


def test_a_file_changed_after_the_preview_is_stale(
    shop: Path, make_session: Any, cmd: Any, reply: Any, parse_results: Any
) -> None:
    from llm_operator.core.protocol.encoder import encode_results

    session = make_session()
    run = session.prepare(reply(cmd("s1", "fs.replaceStructure", **EDIT)))
    shop.write_bytes(SHOP.encode() + b"# edited outside\n")
    (result,) = parse_results(
        encode_results(session.execute(run, {p.index: APPROVE for p in run.pending}))
    )
    assert result.code == "ERR_STALE_FILE"
    assert shop.read_bytes() == SHOP.encode() + b"# edited outside\n"


def test_undo_restores_both_files_of_a_move(
    shop: Path,
    workspace: Path,
    make_session: Any,
    run_reply: Any,
    cmd: Any,
    reply: Any,
    snapshot: Any,
) -> None:
    before = snapshot(workspace)
    (result,) = run_reply(
        reply(
            cmd(
                "u1",
                "fs.moveStructure",
                path="shop.py",
                target="def helper(",
                position="end",
                dest_path="lib/helpers.py",
            )
        )
    )
    assert result.ok, result.summary
    assert (workspace / "lib" / "helpers.py").read_bytes() == b"def helper(y):\n    return y\n"
    make_session().undo_last()
    assert snapshot(workspace) == before


# -- two-file moves: both files or neither ---------------------------------------------------


def prepare_move(session: Any, cmd: Any, reply: Any) -> Any:
    return session.prepare(
        reply(
            cmd(
                "m1",
                "fs.moveStructure",
                path="shop.py",
                target="def helper(",
                position="start",
                dest_path="other.py",
            )
        )
    )


def test_move_writes_neither_file_when_the_destination_becomes_a_folder(
    shop: Path, workspace: Path, make_session: Any, cmd: Any, reply: Any, snapshot: Any
) -> None:
    (workspace / "other.py").write_bytes(b"z = 0\n")
    session = make_session()
    run = prepare_move(session, cmd, reply)
    assert [c.path for c in run.pending[0].changes] == ["shop.py", "other.py"]
    (workspace / "other.py").unlink()
    (workspace / "other.py").mkdir()
    before = snapshot(workspace)
    (result,) = session.execute(run, {p.index: APPROVE for p in run.pending})
    assert not result.ok
    assert "(ERR_STALE_FILE)" in result.outcome.summary
    assert snapshot(workspace) == before
    assert (workspace / "other.py").is_dir()


def test_move_writes_neither_file_when_the_second_write_fails(
    shop: Path,
    workspace: Path,
    run_reply: Any,
    cmd: Any,
    reply: Any,
    snapshot: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    (workspace / "other.py").write_bytes(b"z = 0\n")
    before = snapshot(workspace)
    real_replace = entries.rename_entry
    calls: list[Path] = []

    def second_fails(src: Path, dst: Path) -> None:
        calls.append(dst)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        real_replace(src, dst)

    monkeypatch.setattr(entries, "rename_entry", second_fails)
    (result,) = run_reply(
        reply(
            cmd(
                "m1",
                "fs.moveStructure",
                path="shop.py",
                target="def helper(",
                position="start",
                dest_path="other.py",
            )
        )
    )
    assert result.code == "ERR_NO_SPACE", result.summary
    assert len(calls) >= 2
    assert snapshot(workspace) == before


def test_move_within_a_file_reports_where_it_landed(
    shop: Path, run_reply: Any, cmd: Any, reply: Any
) -> None:
    (result,) = run_reply(
        reply(
            cmd(
                "w1",
                "fs.moveStructure",
                path="shop.py",
                target_b64=b64("class Shop:\ndef helper(x)"),
                position="after",
                dest_target="def helper(y)",
            )
        )
    )
    data = result.json()
    lines = shop.read_text().split("\n")
    first, last = data["destination_final_line_range"]
    assert lines[first - 1 : last] == ["@staticmethod", "def helper(x):", "    return x"]
    assert data["source_original_line_range"] == [2, 4]
    assert "class Shop:\n    def total(self):" in shop.read_text()


# -- byte fidelity ----------------------------------------------------------------------------


def test_crlf_bom_and_multibyte_text_survive_a_structure_edit(
    workspace: Path, run_reply: Any, cmd: Any, reply: Any
) -> None:
    crlf = "def a():\r\n    return 1\r\n\r\n\r\ndef b():\r\n    return 2\r\n"
    bom = "\ufeff# Título\r\n\r\n## Ünïcode\r\n\r\nText.\r\n"
    emoji = "NAME = 'café 🚀'  # é\n\n\ndef f():\n    return NAME  # 🚀🚀\n"
    for name, text in (("crlf.py", crlf), ("bom.md", bom), ("emoji.py", emoji)):
        (workspace / name).write_bytes(text.encode("utf-8"))
    results = run_reply(
        reply(
            cmd(
                "c1",
                "fs.replaceTextInStructure",
                path="crlf.py",
                target="def b",
                old_text="2",
                new_text="3",
            ),
            cmd(
                "c2",
                "fs.insertAfterStructure",
                path="bom.md",
                target_b64=b64("# Título\n## Ünïcode"),
                content_b64=b64("## Más\n\nOtro."),
            ),
            cmd(
                "c3",
                "fs.replaceTextInStructure",
                path="emoji.py",
                target="def f",
                old_text_b64=b64("# 🚀🚀"),
                new_text_b64=b64("# ✓"),
            ),
            cmd("c4", "fs.readStructure", path="emoji.py", target="def f"),
        )
    )
    assert all(r.ok for r in results), [r.summary for r in results]
    assert (workspace / "crlf.py").read_bytes() == crlf.replace("2", "3").encode()
    assert (workspace / "bom.md").read_bytes() == (bom + "\r\n## Más\r\n\r\nOtro.\r\n").encode()
    assert (workspace / "emoji.py").read_bytes() == emoji.replace("# 🚀🚀", "# ✓").encode()
    assert results[3].json()["matches"] == [
        {"text": "def f():\n    return NAME  # ✓", "line_range_inclusive": [4, 5]}
    ]


# -- edits that build on each other ----------------------------------------------------------


def test_two_edits_of_one_file_build_on_each_other_and_a_later_read_sees_both(
    shop: Path, run_reply: Any, cmd: Any, reply: Any
) -> None:
    first, second, read = run_reply(
        reply(
            cmd(
                "b1",
                "fs.insertAfterStructure",
                path="shop.py",
                target="def helper(",
                content_b64=b64("def extra():\n    return 3\n"),
            ),
            cmd(
                "b2",
                "fs.replaceTextInStructure",
                path="shop.py",
                target="def extra",
                old_text="3",
                new_text="4",
            ),
            cmd("b3", "fs.readStructure", path="shop.py", target="def extra"),
        )
    )
    assert first.json()["inserted_at_line"] == 14
    assert second.json()["affected_lines"] == [15, 15]
    assert read.json()["matches"] == [
        {"text": "def extra():\n    return 4", "line_range_inclusive": [14, 15]}
    ]
    assert shop.read_bytes() == (SHOP + "\n\ndef extra():\n    return 4\n").encode()


def test_rejecting_the_first_of_two_structure_edits_fails_the_second(
    shop: Path, run_reply: Any, cmd: Any, reply: Any
) -> None:
    first, second = run_reply(
        reply(
            cmd(
                "k1",
                "fs.insertAfterStructure",
                path="shop.py",
                target="def helper(",
                content_b64=b64("def extra():\n    return 3\n"),
            ),
            cmd(
                "k2",
                "fs.replaceTextInStructure",
                path="shop.py",
                target="def extra",
                old_text="3",
                new_text="4",
            ),
        ),
        {"k1": False, "k2": True},
    )
    assert first.code == "ERR_REJECTED_BY_USER"
    assert second.code == "ERR_STALE_FILE"
    assert shop.read_bytes() == SHOP.encode()


# -- llm-operator exec ------------------------------------------------------------------------


def test_exec_runs_structure_actions_as_a_subprocess(
    shop: Path, workspace: Path, tmp_path: Path, cmd: Any
) -> None:
    text = (
        "Here.\n\n"
        + "\n\n".join(
            [
                cmd(
                    "x1",
                    "fs.replaceTextInStructure",
                    path="shop.py",
                    target_b64=b64("class Shop:\ndef total"),
                    old_text="return 1",
                    new_text="return 5",
                ),
                cmd("x2", "fs.deleteStructure", path="shop.py", target="def nothing"),
            ]
        )
        + "\n"
    )
    done = cli(
        "exec", "--workspace", workspace, "--state-dir", tmp_path / "cli-state", "--yes", stdin=text
    )
    assert "id: x1\nok: true\nsummary: Replaced text in the structure (line 7) in shop.py" in (
        done.stdout
    ), done.stdout + done.stderr
    assert "fs.deleteStructure failed (ERR_TARGET_NOT_FOUND)" in done.stdout
    assert shop.read_bytes() == SHOP.replace("return 1", "return 5").encode()
    assert done.returncode == 1  # one command failed
