"""Replace, delete, text replacement and insertion across languages."""

from __future__ import annotations

import textwrap
from collections.abc import Callable

import pytest

from llm_operator.core.engines.structure import (
    delete_structure,
    insert_after_structure,
    insert_before_structure,
    read_structure,
    replace_all_text_in_structure,
    replace_structure,
    replace_text_in_structure,
)
from llm_operator.core.errors import OperatorError

Sample = Callable[[str], bytes]


def read_one(data: bytes, path: str, target: list[str]) -> dict[str, object]:
    matches = read_structure(data, path, target)["matches"]
    assert len(matches) == 1
    match: dict[str, object] = matches[0]
    return match


# file, target, (old, new) used to derive replacement content from the current text
REPLACE_CASES = [
    ("sample.py", ["class UserAuth:", "def __init__"], ("True", "False")),
    ("sample.js", ["class Counter", "increment()"], ("+= 1", "+= 2")),
    ("sample.ts", ["export class AppComponent", "greet(): string"], ('"hi "', '"hello "')),
    ("sample.go", ["func (s *Server) Start()", "if s.Port == 0"], ("return nil", "return err")),
    ("sample.rs", ["impl Foo", "fn bar"], ("self.a", "self.a * 2")),
    ("sample.java", ["public class A {", "public void run()"], ("count++", "count += 2")),
    ("sample.c", ["static int add"], ("a + b", "b + a")),
    ("sample.cpp", ["namespace geo", "class Shape", "void describe()"], ("area()", "0")),
    (
        "sample.cs",
        ["namespace Demo", "public class Widget", "public void Grow()"],
        ("Size++", "Size += 2"),
    ),
    ("sample.rb", ["class Greeter", "def greet"], ("hi", "hello")),
    ("sample.php", ["class Repo", "public function find($id)"], ("$id;", "$id + 1;")),
    ("sample.css", ["@media (max-width: 600px)", ".nav {"], ("none", "block")),
    ("sample.md", ["# Title", "## Install", "```python"], ('"hi"', '"hello"')),
    ("sample.yaml", ["jobs:", "build:", "steps:"], ("make test", "make check")),
]


@pytest.mark.parametrize(("name", "target", "change"), REPLACE_CASES)
def test_replace_structure_rebases_content_and_touches_only_its_range(
    sample: Sample, name: str, target: list[str], change: tuple[str, str]
) -> None:
    data = sample(name)
    before = read_one(data, name, target)
    first, last = before["line_range_inclusive"]  # type: ignore[misc]
    content = textwrap.dedent(str(before["text"])).replace(*change)
    edit = replace_structure(data, name, target, content)
    lines = data.decode().split("\n")
    expected_text = str(before["text"]).replace(*change)
    expected = "\n".join(lines[: first - 1] + expected_text.split("\n") + lines[last:])
    assert edit.new_source.decode() == expected
    assert edit.result == {"lines": [first, last], "warnings": []}


@pytest.mark.parametrize(("name", "target", "change"), REPLACE_CASES)
def test_replace_text_in_structure_changes_one_occurrence(
    sample: Sample, name: str, target: list[str], change: tuple[str, str]
) -> None:
    data = sample(name)
    before = read_one(data, name, target)
    edit = replace_text_in_structure(data, name, target, *change)
    after = read_one(edit.new_source, name, target)
    assert after["text"] == str(before["text"]).replace(*change)
    line = (
        data.decode()
        .split("\n")
        .index(next(x for x in str(before["text"]).split("\n") if change[0] in x))
    )
    assert edit.result == {"affected_lines": [line + 1, line + 1], "warnings": []}


@pytest.mark.parametrize(("name", "target", "change"), REPLACE_CASES)
def test_replace_all_text_counts_replacements(
    sample: Sample, name: str, target: list[str], change: tuple[str, str]
) -> None:
    data = sample(name)
    edit = replace_all_text_in_structure(data, name, target, *change, expected_count=1)
    assert edit.result["total_replacements"] == 1
    assert edit.new_source == replace_text_in_structure(data, name, target, *change).new_source


# file, target, content to delete; the sibling range that must survive
DELETE_CASES = [
    ("sample.py", ["def helper(x):"]),
    ("sample.js", ["class Counter", "constructor()"]),
    ("sample.ts", ["export interface Options"]),
    ("sample.go", ["type Server struct"]),
    ("sample.rs", ["impl Foo", "fn bar"]),
    ("sample.java", ["public class A {", "public void run()"]),
    ("sample.cs", ["namespace Demo", "public class Widget", "public void Grow()"]),
    ("sample.rb", ["class Greeter", "def initialize"]),
    ("sample.php", ["class Repo", "public function all()"]),
    ("sample.sh", ["if [ -n"]),
    ("sample.css", ["@media"]),
    ("sample.json", ['"scripts"', '"build"']),
    ("sample.toml", ["[tool.ruff]"]),
    ("sample.md", ["# Title", "## Install"]),
    ("sample.html", ["<html>", "<body>", "<div"]),
]


@pytest.mark.parametrize(("name", "target"), DELETE_CASES)
def test_delete_structure_removes_its_lines_and_one_gap(
    sample: Sample, name: str, target: list[str]
) -> None:
    data = sample(name)
    first, last = read_one(data, name, target)["line_range_inclusive"]  # type: ignore[misc]
    edit = delete_structure(data, name, target)
    assert edit.result == {"deleted_line_range_inclusive": [first, last], "warnings": []}
    text = edit.new_source.decode()
    assert "\n\n\n\n" not in text
    if name != "sample.py":
        assert "\n\n\n" not in text
    with pytest.raises(OperatorError):
        read_structure(edit.new_source, name, target)
    removed = set(data.decode().split("\n")[first - 1 : last])
    kept = [line for line in text.split("\n") if line.strip()]
    original = [line for line in data.decode().split("\n") if line.strip()]
    assert kept == [
        line
        for i, line in enumerate(data.decode().split("\n"))
        if line.strip() and not first - 1 <= i < last
    ]
    assert len(kept) == len(original) - len([x for x in removed if x.strip()])


# file, target, content, target of the inserted structure
INSERT_CASES = [
    (
        "sample.py",
        ["class UserAuth:", "def __init__"],
        "def extra(self):\n    return 1",
        ["class UserAuth:", "def extra(self):"],
    ),
    (
        "sample.js",
        ["class Counter", "increment()"],
        "decrement() {\n  this.n -= 1;\n}",
        ["class Counter", "decrement()"],
    ),
    (
        "sample.ts",
        ["export class AppComponent", "greet(): string"],
        'shout(): string {\n  return "HI";\n}',
        ["export class AppComponent", "shout()"],
    ),
    ("sample.go", ["func main()"], "func helper() int {\n\treturn 1\n}", ["func helper()"]),
    (
        "sample.rs",
        ["impl Foo", "fn baz"],
        "fn qux(&self) -> i32 {\n    2\n}",
        ["impl Foo", "fn qux"],
    ),
    (
        "sample.java",
        ["public class A {", "public int get()"],
        "public void reset() {\n    count = 0;\n}",
        ["public class A {", "public void reset()"],
    ),
    (
        "sample.c",
        ["static int add"],
        "static int sub(int a, int b)\n{\n    return a - b;\n}",
        ["static int sub"],
    ),
    (
        "sample.cs",
        ["namespace Demo", "public class Widget", "public void Grow()"],
        "public void Reset()\n{\n    Size = 0;\n}",
        ["namespace Demo", "public class Widget", "public void Reset()"],
    ),
    (
        "sample.rb",
        ["class Greeter", "def greet"],
        'def bye\n  "bye"\nend',
        ["class Greeter", "def bye"],
    ),
    ("sample.md", ["# Title", "## Usage"], "## Extra\n\nMore text.", ["# Title", "## Extra"]),
    (
        "sample.yaml",
        ["jobs:", "build:", "runs-on"],
        "timeout-minutes: 5",
        ["jobs:", "build:", "timeout-minutes"],
    ),
    ("sample.css", ["body {"], ".x {\n  color: blue;\n}", [".x {"]),
]


@pytest.mark.parametrize(("name", "target", "content", "new_target"), INSERT_CASES)
def test_insert_after_structure(
    sample: Sample, name: str, target: list[str], content: str, new_target: list[str]
) -> None:
    data = sample(name)
    edit = insert_after_structure(data, name, target, content)
    inserted = read_one(edit.new_source, name, new_target)
    first = edit.result["inserted_at_line"]
    assert inserted["line_range_inclusive"] == [first, first + content.count("\n")]
    assert textwrap.dedent(str(inserted["text"])) == content
    assert edit.result["warnings"] == []
    assert read_one(edit.new_source, name, target) == read_one(data, name, target)
    text = edit.new_source.decode()
    assert "\n\n\n\n" not in text
    if name != "sample.py":
        assert "\n\n\n" not in text


@pytest.mark.parametrize(("name", "target", "content", "new_target"), INSERT_CASES)
def test_insert_before_structure(
    sample: Sample, name: str, target: list[str], content: str, new_target: list[str]
) -> None:
    data = sample(name)
    edit = insert_before_structure(data, name, target, content)
    inserted = read_one(edit.new_source, name, new_target)
    first = edit.result["inserted_at_line"]
    assert inserted["line_range_inclusive"] == [first, first + content.count("\n")]
    assert textwrap.dedent(str(inserted["text"])) == content
    moved = read_one(edit.new_source, name, target)
    assert moved["line_range_inclusive"][0] == edit.result["target_now_at_line"]  # type: ignore[index]
    assert moved["text"] == read_one(data, name, target)["text"]
    assert edit.result["warnings"] == []


def test_empty_target_inserts_at_file_start_and_end(sample: Sample) -> None:
    data = sample("sample.rs")
    end = insert_after_structure(data, "s.rs", [], "fn last() {}")
    assert end.new_source.decode().endswith("}\n\nfn last() {}\n")
    start = insert_before_structure(data, "s.rs", [], "const A: i32 = 1;")
    assert start.new_source.decode().startswith("const A: i32 = 1;\n\nuse std::fmt;\n")
    assert start.result == {"inserted_at_line": 1, "target_now_at_line": 3, "warnings": []}


def test_text_replacement_on_the_empty_target_covers_the_whole_file(sample: Sample) -> None:
    data = sample("sample.py")
    edit = replace_all_text_in_structure(data, "s.py", [], "self.active", "self.on")
    assert edit.result == {"total_replacements": 2, "affected_lines": [16, 20], "warnings": []}


def test_replace_all_reports_span_of_multi_line_replacements() -> None:
    data = b"def f():\n    a = 1\n    b = 1\n    c = 1\n"
    edit = replace_all_text_in_structure(data, "m.py", ["def f"], " = 1", " = (\n        1\n    )")
    assert edit.result["total_replacements"] == 3
    assert edit.result["affected_lines"] == [2, 10]


def test_crlf_in_old_text_matches_lf_text() -> None:
    data = b"def f():\r\n    a = 1\r\n    b = 2\r\n"
    edit = replace_text_in_structure(data, "m.py", ["def f"], "a = 1\r\n    b", "a = 3\r\n    c")
    assert edit.new_source == b"def f():\r\n    a = 3\r\n    c = 2\r\n"
