"""Errors, warnings and byte fidelity (non-ASCII, CRLF, BOM, final newline)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from llm_operator.core.engines.structure import (
    MAX_CONTENT_BYTES,
    MAX_FILE_BYTES,
    delete_structure,
    insert_after_structure,
    insert_before_structure,
    move_structure,
    read_structure,
    replace_all_text_in_structure,
    replace_structure,
    replace_text_in_structure,
)
from llm_operator.core.errors import OperatorError

Sample = Callable[[str], bytes]


def fails(call: Callable[[], Any], code: str) -> dict[str, Any]:
    with pytest.raises(OperatorError) as info:
        call()
    assert info.value.code == code
    assert info.value.details["state"] == "FILE_UNCHANGED"
    assert info.value.message
    return info.value.details


# --- errors -------------------------------------------------------------------------


def test_file_too_large() -> None:
    data = b"x = 1\n" * (MAX_FILE_BYTES // 6 + 1)
    details = fails(lambda: read_structure(data, "big.py", ["x = 1"]), "ERR_FILE_TOO_LARGE")
    assert details["file_size"] == len(data)
    assert details["limit"] == MAX_FILE_BYTES


def test_language_unsupported() -> None:
    details = fails(lambda: read_structure(b"x", "notes.txt", ["x"]), "ERR_LANGUAGE_UNSUPPORTED")
    assert details["file"] == "notes.txt"
    assert "python" in details["supported"]
    assert "markdown" in details["supported"]


def test_encoding_error() -> None:
    details = fails(lambda: read_structure(b"x = '\xff'\n", "m.py", ["x"]), "ERR_ENCODING_ERROR")
    assert details["byte_offset"] == 5


def test_parser_failed_only_for_errors_inside_the_target() -> None:
    data = "s = 'é'\ndef f(:\n    pass\n".encode()
    details = fails(
        lambda: replace_structure(data, "m.py", ["def f"], "def f(): pass"), "ERR_PARSER_FAILED"
    )
    errors = details["parse_errors"]
    assert errors[0]["line"] == 2
    assert errors[0]["snippet"] == "def f(:"
    assert isinstance(errors[0]["column"], int)
    assert details["line_range_inclusive"] == [2, 3]
    # The error lies outside "s = ": the edit goes ahead and says the error is still there.
    edit = replace_structure(data, "m.py", ["s = "], "s = 1")
    assert edit.new_source == b"s = 1\ndef f(:\n    pass\n"
    [note] = edit.result["warnings"]
    assert note["type"] == "PARSE_ERRORS_ELSEWHERE"
    assert note["details"]["errors"][0]["line"] == 2


def test_syntax_broken_only_when_the_edit_adds_errors() -> None:
    data = b"def f(:\n    pass\n\n\ndef g():\n    return 1\n"
    broken = replace_structure(data, "m.py", ["def g"], "def g(:\n    return 2")
    assert [w["type"] for w in broken.result["warnings"]] == ["SYNTAX_BROKEN"]
    fine = replace_structure(data, "m.py", ["def g"], "def g():\n    return 2")
    assert [w["type"] for w in fine.result["warnings"]] == ["PARSE_ERRORS_ELSEWHERE"]


def test_parser_failed_on_an_empty_python_body() -> None:
    data = b"class A:\n\nx = 1\n"
    details = fails(
        lambda: replace_structure(data, "m.py", ["class A:"], "class A:\n    pass"),
        "ERR_PARSER_FAILED",
    )
    assert details["parse_errors"] == [
        {"line": 1, "column": 1, "kind": "empty block", "snippet": "class A:"}
    ]
    read = read_structure(data, "m.py", ["x = 1"])
    assert read["matches"][0]["line_range_inclusive"] == [3, 3]
    assert read["warnings"][0]["type"] == "PARSE_ERRORS_ELSEWHERE"


def test_content_too_large() -> None:
    content = "x = 1\n" + "#" * MAX_CONTENT_BYTES
    details = fails(
        lambda: replace_structure(b"x = 1\n", "m.py", ["x = 1"], content), "ERR_CONTENT_TOO_LARGE"
    )
    assert details["limit"] == MAX_CONTENT_BYTES
    assert details["content_size"] > MAX_CONTENT_BYTES


def test_content_empty() -> None:
    fails(
        lambda: insert_after_structure(b"x = 1\n", "m.py", ["x = 1"], "\n\n"), "ERR_CONTENT_EMPTY"
    )


BODY = b"def f():\n    a = 1\n    b = 1\n    return a\n\n\ndef g():\n    a = 1\n"


def test_text_not_found_is_limited_to_the_structure() -> None:
    details = fails(
        lambda: replace_text_in_structure(BODY, "m.py", ["def g"], "b = 1", "b = 2"),
        "ERR_TEXT_NOT_FOUND",
    )
    assert details["structure_lines"] == [7, 8]
    assert details["structure_matched"] == "def g():"


def test_text_not_found_hints_at_whitespace() -> None:
    with pytest.raises(OperatorError) as info:
        replace_text_in_structure(BODY, "m.py", ["def f"], "  return a  ", "x")
    assert "whitespace" in info.value.message


def test_text_ambiguous() -> None:
    details = fails(
        lambda: replace_text_in_structure(BODY, "m.py", ["def f"], "= 1", "= 2"),
        "ERR_TEXT_AMBIGUOUS",
    )
    assert details["occurrences"] == 2
    assert details["lines"] == [2, 3]


def test_count_mismatch() -> None:
    details = fails(
        lambda: replace_all_text_in_structure(
            BODY, "m.py", ["def f"], "= 1", "= 2", expected_count=3
        ),
        "ERR_COUNT_MISMATCH",
    )
    assert (details["expected"], details["found"]) == (3, 2)
    edit = replace_all_text_in_structure(BODY, "m.py", ["def f"], "= 1", "= 2", expected_count=2)
    assert edit.new_source == BODY.replace(b"= 1", b"= 2", 2)
    assert edit.result == {"total_replacements": 2, "affected_lines": [2, 3], "warnings": []}


def test_text_replacement_rejects_empty_old_text() -> None:
    fails(lambda: replace_text_in_structure(BODY, "m.py", ["def f"], "", "x"), "ERR_TEXT_NOT_FOUND")


# --- warnings -----------------------------------------------------------------------


def test_syntax_broken_is_reported_and_the_edit_still_applies() -> None:
    edit = replace_structure(BODY, "m.py", ["def g"], "def g(:\n    pass")
    assert edit.new_source.endswith(b"def g(:\n    pass\n")
    [warning] = edit.result["warnings"]
    assert warning["type"] == "SYNTAX_BROKEN"
    assert warning["details"]["errors"][0]["line"] == 7


def test_syntax_broken_in_java() -> None:
    data = b"class A {\n    void m() {\n        go();\n    }\n}\n"
    edit = replace_structure(data, "A.java", ["class A", "void m()"], "void m() {\n    go(\n}")
    assert [w["type"] for w in edit.result["warnings"]] == ["SYNTAX_BROKEN"]


def test_structure_empty_after_deleting_the_only_member() -> None:
    data = b"class A {\n    void m() {}\n}\n\nclass B {\n    void n() {}\n}\n"
    edit = delete_structure(data, "A.java", ["class B", "void n()"])
    assert edit.new_source == b"class A {\n    void m() {}\n}\n\nclass B {\n}\n"
    assert edit.result["warnings"] == [
        {
            "type": "STRUCTURE_EMPTY",
            "message": edit.result["warnings"][0]["message"],
            "details": {"structure": "class B {", "lines": [5, 6]},
        }
    ]


def test_python_class_left_empty() -> None:
    data = b"class A:\n    def m(self):\n        pass\n\n\nx = 1\n"
    edit = delete_structure(data, "m.py", ["class A", "def m"])
    assert edit.new_source == b"class A:\n\n\nx = 1\n"
    assert [w["type"] for w in edit.result["warnings"]] == ["SYNTAX_BROKEN", "STRUCTURE_EMPTY"]
    assert edit.result["warnings"][1]["details"] == {"structure": "class A:", "lines": [1, 1]}


def test_structure_empty_after_a_text_replacement() -> None:
    data = b"class A {\n    void m() {\n        go();\n    }\n}\n"
    edit = replace_text_in_structure(data, "A.java", ["class A", "void m()"], "        go();\n", "")
    assert edit.new_source == b"class A {\n    void m() {\n    }\n}\n"
    [warning] = edit.result["warnings"]
    assert warning["type"] == "STRUCTURE_EMPTY"
    assert warning["details"] == {"structure": "void m() {", "lines": [2, 3]}


# --- byte fidelity ------------------------------------------------------------------

UNICODE = """# Café ☕ module 🎉
GREETING = "héllo wörld 👋"


def café(naïve: str) -> str:  # ünïcode 🎉
    return naïve + "é"


def after():
    return "🎉"
""".encode()


def test_non_ascii_before_the_target_uses_byte_offsets() -> None:
    matches = read_structure(UNICODE, "u.py", ["def after"])["matches"]
    assert matches == [{"text": 'def after():\n    return "🎉"', "line_range_inclusive": [9, 10]}]
    matches = read_structure(UNICODE, "u.py", ["def café(naïve"])["matches"]
    assert matches[0]["line_range_inclusive"] == [5, 6]


def test_non_ascii_edits() -> None:
    edit = replace_text_in_structure(UNICODE, "u.py", ["def café"], '"é"', '"ü🎉"')
    assert '    return naïve + "ü🎉"\n'.encode() in edit.new_source
    edit = replace_structure(UNICODE, "u.py", ["def after"], 'def after():\n    return "日本"')
    assert edit.new_source.endswith('def after():\n    return "日本"\n'.encode())
    edit = delete_structure(UNICODE, "u.py", ["def café"])
    assert edit.new_source.decode().count("\n\n\n") == 1
    move = move_structure(UNICODE, "u.py", ["def after"], "before", None, None, ["def café"])
    text = move.new_source.decode()
    assert text.index("def after") < text.index("def café")
    assert move.result["destination_final_line_range"] == [5, 6]


CRLF = b"class A:\r\n    def m(self):\r\n        pass\r\n\r\n    def n(self):\r\n        pass\r\n"


@pytest.mark.parametrize(
    "operation",
    [
        lambda d: replace_structure(d, "m.py", ["class A", "def m"], "def m(self):\n    x = 1"),
        lambda d: delete_structure(d, "m.py", ["class A", "def m"]),
        lambda d: insert_after_structure(d, "m.py", ["class A", "def m"], "def o(self):\n    1"),
        lambda d: insert_before_structure(d, "m.py", ["class A", "def m"], "def o(self):\n    1"),
        lambda d: replace_text_in_structure(d, "m.py", ["class A", "def n"], "pass", "x\ny"),
        lambda d: move_structure(d, "m.py", ["class A", "def m"], "end", None, None, ["class A"]),
    ],
)
def test_crlf_and_bom_survive_every_operation(operation: Callable[[bytes], Any]) -> None:
    result = operation(CRLF)
    assert result.new_source.count(b"\n") == result.new_source.count(b"\r\n")
    assert result.new_source.count(b"\r\n") >= 3
    with_bom = operation(b"\xef\xbb\xbf" + CRLF)
    assert with_bom.new_source == b"\xef\xbb\xbf" + result.new_source


def test_missing_final_newline_stays_missing() -> None:
    data = b"def a():\n    pass\n\n\ndef b():\n    pass"
    edit = replace_structure(data, "m.py", ["def b"], "def b():\n    return 2")
    assert edit.new_source == b"def a():\n    pass\n\n\ndef b():\n    return 2"
    edit = insert_after_structure(data, "m.py", ["def b"], "def c():\n    pass")
    assert edit.new_source.endswith(b"def c():\n    pass")


def test_bom_file_reads_without_the_bom() -> None:
    data = b"\xef\xbb\xbfdef a():\r\n    pass\r\n"
    assert read_structure(data, "m.py", ["def a"])["matches"][0]["text"] == "def a():\n    pass"
