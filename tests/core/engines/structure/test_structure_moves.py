"""Moving structures within a file and across files."""

from __future__ import annotations

import textwrap
from collections.abc import Callable

import pytest

from llm_operator.core.engines.structure import move_structure, read_structure
from llm_operator.core.errors import OperatorError

Sample = Callable[[str], bytes]


def read_one(data: bytes, path: str, target: list[str]) -> dict[str, object]:
    matches = read_structure(data, path, target)["matches"]
    assert len(matches) == 1, matches
    match: dict[str, object] = matches[0]
    return match


def code_lines(data: bytes) -> list[str]:
    return sorted(line.strip() for line in data.decode().split("\n") if line.strip())


# file, moved target, position, destination target, moved target afterwards
MOVE_CASES = [
    (
        "sample.py",
        ["def helper(x):"],
        "end",
        ["class UserAuth:"],
        ["class UserAuth:", "def helper(x):"],
    ),
    (
        "sample.py",
        ["class UserAuth:", "def validate"],
        "after",
        ["def tail():"],
        ["def validate(self):"],
    ),
    ("sample.js", ["function add"], "after", ["class Counter"], ["function add"]),
    (
        "sample.ts",
        ["export class AppComponent", "reset(): void"],
        "before",
        ["export class AppComponent", "greet(): string"],
        ["export class AppComponent", "reset()"],
    ),
    ("sample.go", ["func main()"], "before", ["type Server struct"], ["func main()"]),
    ("sample.rs", ["impl Foo", "fn baz"], "start", ["impl Foo"], ["impl Foo", "fn baz"]),
    (
        "sample.java",
        ["public class A {", "public int get()"],
        "start",
        ["public class A {"],
        ["public class A {", "public int get()"],
    ),
    (
        "sample.cs",
        ["namespace Demo", "public class Widget", "public void Shrink()"],
        "before",
        ["namespace Demo", "public class Widget", "public void Grow()"],
        ["namespace Demo", "public class Widget", "public void Shrink()"],
    ),
    (
        "sample.rb",
        ["class Greeter", "def greet"],
        "after",
        ["class Greeter", "attr_reader"],
        ["class Greeter", "def greet"],
    ),
    (
        "sample.php",
        ["function helper()"],
        "end",
        ["class Repo"],
        ["class Repo", "function helper()"],
    ),
    (
        "sample.md",
        ["# Title", "## Usage"],
        "before",
        ["# Title", "## Install"],
        ["# Title", "## Usage"],
    ),
    ("sample.c", ["int main(void)"], "start", [], ["int main(void)"]),
]


@pytest.mark.parametrize(("name", "target", "position", "dest", "new_target"), MOVE_CASES)
def test_move_within_a_file(
    sample: Sample,
    name: str,
    target: list[str],
    position: str,
    dest: list[str],
    new_target: list[str],
) -> None:
    data = sample(name)
    before = read_one(data, name, target)
    move = move_structure(data, name, target, position, None, None, dest)
    assert move.new_dest_source is None
    after = read_one(move.new_source, name, new_target)
    assert move.result == {
        "source_original_line_range": before["line_range_inclusive"],
        "destination_final_line_range": after["line_range_inclusive"],
        "warnings": [],
    }
    assert textwrap.dedent(str(after["text"])) == textwrap.dedent(str(before["text"]))
    assert code_lines(move.new_source) == code_lines(data)
    assert "\n\n\n\n" not in move.new_source.decode()


def test_move_before_and_after_checks_the_final_position(sample: Sample) -> None:
    data = sample("sample.py")
    move = move_structure(data, "s.py", ["def tail():"], "before", None, None, ["def helper(x):"])
    text = move.new_source.decode()
    assert text.index("def tail():") < text.index("# Helper comment.")
    assert "import os\n\n\ndef tail():\n    pass\n\n\n# Helper comment.\n" in text
    assert text.endswith("        return False\n")
    assert move.result["destination_final_line_range"] == [6, 7]


def test_move_across_files_returns_both_sources(sample: Sample) -> None:
    data = sample("sample.py")
    dest = b'"""Other."""\n\n\ndef first():\n    pass\n'
    move = move_structure(
        data, "a.py", ["class UserAuth:", "def validate"], "end", dest, "b.py", []
    )
    assert move.new_dest_source == (
        b'"""Other."""\n\n\ndef first():\n    pass\n\n\n'
        b"@staticmethod\ndef validate(self):\n    if self.active:\n        return True\n"
        b"    return False\n"
    )
    assert b"def validate" not in move.new_source
    assert b"        self.active = True\n\n\ndef tail():" in move.new_source
    assert move.result["source_original_line_range"] == [18, 22]
    assert move.result["destination_final_line_range"] == [8, 12]


def test_move_into_an_empty_file(sample: Sample) -> None:
    move = move_structure(
        sample("sample.md"), "a.md", ["# Title", "## Usage"], "start", b"", "b.md", None
    )
    assert move.new_dest_source == b"## Usage\n\nUse it.\n"
    assert move.result["destination_final_line_range"] == [1, 3]


@pytest.mark.parametrize("position", ["start", "end"])
def test_move_into_an_empty_file_reports_where_it_landed(position: str) -> None:
    data = b"def a():\n    pass\n\n\ndef b():\n    return 2\n"
    move = move_structure(data, "a.py", ["def b"], position, b"", "b.py", None)
    assert move.new_dest_source == b"def b():\n    return 2\n"
    assert move.result["destination_final_line_range"] == [1, 2]


@pytest.mark.parametrize("dest", [b"", b"console.log(1);\n"])
def test_move_keeps_its_own_indent_unit_where_the_destination_has_none(dest: bytes) -> None:
    data = b"class A {\n  m(): number {\n    return 1;\n  }\n}\n\nfunction f() {\n  go();\n}\n"
    move = move_structure(data, "a.ts", ["function f"], "start", dest, "b.ts", None)
    assert move.new_dest_source is not None
    assert move.new_dest_source.startswith(b"function f() {\n  go();\n}\n")
    deeper = move_structure(data, "a.ts", ["class A", "m()"], "end", dest, "b.ts", None)
    assert deeper.new_dest_source is not None
    assert deeper.new_dest_source.endswith(b"m(): number {\n  return 1;\n}\n")


def test_move_into_an_empty_body_uses_the_closing_line() -> None:
    data = b"class A {\n    void m() {}\n}\n\nclass B {\n}\n"
    move = move_structure(data, "A.java", ["class A", "void m()"], "end", None, None, ["class B"])
    assert move.new_source == b"class A {\n}\n\nclass B {\n    void m() {}\n}\n"
    assert move.result["destination_final_line_range"] == [5, 5]
    assert [w["type"] for w in move.result["warnings"]] == ["STRUCTURE_EMPTY"]
    assert move.result["warnings"][0]["details"] == {"structure": "class A {", "lines": [1, 2]}


def test_move_keeps_crlf_in_both_files() -> None:
    source = b"def a():\r\n    pass\r\n\r\n\r\ndef b():\r\n    pass\r\n"
    dest = b"x = 1\r\n"
    move = move_structure(source, "a.py", ["def a"], "end", dest, "b.py", None)
    assert move.new_source == b"def b():\r\n    pass\r\n"
    assert move.new_dest_source == b"x = 1\r\n\r\n\r\ndef a():\r\n    pass\r\n"


@pytest.mark.parametrize(
    ("position", "dest", "message"),
    [
        ("sideways", ["def tail():"], "position must be one of"),
        ("before", [], "needs dest_target"),
        ("after", ["class UserAuth:", "def validate"], "inside it"),
        ("end", ["class UserAuth:"], "inside it"),
    ],
)
def test_invalid_positions(sample: Sample, position: str, dest: list[str], message: str) -> None:
    with pytest.raises(OperatorError) as info:
        move_structure(sample("sample.py"), "s.py", ["class UserAuth:"], position, None, None, dest)
    assert info.value.code == "ERR_INVALID_POSITION"
    assert message in info.value.message
    assert info.value.details["state"] == "FILE_UNCHANGED"


def test_move_validates_the_destination_before_anything(sample: Sample) -> None:
    with pytest.raises(OperatorError) as info:
        move_structure(
            sample("sample.py"), "a.py", ["def tail():"], "after", b"def f(:\n", "b.py", ["def f"]
        )
    assert info.value.code == "ERR_PARSER_FAILED"
    with pytest.raises(OperatorError) as info:
        move_structure(
            sample("sample.py"),
            "a.py",
            ["def tail():"],
            "after",
            b"x = 1\n",
            "b.py",
            ["def nowhere"],
        )
    assert info.value.code == "ERR_TARGET_NOT_FOUND"


@pytest.mark.parametrize(
    ("position", "expected"),
    [
        (
            "start",
            "# Title\n\n## FAQ\n\n## Notes\n\n- one\n- two\n\nSome answers.\n\n"
            "## Install\n\nRun it.\n",
        ),
        (
            "end",
            "# Title\n\n## FAQ\n\nSome answers.\n\n## Notes\n\n- one\n- two\n\n"
            "## Install\n\nRun it.\n",
        ),
    ],
)
def test_move_into_a_markdown_section_holding_only_paragraphs(position: str, expected: str) -> None:
    source = (
        b"# Title\n\n## FAQ\n\nSome answers.\n\n## Install\n\nRun it.\n\n## Notes\n\n- one\n- two\n"
    )
    moved = move_structure(
        source,
        "README.md",
        ["# Title", "## Notes"],
        position,
        None,
        None,
        ["# Title", "## FAQ"],
    )
    assert moved.new_source.decode() == expected
    first, last = moved.result["destination_final_line_range"]
    lines = expected.split("\n")
    assert lines[first - 1] == "## Notes"
    assert lines[last - 1] == "- two"
