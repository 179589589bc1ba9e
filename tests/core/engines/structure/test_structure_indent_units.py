"""Indent units measured from structure, one shift per edit, strings left alone."""

from __future__ import annotations

from llm_operator.core.engines.structure import (
    delete_structure,
    insert_after_structure,
    move_structure,
    read_structure,
    replace_structure,
)

JAVA = b"""package demo;

/**
 * A class whose doc comment has one-space continuation lines.
 */
public class A {
  /**
   * Runs.
   */
  @Override
  public void run() {
    count++;
  }

  public int get() {
    return count;
  }
}
"""


def test_doc_comment_continuations_do_not_count_as_a_unit() -> None:
    text = read_structure(JAVA, "A.java", ["public class A"])["matches"][0]["text"]
    assert replace_structure(JAVA, "A.java", ["public class A"], text).new_source == JAVA
    method = "public void stop() {\n  count = 0;\n}"
    edit = insert_after_structure(JAVA, "A.java", ["public class A", "public int get()"], method)
    assert b"\n  public void stop() {\n    count = 0;\n  }\n}\n" in edit.new_source
    assert edit.result["warnings"] == []


GO = b"""package main

const usage = `
    indented with spaces inside a raw string
        deeper
`

func main() {
\tif true {
\t\tprintln(usage)
\t}
}
"""


def test_tab_indented_go_with_space_indented_raw_strings_stays_tabs() -> None:
    content = "func helper() {\n    if true {\n        println()\n    }\n}"
    edit = insert_after_structure(GO, "m.go", ["func main()"], content)
    assert edit.new_source.endswith(b"func helper() {\n\tif true {\n\t\tprintln()\n\t}\n}\n")
    text = read_structure(GO, "m.go", ["const usage"])["matches"][0]["text"]
    assert replace_structure(GO, "m.go", ["const usage"], text).new_source == GO


CPP = b"""namespace leveldb {

class Status {
 public:
  Status() : state_(nullptr) {}

  bool ok() const { return (state_ == nullptr); }

 private:
  const char* state_;
};

}  // namespace leveldb
"""


def test_google_style_access_labels_are_not_a_unit() -> None:
    target = ["namespace leveldb", "class Status"]
    text = read_structure(CPP, "status.h", target)["matches"][0]["text"]
    assert replace_structure(CPP, "status.h", target, text).new_source == CPP
    edit = insert_after_structure(
        CPP, "status.h", [*target, "bool ok() const"], "bool bad() const {\n  return !ok();\n}"
    )
    assert b"\n  bool bad() const {\n    return !ok();\n  }\n" in edit.new_source
    assert edit.result["warnings"] == []


MARKDOWN = b"""# Guide

## Install

Run this:

    pip install thing
    thing --help

## Use

Text.
"""


def test_markdown_four_space_code_blocks_stay_code() -> None:
    moved = move_structure(
        MARKDOWN, "g.md", ["# Guide", "## Install"], "end", dest_target=["# Guide"]
    )
    assert b"\n    pip install thing\n    thing --help\n" in moved.new_source
    text = read_structure(MARKDOWN, "g.md", ["# Guide", "## Install"])["matches"][0]["text"]
    assert replace_structure(MARKDOWN, "g.md", ["# Guide", "## Install"], text).new_source == (
        MARKDOWN
    )


PY = b'''class A:
    def m(self):
        """Doc.

        More.
        """
        return 1

    def n(self):
        return 2
'''


def test_moving_a_method_never_changes_its_docstring_and_says_so() -> None:
    moved = move_structure(PY, "m.py", ["class A", "def m"], "end")
    text = moved.new_source.decode()
    assert '\ndef m(self):\n    """Doc.\n\n        More.\n        """\n    return 1\n' in text
    kinds = [w["type"] for w in moved.result["warnings"]]
    assert "STRING_NOT_REINDENTED" in kinds


def test_moving_within_the_same_depth_needs_no_warning() -> None:
    moved = move_structure(PY, "m.py", ["class A", "def m"], "end", dest_target=["class A"])
    assert moved.result["warnings"] == []
    assert moved.new_source.decode().endswith('        """\n        return 1\n')


def test_a_trailing_block_comment_ends_where_it_ends() -> None:
    data = (
        b"int a(void) {\n  return 1;\n} /* the end\n   of a */\n\nint b(void) {\n  return 2;\n}\n"
    )
    read = read_structure(data, "m.c", ["int a(void)"])
    assert read["matches"][0]["line_range_inclusive"] == [1, 4]
    edit = delete_structure(data, "m.c", ["int a(void)"])
    assert edit.new_source == b"int b(void) {\n  return 2;\n}\n"
    assert edit.result["warnings"] == []
