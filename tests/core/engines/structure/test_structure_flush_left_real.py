"""Code lines written at column 0 inside an indented structure stay at column 0 (real
files from tests/data/structure_real, sources in its README): the ``</script>`` of
jsoup's pretty-printer test page, the ``<<-EOF`` heredocs of Rack's multipart generator."""

from __future__ import annotations

from llm_operator.core.engines.structure import move_structure, read_structure, replace_structure
from llm_operator.core.engines.structure.source import load_source
from support.paths import DATA

REAL = DATA / "structure_real"


def test_a_script_closed_at_column_0_is_replaced_by_its_own_text_byte_for_byte() -> None:
    name = "html/jsoup-printertests-pretty-1.html"
    data = (REAL / name).read_bytes()
    for target in (['<html lang="en">', "<body>"], ['<html lang="en">', "<body>", "<script>"]):
        text = read_structure(data, name, target)["matches"][0]["text"]
        assert "\n</script>" in text
        assert replace_structure(data, name, target, text).new_source == data


def test_a_flush_left_heredoc_opener_stays_at_column_0_when_its_method_moves() -> None:
    name = "ruby/rack-multipart-generator.rb"
    data = (REAL / name).read_bytes()
    target = ["module Rack", "module Multipart", "class Generator", "def content_for_tempfile("]
    moved = move_structure(data, name, target, "end", dest_target=[])
    after = moved.new_source.decode("utf-8")
    assert not load_source(moved.new_source, name).errors
    tail = after.split("\nend\n", 1)[1]
    assert tail.startswith("\ndef content_for_tempfile(io, file, name)\n  length = ::File.stat")
    assert "\n<<-EOF\n--#{MULTIPART_BOUNDARY}\\r\n" in tail
    assert tail.endswith("#{io.read}\\r\nEOF\nend\n")


def test_a_line_indented_its_own_way_keeps_it_when_its_method_moves_in_its_file() -> None:
    # jsoup's Elements.java is indented with spaces; one constructor's body line is
    # four spaces then a tab. Moved to the end of its class, the line keeps both.
    name = "java/jsoup-select-Elements.java"
    data = (REAL / name).read_bytes()
    parent = ["public class Elements extends Nodes<Element> {"]
    target = [*parent, "public Elements(Element... elements) {"]
    moved = move_structure(data, name, target, "end", dest_target=parent)
    after = moved.new_source.decode("utf-8")
    assert after.endswith(
        "    public Elements(Element... elements) {\n"
        "    \tsuper(Arrays.asList(elements));\n    }\n}\n"
    ), after[-200:]
    assert not [w for w in moved.result["warnings"] if w["type"] == "INDENTATION_INCONSISTENT"]


def test_a_tab_indented_method_in_a_file_of_spaces_keeps_its_tabs_at_its_own_depth() -> None:
    # SwiftyJSON's example view controller: one method indented with tabs among methods
    # indented with spaces. Moved to the end of its class (the same depth), every line
    # keeps its own indentation.
    name = "swift/SwiftyJSON-Example-ViewController.swift"
    data = (REAL / name).read_bytes()
    parent = ["class ViewController: UITableViewController {"]
    moved = move_structure(
        data, name, [*parent, "override func viewDidLoad() {"], "end", dest_target=parent
    )
    after = moved.new_source.decode("utf-8")
    assert not load_source(moved.new_source, name).errors
    assert after.endswith(
        '\toverride func viewDidLoad() {\n\t\ttitle = "SwiftyJSON(\\(json.type))"\n\t}\n}\n'
    ), after[-200:]
