"""Reading structures in every supported language, from the golden samples."""

from __future__ import annotations

import subprocess
import sys

import pytest

from llm_operator.core.engines.structure import (
    SUPPORTED_LANGUAGES,
    language_for_path,
    read_structure,
)
from support.paths import DATA as TEST_DATA

DATA = TEST_DATA / "structure"

# file, target levels, expected 1-based inclusive range
GOLDEN = [
    ("sample.py", ["class UserAuth:", "def validate(self):"], [18, 22]),
    ("sample.py", ["def helper(x):"], [6, 9]),
    ("sample.py", ["class UserAuth", "def validate", "if self.active:"], [20, 21]),
    ("sample.js", ["class Counter", "increment()"], [13, 15]),
    ("sample.js", ['describe("counter"', 'it("counts"'], [19, 21]),
    ("sample.js", ["function add"], [3, 6]),
    ("sample.ts", ["export class AppComponent", "greet(): string"], [8, 11]),
    ("sample.ts", ["export class AppComponent"], [3, 16]),
    ("sample.ts", ["export class AppComponent", "name: string"], [6, 6]),
    ("sample.ts", ["export interface Options", "verbose"], [19, 19]),
    ("sample.tsx", ["export const Footer"], [9, 11]),
    ("sample.tsx", ["export function Header", "return <h1>"], [6, 6]),
    ("sample.go", ["func (s *Server) Start()", "if s.Port == 0"], [12, 14]),
    ("sample.go", ["type Server struct", "Port int"], [7, 7]),
    ("sample.rs", ["impl Foo", "fn bar"], [10, 14]),
    ("sample.rs", ["struct Foo"], [3, 7]),
    ("sample.java", ["public class A {", "public void run()"], [10, 14]),
    ("sample.java", ["public class A {"], [5, 19]),
    ("sample.c", ["struct point"], [3, 7]),
    ("sample.c", ["int main(void)", "if (add(1, 2) > 2)"], [16, 18]),
    ("sample.cpp", ["namespace geo", "T max_of"], [5, 9]),
    ("sample.cpp", ["namespace geo", "class Shape", "void describe()"], [15, 17]),
    ("sample.cs", ["namespace Demo", "public class Widget", "public void Grow()"], [11, 15]),
    ("sample.cs", ["namespace Demo", "public class Widget"], [5, 21]),
    ("sample.kt", ["class Counter", "fun increment()"], [8, 12]),
    ("sample.kt", ["class Counter"], [5, 15]),
    ("sample.swift", ["public final class Counter", "public func increment()"], [7, 12]),
    ("sample.swift", ["func main()"], [19, 21]),
    ("sample.rb", ["class Greeter", "def greet"], [11, 13]),
    ("sample.rb", ['describe "greeter" do', 'it "greets" do'], [17, 19]),
    ("sample.php", ["class Repo", "public function all()"], [13, 16]),
    ("sample.sh", ["greet() {"], [4, 7]),
    ("sample.sh", ["for i in 1 2; do", "echo"], [14, 14]),
    ("sample.html", ["<html>", "<body>", '<div class="main">'], [7, 10]),
    ("sample.css", ["@media (max-width: 600px)", ".nav {"], [8, 10]),
    ("sample.css", ["body {"], [1, 5]),
    ("sample.json", ['"scripts"', '"test"'], [5, 5]),
    ("sample.yaml", ["jobs:", "build:", "steps:"], [9, 11]),
    ("sample.yaml", ["name: ci"], [1, 2]),
    ("sample.toml", ["[tool.ruff]", "line-length"], [5, 5]),
    ("sample.toml", ["[tool.mypy]"], [7, 8]),
    ("sample.md", ["# Title", "## Install"], [5, 16]),
    ("sample.md", ["# Title", "## Install", "Install the tools"], [7, 8]),
    ("sample.md", ["# Title", "## Install", "- Run the setup"], [9, 9]),
    ("sample.md", ["# Title", "## Install", "python"], [11, 13]),
    ("sample.md", ["# Title", "## Install", 'print("hi")'], [11, 13]),
    ("sample.md", ["# Title", "## Install", "A quote"], [15, 16]),
    ("sample.md", ["# Title", "## Usage"], [18, 20]),
]


@pytest.mark.parametrize(("name", "target", "expected"), GOLDEN)
def test_read_structure_golden(name: str, target: list[str], expected: list[int]) -> None:
    data = (DATA / name).read_bytes()
    result = read_structure(data, name, target)
    assert [m["line_range_inclusive"] for m in result["matches"]] == [expected]
    lines = data.decode("utf-8").split("\n")
    assert result["matches"][0]["text"] == "\n".join(lines[expected[0] - 1 : expected[1]])
    assert result["warnings"] == []


def test_every_supported_language_has_a_golden_sample() -> None:
    covered = {language_for_path(name) for name, _, _ in GOLDEN}
    assert covered == set(SUPPORTED_LANGUAGES)


@pytest.mark.parametrize(
    ("path", "language"),
    [
        ("a/b/c.py", "python"),
        ("x.TSX", "tsx"),
        ("x.ts", "typescript"),
        ("x.hpp", "cpp"),
        ("x.h", "c"),
        ("x.yml", "yaml"),
        ("README.md", "markdown"),
        ("Rakefile", "ruby"),
        ("win\\dir\\x.cs", "csharp"),
        ("notes.txt", None),
        ("Makefile", None),
    ],
)
def test_language_for_path(path: str, language: str | None) -> None:
    assert language_for_path(path) == language


def test_required_languages_are_supported() -> None:
    required = {
        "python",
        "javascript",
        "typescript",
        "tsx",
        "go",
        "rust",
        "java",
        "c",
        "cpp",
        "csharp",
        "ruby",
        "php",
        "bash",
        "html",
        "css",
        "json",
        "yaml",
        "toml",
        "markdown",
    }
    assert required <= set(SUPPORTED_LANGUAGES)


def test_importing_the_package_does_not_import_tree_sitter() -> None:
    code = (
        "import sys, llm_operator.core.engines.structure as s\n"
        "assert 'tree_sitter' not in sys.modules, 'eager'\n"
        "s.read_structure(b'x = 1\\n', 'a.py', ['x'])\n"
        "assert 'tree_sitter' in sys.modules, 'never parsed'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_every_name_of_the_package_is_found_in_its_module() -> None:
    code = (
        "import sys, llm_operator.core.engines.structure as s\n"
        "assert set(s.__all__) == set(s._HOMES), set(s.__all__) ^ set(s._HOMES)\n"
        "assert not [m for m in sys.modules if m.startswith(s.__name__ + '.')], 'eager'\n"
        "for name in s.__all__:\n"
        "    assert getattr(s, name) is getattr(sys.modules[s.__name__ + '.' + s._HOMES[name]],"
        " name)\n"
        "try:\n"
        "    s.no_such_name\n"
        "except AttributeError:\n"
        "    pass\n"
        "else:\n"
        "    raise AssertionError('an unknown name was found')\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_grammar_is_loaded_without_the_language_pack_package() -> None:
    code = (
        "import sys\n"
        "from llm_operator.core.engines.structure import read_structure\n"
        "read_structure(b'def f():\\n    return 1\\n', 'a.py', ['def f'])\n"
        "assert 'tree_sitter' in sys.modules, 'never parsed'\n"
        "assert 'tree_sitter_language_pack' not in sys.modules, 'the whole pack'\n"
        "from tree_sitter_language_pack import get_language\n"
        "from llm_operator.core.engines.structure.source import grammar_of\n"
        "ours, theirs = grammar_of('python'), get_language('python')\n"
        "assert (ours.name, ours.abi_version, ours.node_kind_count) == "
        "(theirs.name, theirs.abi_version, theirs.node_kind_count)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
