"""Re-indentation on real files (tests/data/structure_real, sources in its README):
literals whose spacing is no part of their value (Ruby's ``%w[...]``, a regex with the x
flag) move with the code; comments written at column 0 inside a body stay at column 0."""

from __future__ import annotations

import textwrap

from llm_operator.core.engines.structure import move_structure, read_structure, replace_structure
from llm_operator.core.engines.structure.source import load_source
from support.paths import DATA

REAL = DATA / "structure_real"


def _moved_out(name: str, target: list[str]) -> tuple[str, str, dict[str, object]]:
    """The structure's text before, the file after moving it to the file's end, the result."""
    data = (REAL / name).read_bytes()
    before = read_structure(data, name, target)["matches"][0]["text"]
    moved = move_structure(data, name, target, "end", dest_target=[])
    assert len(load_source(moved.new_source, name).errors) == 0
    return before, moved.new_source.decode("utf-8"), moved.result


def test_a_ruby_word_array_moves_with_the_code_around_it() -> None:
    before, after, result = _moved_out(
        "ruby/rake-rake-file_list.rb", ["module Rake", "class FileList", "SPECIAL_RETURN = %w["]
    )
    assert textwrap.dedent(before) in after
    assert "\nSPECIAL_RETURN = %w[\n  map collect sort" in after
    assert not result["warnings"]


def test_a_ruby_free_spacing_regex_moves_with_the_code_around_it() -> None:
    target = ["class TestRakeRakeTestLoader", "def test_load_error_from_missing_test_file"]
    before, after, result = _moved_out("ruby/rake-test-test_rake_rake_test_loader.rb", target)
    assert textwrap.dedent(before) in after
    assert "\n  expected =\n    /\\A\\n\n     File\\ does\\ not" in after
    assert not result["warnings"]


def test_kotlin_code_commented_out_at_column_0_stays_there_while_the_body_moves() -> None:
    name = "kotlin/koin-benchmark-TestPerfRunner.kt"
    _, after, _ = _moved_out(name, ["class TestPerfRunner", "fun main() = runBlocking {"])
    tail = after.split("@Test\n", 1)[1].split("\n")
    assert tail[:8] == [
        "fun main() = runBlocking {",
        "//        val limits = PerfLimit(10.0, 0.1)",
        '//        println("Perf target: $limits")',
        "",
        "    val results = PerfRunner.runAll(useDebugLogs = false, module = ::perfModule400)",
        '    println("Perfs results: $results")',
        "//        results.applyLimits(limits)",
        "}",
    ]


def test_a_swift_method_mixing_tabs_and_spaces_moves_each_line_in_its_own_style() -> None:
    name = "swift/SwiftyJSON-SwiftJSONTests-PrintableTests.swift"
    target = ["class PrintableTests: XCTestCase {", "func testArrayWithOptionals() {"]
    before, after, result = _moved_out(name, target)
    moved = after.split("\n")
    first = moved.index("func testArrayWithOptionals() {")
    for old, new in zip(before.split("\n"), moved[first:], strict=False):
        if old.startswith("\t"):
            assert new == old[1:], (old, new)  # one tab less
        else:
            assert new == old[4:], (old, new)  # one level of four spaces less
    assert "\tguard var description" in after
    assert not result["warnings"]


def test_a_php_method_with_a_heredoc_at_column_0_is_replaced_by_its_own_text() -> None:
    name = "php/monolog-Handler-BrowserConsoleHandlerTest.php"
    data = (REAL / name).read_bytes()
    target = ["class BrowserConsoleHandlerTest", "public function testStyling()"]
    text = read_structure(data, name, target)["matches"][0]["text"]
    assert "\nEOF;\n" in text
    edited = replace_structure(data, name, target, text)
    assert edited.new_source == data
    assert not edited.result["warnings"]


def test_a_java_constructor_with_a_string_of_spaces_moves_as_code() -> None:
    name = "java/javapoet-javapoet-CodeWriter.java"
    data = (REAL / name).read_bytes()
    target = ["final class CodeWriter {", "CodeWriter(Appendable out) {"]
    dest = ["final class CodeWriter {", "private static final class Multiset<T> {"]
    moved = move_structure(data, name, target, "end", dest_target=dest)
    text = moved.new_source.decode("utf-8")
    assert (
        "\n    CodeWriter(Appendable out) {\n"
        '      this(out, "  ", Collections.emptySet(), Collections.emptySet());\n'
        "    }\n"
    ) in text
    assert not moved.result["warnings"]
    assert len(load_source(moved.new_source, name).errors) == 0
