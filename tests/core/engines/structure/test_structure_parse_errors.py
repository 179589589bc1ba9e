"""Parse errors refuse only the lines they lie in; .h files and C/C++ macros."""

from __future__ import annotations

import pytest

from llm_operator.core.engines.structure import (
    move_structure,
    read_structure,
    replace_structure,
)
from llm_operator.core.engines.structure.source import load_source
from llm_operator.core.errors import OperatorError

HEADER = b"""#pragma once

namespace demo {

class Box {
 public:
  int size() const { return size_; }

 private:
  int size_;
};

}  // namespace demo
"""


def test_a_header_that_needs_cpp_is_parsed_as_cpp() -> None:
    source = load_source(HEADER, "box.h")
    assert source.spec.name == "cpp"
    assert source.errors == ()
    read = read_structure(HEADER, "box.h", ["namespace demo", "class Box", "int size()"])
    assert read["matches"][0]["line_range_inclusive"] == [7, 7]
    assert read["warnings"] == []


def test_a_plain_c_header_stays_c() -> None:
    assert load_source(b"int add(int a, int b);\n", "add.h").spec.name == "c"


FMT_STYLE = b"""#include "base.h"

FMT_BEGIN_NAMESPACE
namespace detail {

template <typename T> struct holder {
  T value;
};

FMT_CONSTEXPR inline int twice(int x) { return 2 * x; }

}  // namespace detail
FMT_END_NAMESPACE
"""


def test_unknown_macros_are_masked_so_the_namespace_parses() -> None:
    source = load_source(FMT_STYLE, "args.h")
    assert source.errors == ()
    target = ["namespace detail", "template <typename T> struct holder"]
    text = read_structure(FMT_STYLE, "args.h", target)["matches"][0]["text"]
    assert replace_structure(FMT_STYLE, "args.h", target, text).new_source == FMT_STYLE


BROKEN_ELSEWHERE = b"""int good(void) {
  return 1;
}

int bad(void) {
  return (1;
}

int last(void) {
  return 3;
}
"""


def test_errors_elsewhere_are_a_note_and_inside_a_refusal() -> None:
    edit = replace_structure(
        BROKEN_ELSEWHERE, "m.c", ["int good(void)"], "int good(void) {\n  return 7;\n}"
    )
    assert b"return 7;" in edit.new_source
    assert [w["type"] for w in edit.result["warnings"]] == ["PARSE_ERRORS_ELSEWHERE"]
    with pytest.raises(OperatorError) as caught:
        replace_structure(BROKEN_ELSEWHERE, "m.c", ["int bad(void)"], "int bad(void) {\n}")
    assert caught.value.code == "ERR_PARSER_FAILED"
    assert caught.value.details["line_range_inclusive"] == [5, 7]
    assert caught.value.details["parse_errors"][0]["line"] == 6


def test_a_move_checks_the_destination_neighbour_not_the_whole_file() -> None:
    moved = move_structure(BROKEN_ELSEWHERE, "m.c", ["int good(void)"], "end")
    assert moved.new_source.endswith(b"int good(void) {\n  return 1;\n}\n")
    with pytest.raises(OperatorError) as caught:
        move_structure(
            BROKEN_ELSEWHERE, "m.c", ["int last(void)"], "before", dest_target=["int bad"]
        )
    assert caught.value.code == "ERR_PARSER_FAILED"
