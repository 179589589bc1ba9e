"""List punctuation stays with the list: members of object literals and enum constants
keep their commas right and the ``;`` that ends Java's constants stays, whichever member
is deleted, moved or inserted. Real files from tests/data/structure_real (sources in its
README)."""

from __future__ import annotations

from llm_operator.core.engines.structure import (
    delete_structure,
    insert_after_structure,
    insert_before_structure,
    move_structure,
)
from llm_operator.core.engines.structure.source import load_source
from support.paths import DATA

REAL = DATA / "structure_real"
CONTEXT = "javascript/koa-lib-context.js"
PROTO = "const proto = module.exports = {"
CONNECTION = "java/jsoup-jsoup-Connection.java"
METHOD = ["public interface Connection {", "enum Method {"]


def _errors(data: bytes, name: str) -> int:
    return len(load_source(data, name).errors)


def _lines(data: bytes) -> list[str]:
    return data.decode("utf-8").split("\n")


def test_deleting_the_last_java_enum_constant_keeps_the_semicolon() -> None:
    data = (REAL / CONNECTION).read_bytes()
    edited = delete_structure(data, CONNECTION, [*METHOD, "TRACE(false);"]).new_source
    lines = _lines(edited)
    assert "        OPTIONS(false);" in lines
    assert not any("TRACE(false)" in line for line in lines)
    assert _errors(edited, CONNECTION) == _errors(data, CONNECTION) == 0


def test_moving_a_java_enum_constant_after_the_last_one_takes_over_its_semicolon() -> None:
    data = (REAL / CONNECTION).read_bytes()
    edited = move_structure(
        data, CONNECTION, [*METHOD, "GET(false),"], "after", dest_target=[*METHOD, "TRACE(false);"]
    ).new_source
    lines = [line for line in _lines(edited) if line.strip()]
    assert lines[lines.index("        TRACE(false),") + 1] == "        GET(false);"
    assert _errors(edited, CONNECTION) == 0


def test_moving_an_object_literal_member_to_the_end_moves_the_comma_not_the_member() -> None:
    data = (REAL / CONTEXT).read_bytes()
    edited = move_structure(data, CONTEXT, [PROTO, "inspect () {"], "end", dest_target=[PROTO])
    lines = _lines(edited.new_source)
    setter = lines.index("  set cookies (_cookies) {")
    end_of_setter = lines.index("  },", setter)
    assert lines.index("  inspect () {") > end_of_setter
    assert lines[lines.index("  inspect () {") + 3] == "  }"
    assert _errors(edited.new_source, CONTEXT) == 0
    assert not edited.result["warnings"]


def test_deleting_the_last_object_literal_member_drops_the_comma_before_it() -> None:
    data = (REAL / CONTEXT).read_bytes()
    edited = delete_structure(data, CONTEXT, [PROTO, "set cookies (_cookies) {"]).new_source
    lines = _lines(edited)
    getter = lines.index("  get cookies () {")
    assert lines[getter + 7 : getter + 10] == ["    return this[COOKIES]", "  }", "}"]
    assert _errors(edited, CONTEXT) == 0


def test_a_member_inserted_into_an_object_literal_gets_the_comma_its_place_needs() -> None:
    data = (REAL / CONTEXT).read_bytes()
    member = "ping () {\n  return 'pong'\n}\n"
    before = insert_before_structure(data, CONTEXT, [PROTO, "inspect () {"], member)
    assert "  }," in _lines(before.new_source)[before.result["inserted_at_line"] + 1]
    assert _errors(before.new_source, CONTEXT) == 0
    last = [PROTO, "set cookies (_cookies) {"]
    after = insert_after_structure(data, CONTEXT, last, member)
    lines = _lines(after.new_source)
    at = after.result["inserted_at_line"] - 1
    assert lines[at : at + 3] == ["  ping () {", "    return 'pong'", "  }"]
    assert lines[at - 2] == "  },"
    assert _errors(after.new_source, CONTEXT) == 0


def test_a_java_enum_constant_moved_to_the_end_stays_among_the_constants() -> None:
    data = (REAL / CONNECTION).read_bytes()
    edited = move_structure(data, CONNECTION, [*METHOD, "GET(false),"], "end", dest_target=METHOD)
    lines = [line for line in _lines(edited.new_source) if line.strip()]
    at = lines.index("        TRACE(false),")
    following = ["        GET(false);", "        private final boolean hasBody;"]
    assert lines[at + 1 : at + 3] == following
    assert _errors(edited.new_source, CONNECTION) == 0


SPDLOG = "cpp/spdlog-spdlog-async_logger.h"
POLICY = ["namespace spdlog {", "enum class async_overflow_policy {"]


def test_a_comma_goes_before_the_comment_that_ends_a_member_line() -> None:
    data = (REAL / SPDLOG).read_bytes()
    moved = move_structure(data, SPDLOG, [*POLICY, "block,"], "end", dest_target=POLICY)
    lines = _lines(moved.new_source)
    assert any(line.startswith("    discard_new,      // Discard new message") for line in lines)
    assert any(line.startswith("    block           // Block until") for line in lines)
    member = "discard_new      // Discard new message if the queue is full\n"
    removed = delete_structure(data, SPDLOG, [*POLICY, "discard_new"]).new_source
    back = insert_before_structure(removed, SPDLOG, [*POLICY, "block,"], member).new_source
    assert "    discard_new,      // Discard new message if the queue is full" in _lines(back)
    assert "    overrun_oldest  // Discard oldest message in the queue if full when trying to" in (
        _lines(back)
    )
    for edited in (moved.new_source, removed, back):
        assert _errors(edited, SPDLOG) == 0
