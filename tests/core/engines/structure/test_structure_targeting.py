"""Targets: levels, literal first-50-character matching, boundaries and target errors."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from llm_operator.core.engines.structure import (
    delete_structure,
    read_structure,
    replace_structure,
)
from llm_operator.core.errors import OperatorError

Sample = Callable[[str], bytes]


def ranges(data: bytes, path: str, target: list[str]) -> list[list[int]]:
    return [m["line_range_inclusive"] for m in read_structure(data, path, target)["matches"]]


def test_levels_are_literal_prefixes_of_the_definition_line(sample: Sample) -> None:
    data = sample("sample.py")
    assert ranges(data, "s.py", ["class UserAuth", "def validate"]) == [[18, 22]]
    with pytest.raises(OperatorError) as info:
        read_structure(data, "s.py", ["class UserAuth", "validate(self):"])
    assert info.value.code == "ERR_TARGET_NOT_FOUND"


def test_the_decorator_line_does_not_name_the_structure(sample: Sample) -> None:
    with pytest.raises(OperatorError) as info:
        read_structure(sample("sample.py"), "s.py", ["@decorator"])
    assert info.value.code == "ERR_TARGET_NOT_FOUND"


def test_only_the_first_50_characters_of_a_level_are_compared() -> None:
    name = "def function_with_a_really_long_name_for_testing_the_limit"
    data = f"{name}(a):\n    return a\n".encode()
    level = name[:50] + "_this_part_is_ignored_entirely"
    assert len(level) > 50
    assert ranges(data, "m.py", [level]) == [[1, 2]]
    with pytest.raises(OperatorError):
        read_structure(data, "m.py", [name[:49] + "X"])


def test_leading_indentation_and_carriage_return_of_a_level_are_ignored(sample: Sample) -> None:
    data = sample("sample.py")
    assert ranges(data, "s.py", ["class UserAuth:\r", "    def validate"]) == [[18, 22]]


def test_a_one_line_target_finds_the_one_definition_below_the_top(sample: Sample) -> None:
    (match,) = read_structure(sample("sample.py"), "s.py", ["def validate(self):"])["matches"]
    assert match["line_range_inclusive"] == [18, 22]
    assert match["target_matched"] == {"symbol": "UserAuth/validate"}


def test_levels_cannot_be_skipped_in_a_target_of_several_lines(sample: Sample) -> None:
    nested = NESTED.encode()
    with pytest.raises(OperatorError) as info:
        read_structure(nested, "n.rb", ["module Outer", "def run(x)"])
    error = info.value
    assert error.code == "ERR_TARGET_NOT_FOUND"
    assert error.details["parent_found"] == "module Outer"
    assert error.details["searched_path"] == ["module Outer", "def run(x)"]
    assert error.details["suggestions"]["nearest"][0] == {
        "line": 3,
        "symbol": "Outer/Inner/run",
        "definition": "def run(x)",
    }
    assert "'symbol: Outer/Inner/run'" in error.message
    assert error.details["state"] == "FILE_UNCHANGED"


def test_not_found_reports_deepest_level_and_next_levels(sample: Sample) -> None:
    with pytest.raises(OperatorError) as info:
        read_structure(sample("sample.py"), "s.py", ["class UserAuth:", "def validat(self)"])
    details = info.value.details
    assert details["parent_found"] == "class UserAuth:"
    # Definitions only: the docstring is no level anyone means.
    assert details["suggestions"]["next_levels"] == ["def __init__(self):", "def validate(self):"]
    assert details["suggestions"]["nearest"][0]["symbol"] == "UserAuth/validate"


def test_empty_level_is_not_found(sample: Sample) -> None:
    with pytest.raises(OperatorError) as info:
        read_structure(sample("sample.py"), "s.py", ["class UserAuth:", ""])
    assert info.value.code == "ERR_TARGET_NOT_FOUND"
    assert "empty" in info.value.message


NESTED = """module Outer
  module Inner
    def run(x)
      x
    end
  end
end
"""


AMBIGUOUS = b"""class Shape:
    @property
    def size(self):
        return self._size

    @size.setter
    def size(self, value):
        self._size = value
"""


def test_read_returns_every_match() -> None:
    assert ranges(AMBIGUOUS, "a.py", ["class Shape", "def size(self"]) == [[2, 4], [6, 8]]


def test_writes_refuse_an_ambiguous_target() -> None:
    with pytest.raises(OperatorError) as info:
        delete_structure(AMBIGUOUS, "a.py", ["class Shape", "def size(self"])
    error = info.value
    assert error.code == "ERR_TARGET_AMBIGUOUS"
    assert error.details["matches"] == [
        {
            "line_range_inclusive": [2, 4],
            "first_line": "def size(self):",
            "symbol": "Shape/size[1]",
        },
        {
            "line_range_inclusive": [6, 8],
            "first_line": "def size(self, value):",
            "symbol": "Shape/size[2]",
        },
    ]
    assert "line 2: 'symbol: Shape/size[1]'; line 6: 'symbol: Shape/size[2]'" in error.message
    assert error.details["state"] == "FILE_UNCHANGED"
    assert ranges(AMBIGUOUS, "a.py", ["class Shape", "def size(self,"]) == [[6, 8]]


def test_ambiguous_intermediate_level_is_resolved_by_the_next_one() -> None:
    data = b"if a:\n    x = 1\nif a:\n    y = 2\n"
    assert ranges(data, "m.py", ["if a:", "y = 2"]) == [[4, 4]]
    assert ranges(data, "m.py", ["if a:"]) == [[1, 2], [3, 4]]


def test_comments_directly_above_belong_but_not_across_a_blank_line() -> None:
    data = b"# detached\n\n# one\n# two\n@dec\ndef f():\n    pass\n    # trailing, inside\n"
    assert ranges(data, "m.py", ["def f"]) == [[3, 7]]


def test_comment_at_another_indentation_is_not_attached() -> None:
    data = (
        b"class A:\n    def m(self):\n        pass\n    # about the end of A\ndef f():\n    pass\n"
    )
    assert ranges(data, "m.py", ["def f"]) == [[5, 6]]
    assert ranges(data, "m.py", ["class A"]) == [[1, 3]]


def test_shebang_is_never_attached() -> None:
    data = b"#!/usr/bin/env python3\ndef main():\n    pass\n"
    assert ranges(data, "m.py", ["def main"]) == [[2, 3]]


def test_java_annotation_on_the_definition_line_gives_a_second_key() -> None:
    data = b"class A {\n    @Override public void run() {\n        go();\n    }\n}\n"
    assert ranges(data, "A.java", ["class A", "@Override public void run"]) == [[2, 4]]
    assert ranges(data, "A.java", ["class A", "public void run"]) == [[2, 4]]


def test_typescript_export_and_decorators_belong_to_the_declaration(sample: Sample) -> None:
    text = read_structure(sample("sample.ts"), "s.ts", ["export class AppComponent"])
    first_lines = text["matches"][0]["text"].split("\n")[:3]
    assert first_lines == [
        "// Component doc.",
        '@Component({ selector: "app" })',
        "export class AppComponent {",
    ]


def test_cpp_template_and_trailing_semicolon_belong_to_the_declaration(sample: Sample) -> None:
    data = sample("sample.cpp")
    text = read_structure(data, "s.cpp", ["namespace geo", "T max_of"])["matches"][0]["text"]
    assert text.split("\n")[:2] == ["// Largest of two.", "template <typename T>"]
    shape = read_structure(data, "s.cpp", ["namespace geo", "class Shape"])["matches"][0]
    assert shape["text"].endswith("};")


def test_rust_attributes_and_doc_comments_belong_to_the_item(sample: Sample) -> None:
    text = read_structure(sample("sample.rs"), "s.rs", ["impl Foo", "fn bar"])["matches"][0]
    assert text["text"].split("\n")[:3] == [
        "    /// Bar doc.",
        "    #[inline]",
        "    fn bar(&self) -> i32 {",
    ]


def test_empty_target_reads_the_whole_file(sample: Sample) -> None:
    data = sample("sample.go")
    match = read_structure(data, "s.go", [])["matches"][0]
    assert match["text"] + "\n" == data.decode()
    assert match["line_range_inclusive"] == [1, data.count(b"\n")]


def test_write_needs_a_target(sample: Sample) -> None:
    with pytest.raises(OperatorError) as info:
        delete_structure(sample("sample.py"), "s.py", [])
    assert info.value.code == "ERR_TARGET_REQUIRED"


def test_structure_sharing_a_line_can_be_read_but_not_rewritten() -> None:
    data = b"<div>\n  <p>Hello <b>bold</b> text</p>\n</div>\n"
    assert ranges(data, "p.html", ["<div>", "<p>", "<b>"]) == [[2, 2]]
    with pytest.raises(OperatorError) as info:
        replace_structure(data, "p.html", ["<div>", "<p>", "<b>"], "<i>x</i>")
    assert info.value.code == "ERR_TARGET_SHARES_LINE"
    assert info.value.details["state"] == "FILE_UNCHANGED"


def test_trailing_comment_on_the_last_line_does_not_count_as_sharing() -> None:
    data = b"x = 1  # one\ny = 2\n"
    result = delete_structure(data, "m.py", ["x = 1"])
    assert result.new_source == b"y = 2\n"
