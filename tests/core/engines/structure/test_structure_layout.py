"""Blank lines and indentation around inserted, replaced and removed structures."""

from __future__ import annotations

import pytest

from llm_operator.core.engines.structure import (
    delete_structure,
    insert_after_structure,
    insert_before_structure,
    replace_structure,
)

MODULE = b"""import os


def a():
    pass


class K:
    def m(self):
        pass

    def n(self):
        pass


def z():
    pass
"""


def test_pep8_two_blank_lines_around_top_level_definitions() -> None:
    edit = insert_after_structure(MODULE, "m.py", ["def a"], "def b():\n    return 1")
    assert b"    pass\n\n\ndef b():\n    return 1\n\n\nclass K:" in edit.new_source
    assert edit.result["inserted_at_line"] == 8


def test_pep8_one_blank_line_inside_a_class() -> None:
    edit = insert_before_structure(MODULE, "m.py", ["class K", "def n"], "def x(self):\n    pass")
    assert b"    def m(self):\n        pass\n\n    def x(self):\n        pass\n\n    def n" in (
        edit.new_source
    )
    assert edit.result == {"inserted_at_line": 12, "target_now_at_line": 15, "warnings": []}


def test_pep8_definition_after_a_statement_gets_two_lines_on_both_sides() -> None:
    data = b"import os\nimport sys\n"
    edit = insert_after_structure(data, "m.py", ["import os"], "def f():\n    pass")
    assert edit.new_source == b"import os\n\n\ndef f():\n    pass\n\n\nimport sys\n"


def test_delete_in_the_middle_leaves_one_gap() -> None:
    edit = delete_structure(MODULE, "m.py", ["class K"])
    assert edit.new_source == (b"import os\n\n\ndef a():\n    pass\n\n\ndef z():\n    pass\n")


def test_delete_first_in_block_removes_the_gap_after() -> None:
    edit = delete_structure(MODULE, "m.py", ["class K", "def m"])
    assert b"class K:\n    def n(self):\n        pass\n\n\ndef z" in edit.new_source


def test_delete_last_in_block_keeps_the_gap_to_what_follows() -> None:
    edit = delete_structure(MODULE, "m.py", ["class K", "def n"])
    assert b"class K:\n    def m(self):\n        pass\n\n\ndef z():" in edit.new_source


def test_delete_at_end_of_file_leaves_no_trailing_blank_lines() -> None:
    edit = delete_structure(MODULE, "m.py", ["def z"])
    assert edit.new_source.endswith(b"    def n(self):\n        pass\n")


def test_other_languages_follow_the_spacing_around_the_target() -> None:
    tight = b"function f() {\n  a();\n  b();\n}\n"
    edit = insert_after_structure(tight, "m.js", ["function f", "a();"], "c();")
    assert edit.new_source == b"function f() {\n  a();\n  c();\n  b();\n}\n"
    loose = b"a();\n\nb();\n"
    edit = insert_after_structure(loose, "m.js", ["a();"], "c();")
    assert edit.new_source == b"a();\n\nc();\n\nb();\n"


def test_markdown_sections_keep_one_blank_line() -> None:
    data = b"# A\n\ntext\n\n# B\n\nmore\n"
    edit = insert_before_structure(data, "r.md", ["# B"], "# New\n\nbody")
    assert edit.new_source == b"# A\n\ntext\n\n# New\n\nbody\n\n# B\n\nmore\n"
    edit = delete_structure(data, "r.md", ["# A"])
    assert edit.new_source == b"# B\n\nmore\n"


def test_relative_indentation_is_kept_and_content_is_rebased() -> None:
    content = "        def x(self):\n            if self:\n                return 1"
    edit = insert_after_structure(MODULE, "m.py", ["class K", "def n"], content)
    assert b"\n    def x(self):\n        if self:\n            return 1\n\n\ndef z" in (
        edit.new_source
    )


def test_spaces_become_tabs_in_a_tab_indented_file() -> None:
    data = b"func a() {\n\tif x {\n\t\ty()\n\t}\n}\n"
    content = "func b() {\n    if x {\n        y()\n    }\n}"
    edit = insert_after_structure(data, "m.go", ["func a"], content)
    assert edit.new_source.endswith(b"\n\nfunc b() {\n\tif x {\n\t\ty()\n\t}\n}\n")
    assert edit.result["warnings"] == []


def test_two_space_content_is_converted_to_the_files_four() -> None:
    edit = replace_structure(MODULE, "m.py", ["def a"], "def a():\n  if x:\n    return 1")
    assert b"def a():\n    if x:\n        return 1\n" in edit.new_source


def test_flush_left_multi_line_strings_stay_verbatim() -> None:
    content = 'def m(self):\n    return """\nraw text\n  kept\n"""'
    edit = replace_structure(MODULE, "m.py", ["class K", "def m"], content)
    assert b'    def m(self):\n        return """\nraw text\n  kept\n"""\n' in edit.new_source


def test_inconsistent_indentation_is_reported() -> None:
    edit = replace_structure(MODULE, "m.py", ["def a"], "def a():\n    if x:\n      y()")
    warnings = edit.result["warnings"]
    assert [w["type"] for w in warnings] == ["INDENTATION_INCONSISTENT"]
    assert warnings[0]["details"] == {
        "expected_indent": "8 spaces",
        "actual_indent": "6 spaces",
        "line": 6,
    }


@pytest.mark.parametrize(
    ("data", "content", "expected"),
    [
        (b"def f():\n\tpass\n", "def f():\n    if x:\n      pass", "4 spaces"),
        (b"def f():\n    pass\n", "def f():\n\tif x:\n\t    pass", "1 tab"),
    ],
)
def test_mixed_tabs_and_spaces_are_reported(data: bytes, content: str, expected: str) -> None:
    edit = replace_structure(data, "m.py", ["def f"], content)
    kinds = {w["type"] for w in edit.result["warnings"]}
    assert "INDENTATION_INCONSISTENT" in kinds
    assert any(w["details"].get("actual_indent") == expected for w in edit.result["warnings"])
