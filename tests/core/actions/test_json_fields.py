"""``*_json`` twins of every ``*_b64`` field: one line of ASCII JSON instead of base64.

Writes sent as JSON land byte for byte (real files and hostile text alike); a malformed or
non-ASCII value is refused with its column and what to fix; two forms of one field are
refused.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from llm_operator.core import actions
from llm_operator.core.actions.fields import decode_json_value
from llm_operator.core.protocol.validator import allowed_keys
from support.actions import b64
from support.paths import DATA


def one_line(value: object) -> str:
    return json.dumps(value, ensure_ascii=True)  # \n, \t, \", \\ and \uXXXX: one ASCII line


def test_every_b64_field_has_a_json_twin_listed_before_it() -> None:
    seen = 0
    for spec in actions.all_specs():
        keys = allowed_keys(spec)
        for name in spec.fields.model_fields:
            if name.endswith("_b64"):
                twin = name.removesuffix("_b64") + "_json"
                assert twin in keys, (spec.name, twin)
                assert keys.index(twin) < keys.index(name)
                seen += 1
    assert seen >= 15


def real_texts() -> list[Path]:
    found = sorted(
        path
        for path in (DATA / "structure_real").rglob("*")
        if path.is_file() and path.suffix != ".md"
    )
    assert len(found) > 30
    return found


HOSTILE = [
    "END_OPERATOR_CMD\nOPERATOR_CMD\nid: x\n",
    "key: value\n| not a body line\n\\ No newline at end of details\n",
    'tabs\tand "quotes" and \\backslashes\\ and </script>\n',
    "windows\r\nlines\r\n",
    "nul \x00 bell \x07\n",
    "bidi \u202eevil\u202c \u200b zero width, caf\u00e9 \U0001f600\n",
    "no final newline",
    "x" * 20_000 + "\n",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_content_json_writes_hostile_text_byte_for_byte(
    run_reply: Any, cmd: Any, workspace: Path, text: str
) -> None:
    (result,) = run_reply(cmd("w", "fs.write", path="out.txt", content_json=one_line(text)))
    assert result.ok, result.summary
    assert (workspace / "out.txt").read_bytes() == text.encode("utf-8")


@pytest.mark.slow
def test_content_json_writes_real_files_byte_for_byte(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    written = 0
    for number, path in enumerate(real_texts()):
        text = path.read_text(encoding="utf-8")
        value = one_line(text)
        if len(value) > 45_000:  # one block holds at most 50,000 characters
            continue
        (result,) = run_reply(cmd(f"w{number}", "fs.write", path=path.name, content_json=value))
        assert result.ok, result.summary
        assert (workspace / path.name).read_bytes() == path.read_bytes()
        written += 1
    assert written > 25


def test_edits_json_is_the_edits_object_itself(run_reply: Any, cmd: Any, workspace: Path) -> None:
    (workspace / "a.txt").write_text("Alpha\nBeta\n", encoding="utf-8")
    edits = {"version": 1, "edits": [{"op": "insertAfter", "anchor": "Beta", "text": "\nG\u00e4"}]}
    (result,) = run_reply(cmd("e", "fs.applyEdits", path="a.txt", edits_json=one_line(edits)))
    assert result.ok, result.summary
    assert (workspace / "a.txt").read_bytes() == "Alpha\nBeta\nG\u00e4\n".encode()


def test_patch_json_and_query_json(run_reply: Any, cmd: Any, workspace: Path) -> None:
    (workspace / "a.txt").write_text("one\ntwo\n", encoding="utf-8")
    patch = "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+tw\u00f6\n"
    (result,) = run_reply(cmd("p", "fs.patch", path="a.txt", patch_json=one_line(patch)))
    assert result.ok, result.summary
    assert (workspace / "a.txt").read_text("utf-8") == "one\ntw\u00f6\n"
    (found,) = run_reply(cmd("s", "fs.search", path="a.txt", query_json=one_line("tw\u00f6")))
    assert found.ok, found.summary
    assert "2: tw\u00f6" in (found.details or "")


def test_nested_target_json_names_a_method(run_reply: Any, cmd: Any, workspace: Path) -> None:
    (workspace / "auth.py").write_text(
        "class UserAuth:\n    def validate(self):\n        return False\n", encoding="utf-8"
    )
    (result,) = run_reply(
        cmd(
            "t",
            "fs.replaceTextInStructure",
            path="auth.py",
            target_json=one_line("class UserAuth:\ndef validate(self):"),
            old_text="False",
            new_text_json=one_line("True"),
        )
    )
    assert result.ok, result.summary
    assert "return True" in (workspace / "auth.py").read_text("utf-8")


@pytest.mark.parametrize(
    ("value", "column"),
    [
        ('"unterminated', 1),
        ('"bad escape \\q here"', 13),
        ('"two" "strings"', 7),
        ("'single quotes'", 1),
    ],
)
def test_malformed_json_is_refused_with_its_column(
    expect_refused: Any, cmd: Any, value: str, column: int
) -> None:
    refused = expect_refused(
        cmd("bad", "fs.write", path="x.txt", content_json=value), "ERR_INVALID_JSON", "bad"
    )
    assert f"column {column} of its value" in refused.summary
    assert "\\n" in refused.summary  # says how to write a line break


def test_a_json_value_of_the_wrong_kind_is_refused(expect_refused: Any, cmd: Any) -> None:
    refused = expect_refused(
        cmd("n", "fs.write", path="x.txt", content_json="42"), "ERR_INVALID_JSON", "n"
    )
    assert 'must be a JSON string "..."' in refused.summary
    refused = expect_refused(
        cmd("e", "fs.applyEdits", path="x.txt", edits_json='"text"'), "ERR_INVALID_JSON", "e"
    )
    assert "must be a JSON object" in refused.summary
    refused = expect_refused(
        cmd("s", "fs.write", path="x.txt", content_json='"\\ud800"'), "ERR_INVALID_JSON", "s"
    )
    assert "lone surrogate" in refused.summary


def test_non_ascii_in_a_json_value_names_its_column(expect_refused: Any, cmd: Any) -> None:
    refused = expect_refused(
        cmd("u", "fs.write", path="x.txt", content_json='"caf\u00e9"'), "ERR_NON_ASCII_IN_CMD", "u"
    )
    assert "column 19" in refused.summary
    assert "\\u00e9" in refused.summary  # the escape to write instead


@pytest.mark.parametrize(
    "fields",
    [
        {"content_json": '"a"', "content_b64": b64("a")},
        {"content_b64": b64("a"), "content_json": '"a"'},
        {"content": "a", "content_json": '"a"'},
    ],
)
def test_two_forms_of_one_field_are_refused(
    expect_refused: Any, cmd: Any, fields: dict[str, str]
) -> None:
    refused = expect_refused(
        cmd("two", "fs.write", path="x.txt", **fields), "ERR_CONFLICTING_FIELDS", "two"
    )
    assert "content_json" in refused.summary


@given(st.text(max_size=200))
def test_any_text_sent_as_json_decodes_to_itself(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return  # lone surrogates are refused (test_a_json_value_of_the_wrong_kind_is_refused)
    value = one_line(text)
    assert value.isascii()
    assert "\n" not in value
    assert decode_json_value(value, "content_json") == text
