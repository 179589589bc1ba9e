"""Targets no definition line can make unique: occurrence, symbol paths, exact lines."""

from __future__ import annotations

import pytest

from llm_operator.core.engines.structure import (
    Target,
    delete_structure,
    move_structure,
    read_structure,
    replace_structure,
    symbol_target,
)
from llm_operator.core.errors import OperatorError

GO = b"""package main

func init() {
\ta = 1
}

func init() {
\tb = 2
}
"""

CSHARP = b"""namespace Demo
{
    public class Parser
    {
        public int Parse(string text, int start, int length, bool strict, bool trim)
        {
            return 1;
        }

        public int Parse(string text, int start, int length, bool strict, bool trim, int x)
        {
            return 2;
        }
    }
}
"""

RUST = b"""struct Searcher;

impl Searcher {
    fn a(&self) {}
}

impl Searcher {
    fn b(&self) {}
}
"""

MARKDOWN = b"""# Changes

## Version 2.8.1

- fix

## Version 2.8

- first
"""

CPP_TWINS = b"""#if defined(_WIN32)
int open_file(const char *path) {
  return 1;
}
#else
int open_file(const char *path) {
  return 2;
}
#endif
"""


def test_identical_definition_lines_are_ambiguous_and_listed() -> None:
    with pytest.raises(OperatorError) as caught:
        delete_structure(GO, "m.go", ["func init() {"])
    assert caught.value.code == "ERR_TARGET_AMBIGUOUS"
    assert [m["line_range_inclusive"] for m in caught.value.details["matches"]] == [
        [3, 5],
        [7, 9],
    ]
    assert "occurrence" in caught.value.message


def test_occurrence_picks_the_nth_in_file_order() -> None:
    edit = delete_structure(GO, "m.go", Target(["func init() {"], occurrence=2))
    assert edit.new_source == b"package main\n\nfunc init() {\n\ta = 1\n}\n"
    read = read_structure(GO, "m.go", Target(["func init() {"], occurrence=1))
    assert [m["line_range_inclusive"] for m in read["matches"]] == [[3, 5]]


def test_occurrence_out_of_range_names_the_count() -> None:
    with pytest.raises(OperatorError) as caught:
        delete_structure(GO, "m.go", Target(["func init() {"], occurrence=3))
    assert caught.value.code == "ERR_TARGET_NOT_FOUND"
    assert "2 structure(s)" in caught.value.message
    assert "line 3, line 7" in caught.value.message


def test_preprocessor_twins_take_an_occurrence() -> None:
    target = Target(["int open_file(const char *path) {"], occurrence=2)
    edit = replace_structure(
        CPP_TWINS, "f.c", target, "int open_file(const char *path) {\n  return 3;\n}"
    )
    assert edit.new_source == CPP_TWINS.replace(b"return 2;", b"return 3;")


def test_symbol_names_levels_by_grammar_names_and_overloads_by_index() -> None:
    target = symbol_target("Demo/Parser/Parse[2]")
    read = read_structure(CSHARP, "p.cs", target)
    assert [m["line_range_inclusive"] for m in read["matches"]] == [[10, 13]]
    assert "return 2;" in read["matches"][0]["text"]
    both = read_structure(CSHARP, "p.cs", symbol_target("Demo/Parser/Parse"))
    assert len(both["matches"]) == 2


def test_symbol_on_twin_parents_with_occurrence() -> None:
    # "Searcher" names the struct (1) and both impl blocks (2, 3).
    moved = move_structure(
        RUST, "s.rs", symbol_target("Searcher/b"), "end", dest_target=symbol_target("Searcher", 2)
    )
    assert moved.new_source == (
        b"struct Searcher;\n\nimpl Searcher {\n    fn a(&self) {}\n    fn b(&self) {}\n}\n\n"
        b"impl Searcher {\n}\n"
    )


def test_symbol_names_markdown_headings_by_text() -> None:
    read = read_structure(MARKDOWN, "c.md", symbol_target("Changes/Version 2.8"))
    assert [m["line_range_inclusive"] for m in read["matches"]] == [[7, 9]]


def test_exact_definition_line_wins_over_a_longer_one_it_prefixes() -> None:
    read = read_structure(MARKDOWN, "c.md", ["# Changes", "## Version 2.8"])
    assert [m["line_range_inclusive"] for m in read["matches"]] == [[7, 9]]
    prefix = read_structure(MARKDOWN, "c.md", ["# Changes", "## Version 2."])
    assert len(prefix["matches"]) == 2


def test_unknown_symbol_lists_the_names_at_that_level() -> None:
    with pytest.raises(OperatorError) as caught:
        read_structure(CSHARP, "p.cs", symbol_target("Demo/Parser/Pars"))
    assert caught.value.code == "ERR_TARGET_NOT_FOUND"
    assert caught.value.details["suggestions"]["next_levels"] == ["Parse"]


def test_empty_symbol_level_is_refused() -> None:
    with pytest.raises(OperatorError) as caught:
        symbol_target("Demo//Parse")
    assert caught.value.code == "ERR_INVALID_SYMBOL"


@pytest.mark.parametrize(
    ("name", "data", "symbol", "first_line"),
    [
        ("m.py", b"class A:\n    @staticmethod\n    def f(x):\n        pass\n", "A/f", 2),
        ("m.ts", b"export class A {\n  @Input()\n  run(): void {}\n}\n", "A/run", 2),
        ("m.ts", b"export class A {\n  @Get('x') run(): void {}\n}\n", "A/run", 2),
        ("m.go", b"package m\n\nfunc (s *S) Run() {\n}\n", "Run", 3),
        ("m.c", b"static int *make(void) {\n  return 0;\n}\n", "make", 1),
        ("m.java", b"class A {\n  @Override\n  public void run() {}\n}\n", "A/run", 2),
        ("m.kt", b"class A {\n    fun run() {}\n}\n", "A/run", 2),
        ("m.rb", b"class A\n  def run\n  end\nend\n", "A/run", 2),
    ],
)
def test_symbol_finds_names_in_each_grammar(
    name: str, data: bytes, symbol: str, first_line: int
) -> None:
    read = read_structure(data, name, symbol_target(symbol))
    assert [m["line_range_inclusive"][0] for m in read["matches"]] == [first_line]


def test_a_moved_typescript_method_takes_its_decorators_along() -> None:
    data = (
        b"export class A {\n  @Input()\n  @Other()\n  first(): void {}\n\n"
        b"  @Get('x') second(): void {}\n\n  last(): void {}\n}\n"
    )
    moved = move_structure(
        data, "a.ts", symbol_target("A/first"), "end", dest_target=["export class A"]
    )
    assert moved.new_source == (
        b"export class A {\n  @Get('x') second(): void {}\n\n  last(): void {}\n\n"
        b"  @Input()\n  @Other()\n  first(): void {}\n}\n"
    )
    same_line = delete_structure(data, "a.ts", ["export class A", "second()"])
    assert b"@Get" not in same_line.new_source
