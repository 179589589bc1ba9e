"""Top-level assignments in outlines: by name, with their lines, capped and counted.

test_inflection.py of the inflection library (tests/data/turns/inflection_options) holds
280 lines of test tables in module constants, which its outline never showed: a model
looking for SINGULAR_TO_PLURAL had to search for it."""

from __future__ import annotations

import pytest

from llm_operator.core.actions.outline import outline_lines
from llm_operator.core.engines.structure import outline_structures, read_structure
from llm_operator.core.engines.structure.outline_values import MAX_VALUES
from support.paths import DATA

TESTS = DATA / "turns" / "inflection_options" / "workspace" / "test_inflection.py.txt"


def test_a_python_outline_lists_the_module_tables_and_each_line_reads_its_table() -> None:
    data = TESTS.read_bytes()
    entries = outline_structures(data, "test_inflection.py", values=True).entries
    rendered = [entry.render() for entry in entries]
    assert "10-116: SINGULAR_TO_PLURAL: TestParameters =" in rendered
    assert "203-265: ORDINAL_NUMBERS: TestParameters =" in rendered
    # In file order, among the definitions.
    assert [entry.start for entry in entries] == sorted(entry.start for entry in entries)
    table = next(e for e in entries if e.line.startswith("SINGULAR_TO_PLURAL"))
    read = read_structure(data, "test_inflection.py", [table.line])
    assert [m["line_range_inclusive"] for m in read["matches"]] == [[10, 116]]
    # Without values (the engine's default) the outline is the definitions alone.
    bare = outline_structures(data, "test_inflection.py").entries
    assert all(entry.line.startswith(("def ", "@")) for entry in bare)


def test_thousands_of_assignments_are_capped_and_counted() -> None:
    data = "".join(f"NAME_{n} = {n}\n" for n in range(5000)).encode() + b"def f():\n    pass\n"
    outline = outline_structures(data, "big.py", values=True)
    assert len(outline.entries) == MAX_VALUES + 1
    assert outline.values_left_out == 5000 - MAX_VALUES
    assert outline.entries[-1].line == "def f():"
    lines, note = outline_lines(data, "big.py", 2, symbols=True, values=True)
    assert lines[0] == "1-1: NAME_0 ="
    assert (
        note
        == "python, 5002 lines; 4900 more top-level assignments not listed (fs.search finds them)"
    )


@pytest.mark.parametrize(
    ("name", "text", "shown"),
    [
        (
            "a.py",
            "X = 1\nY: int = 2\nif X:\n    Z = 3\nX += 1\n",
            ["1-1: X =", "2-2: Y: int =", "4-4: Z ="],
        ),
        (
            "a.ts",
            "const X = 1;\nexport const Y: T = {\n  a: 1,\n};\nconst f = () => 1;\n",
            ["1-1: const X =", "2-4: export const Y: T =", "5-5: const f = () => 1;"],
        ),
        (
            "a.go",
            "package a\n\nconst Max = 3\n\nfunc F() {}\n",
            ["3-3: const Max =", "5-5: func F() {}"],
        ),
        ("a.rs", "static N: u8 = 1;\nfn f() {}\n", ["1-1: static N: u8 =", "2-2: fn f() {}"]),
        ("a.rb", "LIMIT = 3\nclass A\nend\n", ["1-1: LIMIT =", "2-3: class A"]),
    ],
)
def test_each_language_shows_its_top_level_constants(
    name: str, text: str, shown: list[str]
) -> None:
    entries = outline_structures(text.encode(), name, values=True).entries
    assert [entry.render() for entry in entries] == shown
