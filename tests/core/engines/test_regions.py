from __future__ import annotations

from contextlib import AbstractContextManager

import pytest
from hypothesis import given
from hypothesis import strategies as st

from llm_operator.core.engines.comment_styles import STYLES, CommentStyle, resolve_language
from llm_operator.core.engines.regions import (
    Region,
    check_marker_id,
    delete_region,
    find_region,
    insert_region,
    list_regions,
    marker_line,
    parse_marker,
    read_region,
    regions_json,
    replace_region,
)
from llm_operator.core.engines.textfile import TextFile
from llm_operator.core.errors import OperatorError
from support.paths import DATA as TEST_DATA

DATA = TEST_DATA / "regions"
PY = STYLES["python"]
TS = STYLES["ts"]
HTML = STYLES["html"]
CSS = STYLES["css"]


def sample(name: str) -> str:
    return TextFile.decode((DATA / name).read_bytes(), name).text


def raises(code: str) -> AbstractContextManager[pytest.ExceptionInfo[OperatorError]]:
    return pytest.raises(OperatorError, match=f"^{code}: ")


# --- recognising markers -------------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "# OPERATOR_BEGIN a",
        "    # OPERATOR_BEGIN a",
        "\t#   OPERATOR_BEGIN   a   ",
        "#OPERATOR_BEGIN a",
        "# OPERATOR_BEGIN a\r",  # a line of a mixed-line-break file keeps its \r
    ],
)
def test_line_marker_forms(line: str) -> None:
    assert parse_marker(line, PY) == ("OPERATOR_BEGIN", "a")


@pytest.mark.parametrize(
    "line",
    [
        "<!-- OPERATOR_END nav -->",
        "  <!--OPERATOR_END nav-->  ",
        "<!--   OPERATOR_END   nav   -->",
    ],
)
def test_block_marker_forms(line: str) -> None:
    assert parse_marker(line, HTML) == ("OPERATOR_END", "nav")


@pytest.mark.parametrize(
    ("line", "style"),
    [
        ("# OPERATOR_BEGIN a b", PY),  # prose, not an id
        ("# OPERATOR_BEGIN", PY),  # no id
        ("# OPERATOR_BEGIN a/b", PY),  # not an id character
        ("x = 1  # OPERATOR_BEGIN a", PY),  # not alone on its line
        ("// OPERATOR_BEGIN a", PY),  # another comment syntax
        ("OPERATOR_BEGIN a", PY),  # no comment at all
        ("# OPERATOR_START a", PY),
        ("<!-- OPERATOR_BEGIN a", HTML),  # unclosed
        ("OPERATOR_BEGIN a -->", HTML),
        ("<!-- OPERATOR_BEGIN a --> <p>", HTML),
        ("<!-- OPERATOR_BEGIN a --> <!-- b -->", HTML),
        ("/* OPERATOR_BEGIN a */", HTML),
    ],
)
def test_not_markers(line: str, style: CommentStyle) -> None:
    assert parse_marker(line, style) is None


def test_marker_line_rendering() -> None:
    assert marker_line(PY, "OPERATOR_BEGIN", "x", "  ") == "  # OPERATOR_BEGIN x"
    assert marker_line(CSS, "OPERATOR_END", "x") == "/* OPERATOR_END x */"


@pytest.mark.parametrize("marker_id", ["a", "api-routes", "v1.2:x_Y", "0"])
def test_valid_marker_ids(marker_id: str) -> None:
    assert check_marker_id(marker_id) == marker_id


@pytest.mark.parametrize("marker_id", ["", " ", "two words", "a/b", "é", "a\nb"])
def test_invalid_marker_ids(marker_id: str) -> None:
    with raises("ERR_MISSING_MARKER_ID"):
        check_marker_id(marker_id)


# --- listing and reading golden samples ------------------------------------------------------


def test_list_regions_ts_sample() -> None:
    regions = list_regions(sample("routes.ts"), TS)
    assert regions == [
        Region("api-routes", 5, 8, 6, 7),
        Region("health-body", 11, 12, None, None),
    ]
    assert regions_json(regions) == {
        "regions": [
            {
                "marker_id": "api-routes",
                "begin_line": 5,
                "end_line": 8,
                "content_start_line": 6,
                "content_end_line": 7,
                "content_line_count": 2,
            },
            {
                "marker_id": "health-body",
                "begin_line": 11,
                "end_line": 12,
                "content_start_line": None,
                "content_end_line": None,
                "content_line_count": 0,
            },
        ]
    }


def test_read_region_samples() -> None:
    text = sample("routes.ts")
    assert read_region(text, TS, "api-routes") == (
        'router.get("/health", health);\nrouter.get("/users", listUsers);\n'
    )
    assert read_region(text, TS, "health-body") == ""
    assert read_region(sample("page.html"), HTML, "nav") == (
        '    <nav><a href="/">Home</a></nav>\n'
    )
    assert read_region(sample("theme.css"), CSS, "buttons") == (
        ".button {\n  color: var(--accent);\n}\n"
    )
    assert read_region(sample("no_final_newline.toml"), STYLES["toml"], "settings") == (
        'name = "demo"\n'
    )


def test_find_region() -> None:
    assert find_region(sample("page.html"), HTML, "nav") == Region("nav", 4, 6, 5, 5)


def test_file_without_regions_lists_nothing() -> None:
    assert list_regions("a\nb\n", PY) == []
    assert list_regions("", PY) == []


# --- round trips across comment styles -----------------------------------------------------

ROUND_TRIP_LANGUAGES = [
    "python", "js", "ts", "go", "rust", "sql", "lua", "yaml", "ini", "latex", "vim", "batch",
    "html", "css", "markdown", "xml", "ocaml",
]  # fmt: skip


@pytest.mark.parametrize("language", ROUND_TRIP_LANGUAGES)
def test_insert_replace_delete_round_trip(language: str) -> None:
    style = resolve_language(language)
    original = "first line\n    the anchor line\nlast line\n"
    inserted = insert_region(original, style, "r-1", "anchor", "alpha\n  beta\n")
    assert read_region(inserted.text, style, "r-1") == "alpha\n  beta\n"
    assert inserted.region == Region("r-1", 3, 6, 4, 5)
    assert list_regions(inserted.text, style) == [inserted.region]
    lines = inserted.text.split("\n")
    assert lines[2] == marker_line(style, "OPERATOR_BEGIN", "r-1", "    ")
    assert lines[5] == marker_line(style, "OPERATOR_END", "r-1", "    ")

    replaced = replace_region(inserted.text, style, "r-1", "gamma")
    assert read_region(replaced.text, style, "r-1") == "gamma\n"
    assert replaced.region == Region("r-1", 3, 5, 4, 4)

    deleted = delete_region(replaced.text, style, "r-1")
    assert read_region(deleted.text, style, "r-1") == ""
    assert deleted.region == Region("r-1", 3, 4, None, None)
    begin = marker_line(style, "OPERATOR_BEGIN", "r-1", "    ")
    end = marker_line(style, "OPERATOR_END", "r-1", "    ")
    assert deleted.text == f"first line\n    the anchor line\n{begin}\n{end}\nlast line\n"


def test_replace_in_block_sample_keeps_every_other_line() -> None:
    text = sample("page.html")
    edit = replace_region(text, HTML, "nav", "    <nav>\n      <a href='/a'>A</a>\n    </nav>\n")
    before, after = text.split("\n"), edit.text.split("\n")
    assert after[:4] == before[:4]
    assert after[4:7] == ["    <nav>", "      <a href='/a'>A</a>", "    </nav>"]
    assert after[7:] == before[5:]
    assert edit.region == Region("nav", 4, 8, 5, 7)


# --- insert details ------------------------------------------------------------------------


def test_insert_before_uses_the_anchor_lines_indentation() -> None:
    text = "def f():\n\tif x:\n\t    return 1\n"
    edit = insert_region(text, PY, "ret", "return 1", "log()\n", position="before")
    assert edit.text == (
        "def f():\n\tif x:\n\t    # OPERATOR_BEGIN ret\nlog()\n\t    # OPERATOR_END ret\n"
        "\t    return 1\n"
    )
    assert edit.region == Region("ret", 3, 5, 4, 4)


def test_occurrence_picks_the_nth_matching_line() -> None:
    text = "x = 1  # x\ny = 2\nx = 3\nx = 4\n"
    edit = insert_region(text, PY, "r", "x =", "z = 0", occurrence=3)
    assert (
        edit.text
        == "x = 1  # x\ny = 2\nx = 3\nx = 4\n# OPERATOR_BEGIN r\nz = 0\n# OPERATOR_END r\n"
    )


def test_a_line_holding_the_anchor_twice_counts_once() -> None:
    text = "aa aa\nbb\naa\n"
    edit = insert_region(text, PY, "r", "aa", "", occurrence=2, position="before")
    assert edit.text == "aa aa\nbb\n# OPERATOR_BEGIN r\n# OPERATOR_END r\naa\n"


def test_empty_content_makes_an_empty_region() -> None:
    edit = insert_region("a\n", PY, "r", "a", "")
    assert edit.text == "a\n# OPERATOR_BEGIN r\n# OPERATOR_END r\n"
    assert edit.region.content_start is None
    assert read_region(edit.text, PY, "r") == ""


def test_content_line_breaks_are_normalised() -> None:
    edit = insert_region("a\n", PY, "r", "a", "one\r\ntwo\rthree")
    assert read_region(edit.text, PY, "r") == "one\ntwo\nthree\n"


def test_blank_lines_in_content_are_kept() -> None:
    edit = insert_region("a\n", PY, "r", "a", "\n\nx\n\n")
    assert read_region(edit.text, PY, "r") == "\n\nx\n\n"
    assert edit.region.content_line_count == 4


def test_insert_after_the_last_line_without_final_newline() -> None:
    edit = insert_region("a\nb", PY, "r", "b", "c")
    assert edit.text == "a\nb\n# OPERATOR_BEGIN r\nc\n# OPERATOR_END r"
    assert read_region(edit.text, PY, "r") == "c\n"


def test_insert_before_the_first_line_without_final_newline() -> None:
    edit = insert_region("only", PY, "r", "only", "c", position="before")
    assert edit.text == "# OPERATOR_BEGIN r\nc\n# OPERATOR_END r\nonly"


def test_final_newline_is_kept() -> None:
    edit = insert_region("a\nb\n", PY, "r", "b", "c")
    assert edit.text == "a\nb\n# OPERATOR_BEGIN r\nc\n# OPERATOR_END r\n"


def test_edits_at_the_end_of_a_file_without_final_newline() -> None:
    text = sample("no_final_newline.toml")
    toml = STYLES["toml"]
    replaced = replace_region(text, toml, "settings", 'name = "x"\nlevel = 2\n')
    assert replaced.text == (
        'key = 1\n# OPERATOR_BEGIN settings\nname = "x"\nlevel = 2\n# OPERATOR_END settings'
    )
    deleted = delete_region(replaced.text, toml, "settings")
    assert deleted.text == "key = 1\n# OPERATOR_BEGIN settings\n# OPERATOR_END settings"


def test_insert_next_to_regions_but_outside_them() -> None:
    text = sample("theme.css")
    after_end = insert_region(text, CSS, "links", "OPERATOR_END buttons", "a { }")
    assert [r.marker_id for r in list_regions(after_end.text, CSS)] == ["buttons", "links"]
    before_begin = insert_region(text, CSS, "vars", "OPERATOR_BEGIN buttons", "", "before")
    assert [r.marker_id for r in list_regions(before_begin.text, CSS)] == ["vars", "buttons"]


def test_summaries_are_single_lines() -> None:
    text = "a\n  b\n"
    inserted = insert_region(text, PY, "r", "b", "x\ny\n")
    assert inserted.summary == "Inserted region r at lines 3-6 (2 lines of content) after line 2"
    replaced = replace_region(inserted.text, PY, "r", "z\n")
    assert replaced.summary == ("Replaced region r (now lines 3-5, 1 line of content; was 2 lines)")
    deleted = delete_region(replaced.text, PY, "r")
    assert deleted.summary == (
        "Deleted the content of region r (1 line removed; markers kept at lines 3-4)"
    )
    for edit in (inserted, replaced, deleted):
        assert "\n" not in edit.summary


# --- bytes: BOM and CRLF survive ---------------------------------------------------------


def test_crlf_bom_file_keeps_its_bytes() -> None:
    data = b"\xef\xbb\xbfa = 1\r\n    b = 2\r\nc = 3\r\n"
    file = TextFile.decode(data, "x.py")
    edit = insert_region(file.text, PY, "r", "b = 2", "x\ny\n")
    assert file.encode(edit.text) == (
        b"\xef\xbb\xbfa = 1\r\n    b = 2\r\n    # OPERATOR_BEGIN r\r\nx\r\ny\r\n"
        b"    # OPERATOR_END r\r\nc = 3\r\n"
    )
    file2 = TextFile.decode(file.encode(edit.text), "x.py")
    deleted = delete_region(file2.text, PY, "r")
    assert file2.encode(deleted.text) == (
        b"\xef\xbb\xbfa = 1\r\n    b = 2\r\n    # OPERATOR_BEGIN r\r\n"
        b"    # OPERATOR_END r\r\nc = 3\r\n"
    )


def test_crlf_file_with_existing_region() -> None:
    data = b"<p>\r\n<!-- OPERATOR_BEGIN nav -->\r\nold\r\n<!-- OPERATOR_END nav -->\r\n</p>"
    file = TextFile.decode(data, "x.html")
    assert read_region(file.text, HTML, "nav") == "old\n"
    edit = replace_region(file.text, HTML, "nav", "new 1\nnew 2")
    assert file.encode(edit.text) == (
        b"<p>\r\n<!-- OPERATOR_BEGIN nav -->\r\nnew 1\r\nnew 2\r\n<!-- OPERATOR_END nav -->\r\n</p>"
    )


def test_mixed_line_breaks_keep_their_carriage_returns() -> None:
    data = b"a\r\n# OPERATOR_BEGIN r\nold\r\n# OPERATOR_END r\r\nz\n"
    file = TextFile.decode(data, "x.py")
    assert file.mixed_newlines
    edit = replace_region(file.text, PY, "r", "new")
    # Untouched lines keep their own break; the new line takes the file's most common (CRLF).
    assert file.encode(edit.text) == b"a\r\n# OPERATOR_BEGIN r\nnew\r\n# OPERATOR_END r\r\nz\n"


# --- errors --------------------------------------------------------------------------------


@pytest.mark.parametrize("marker_id", ["", "two words"])
def test_every_action_checks_the_marker_id(marker_id: str) -> None:
    text = sample("routes.ts")
    for call in (
        lambda: read_region(text, TS, marker_id),
        lambda: replace_region(text, TS, marker_id, "x"),
        lambda: delete_region(text, TS, marker_id),
        lambda: insert_region(text, TS, marker_id, "router", "x"),
        lambda: find_region(text, TS, marker_id),
    ):
        with raises("ERR_MISSING_MARKER_ID"):
            call()


def test_not_found_lists_the_ids_that_exist() -> None:
    with raises("ERR_REGION_MARKER_NOT_FOUND") as excinfo:
        read_region(sample("routes.ts"), TS, "api")
    error = excinfo.value
    assert error.details["regions"] == ["api-routes", "health-body"]
    assert "api-routes, health-body" in error.message
    assert "// OPERATOR_BEGIN api" in error.message
    # Line 14 only mentions the marker word: it is pointed out, not taken for a marker.
    assert error.details["near_miss_lines"] == [14]


def test_not_found_in_the_wrong_comment_style_hints_at_overrides() -> None:
    text = "<template>\n</template>\n<script>\n// OPERATOR_BEGIN logic\n// OPERATOR_END logic\n"
    with raises("ERR_REGION_MARKER_NOT_FOUND") as excinfo:
        delete_region(text, STYLES["vue"], "logic")
    message = excinfo.value.message
    assert "no region markers in comment style '<!-- ... -->'" in message
    assert "Lines 4, 5 mention OPERATOR_BEGIN/OPERATOR_END" in message
    assert "comment_line_prefix" in message
    assert read_region(text, CommentStyle("custom", line_prefix="//"), "logic") == ""


def test_duplicate_begin_is_not_unique() -> None:
    text = "# OPERATOR_BEGIN a\nx\n# OPERATOR_BEGIN a\n# OPERATOR_END a\n"
    with raises("ERR_REGION_MARKER_NOT_UNIQUE") as excinfo:
        read_region(text, PY, "a")
    assert "OPERATOR_BEGIN a appears on lines 1, 3" in excinfo.value.message
    assert excinfo.value.details["begin_lines"] == [1, 3]


def test_duplicate_pair_is_not_unique() -> None:
    text = "# OPERATOR_BEGIN a\n# OPERATOR_END a\n# OPERATOR_BEGIN a\n# OPERATOR_END a\n"
    with raises("ERR_REGION_MARKER_NOT_UNIQUE") as excinfo:
        replace_region(text, PY, "a", "x")
    assert "OPERATOR_END a appears on lines 2, 4" in excinfo.value.message


def test_end_before_begin_is_an_order_error() -> None:
    text = "# OPERATOR_END a\nx\n# OPERATOR_BEGIN a\n"
    with raises("ERR_REGION_MARKER_ORDER") as excinfo:
        read_region(text, PY, "a")
    assert "line 1 comes before OPERATOR_BEGIN a on line 3" in excinfo.value.message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("x\n# OPERATOR_BEGIN a\ny\n", "OPERATOR_BEGIN a on line 2 has no matching OPERATOR_END"),
        ("# OPERATOR_END a\n", "OPERATOR_END a on line 1 has no matching OPERATOR_BEGIN"),
    ],
)
def test_unpaired_marker_is_a_mismatch(text: str, expected: str) -> None:
    with raises("ERR_REGION_MARKER_MISMATCH") as excinfo:
        read_region(text, PY, "a")
    assert expected in excinfo.value.message
    assert "must be fixed first" not in excinfo.value.message


def test_nested_regions_are_a_mismatch_for_every_action() -> None:
    text = sample("nested.py")
    for call in (
        lambda: list_regions(text, PY),
        lambda: read_region(text, PY, "outer"),
        lambda: replace_region(text, PY, "inner", "x"),
        lambda: insert_region(text, PY, "new", "import os", "x"),
    ):
        with raises("ERR_REGION_MARKER_MISMATCH") as excinfo:
            call()
        assert (
            "region 'inner' (lines 5-7) is nested inside region 'outer' (lines 3-8)"
            in excinfo.value.message
        )


def test_overlapping_regions_are_a_mismatch() -> None:
    text = "# OPERATOR_BEGIN a\n# OPERATOR_BEGIN b\n# OPERATOR_END a\n# OPERATOR_END b\n"
    with raises("ERR_REGION_MARKER_MISMATCH") as excinfo:
        list_regions(text, PY)
    assert "regions 'a' (lines 1-3) and 'b' (lines 2-4) overlap" in excinfo.value.message


def test_a_broken_region_elsewhere_blocks_edits() -> None:
    text = "# OPERATOR_BEGIN good\n# OPERATOR_END good\n# OPERATOR_BEGIN bad\n"
    with raises("ERR_REGION_MARKER_MISMATCH") as excinfo:
        replace_region(text, PY, "good", "x")
    assert "must be fixed first: OPERATOR_BEGIN bad on line 3" in excinfo.value.message
    dup = "# OPERATOR_BEGIN good\n# OPERATOR_END good\n# OPERATOR_END x\n# OPERATOR_END x\n"
    with raises("ERR_REGION_MARKER_NOT_UNIQUE"):
        read_region(dup, PY, "good")
    reversed_pair = (
        "# OPERATOR_END x\n# OPERATOR_BEGIN x\n# OPERATOR_BEGIN good\n# OPERATOR_END good\n"
    )
    with raises("ERR_REGION_MARKER_ORDER"):
        list_regions(reversed_pair, PY)


def test_the_named_region_is_reported_before_others() -> None:
    text = "# OPERATOR_BEGIN other\n# OPERATOR_END t\n# OPERATOR_BEGIN t\n"
    with raises("ERR_REGION_MARKER_ORDER"):
        read_region(text, PY, "t")
    with raises("ERR_REGION_MARKER_NOT_FOUND"):
        read_region(text, PY, "missing")


def test_insert_with_an_existing_id() -> None:
    with raises("ERR_REGION_MARKER_ALREADY_EXISTS") as excinfo:
        insert_region(sample("routes.ts"), TS, "api-routes", "Router", "x")
    assert "(lines 5-8)" in excinfo.value.message
    assert "fs.replaceRegion" in excinfo.value.message


def test_insert_inside_a_region_is_refused() -> None:
    text = sample("theme.css")
    with raises("ERR_REGION_MARKER_MISMATCH") as excinfo:
        insert_region(text, CSS, "inner", "color:", "x")
    assert "inside region 'buttons' (lines 5-9)" in excinfo.value.message
    with raises("ERR_REGION_MARKER_MISMATCH"):
        insert_region(text, CSS, "inner", "OPERATOR_BEGIN buttons", "x", position="after")
    with raises("ERR_REGION_MARKER_MISMATCH"):
        insert_region(text, CSS, "inner", "OPERATOR_END buttons", "x", position="before")


def test_content_holding_a_marker_is_refused() -> None:
    with raises("ERR_REGION_MARKER_MISMATCH") as excinfo:
        insert_region("a\n", PY, "r", "a", "x\n  # OPERATOR_END r\n")
    assert "content line 2 is a region marker line" in excinfo.value.message
    text = "# OPERATOR_BEGIN r\n# OPERATOR_END r\n"
    with raises("ERR_REGION_MARKER_MISMATCH"):
        replace_region(text, PY, "r", "# OPERATOR_BEGIN s\n# OPERATOR_END s\n")
    # The same words in another comment syntax are ordinary content.
    edit = replace_region(text, PY, "r", "// OPERATOR_BEGIN s\n")
    assert read_region(edit.text, PY, "r") == "// OPERATOR_BEGIN s\n"


@pytest.mark.parametrize("anchor", ["", "   "])
def test_missing_anchor(anchor: str) -> None:
    with raises("ERR_MISSING_ANCHOR"):
        insert_region("a\n", PY, "r", anchor, "x")


def test_anchor_not_found_shows_the_nearest_lines() -> None:
    text = "import os\n\ndef load_config(path):\n    return path\n\ndef save(path):\n"
    with raises("ERR_ANCHOR_NOT_FOUND") as excinfo:
        insert_region(text, PY, "r", "def load_conf(path)", "x")
    error = excinfo.value
    assert error.details["nearest"][0] == {"line": 3, "text": "def load_config(path):"}
    assert "line 3: 'def load_config(path):'" in error.message


def test_anchor_is_case_sensitive_but_the_hint_is_not() -> None:
    with raises("ERR_ANCHOR_NOT_FOUND") as excinfo:
        insert_region("x\nClass Foo\n", PY, "r", "class foo", "x")
    assert excinfo.value.details["nearest"][0]["line"] == 2


def test_anchor_with_a_line_break_is_not_found() -> None:
    with raises("ERR_ANCHOR_NOT_FOUND") as excinfo:
        insert_region("a\nb\n", PY, "r", "a\nb", "x")
    assert "line break" in excinfo.value.message


def test_anchor_in_an_empty_file_is_not_found() -> None:
    with raises("ERR_ANCHOR_NOT_FOUND") as excinfo:
        insert_region("", PY, "r", "a", "x")
    assert "no line resembles it" in excinfo.value.message


@pytest.mark.parametrize("occurrence", [0, -1])
def test_occurrence_below_one(occurrence: int) -> None:
    with raises("ERR_INVALID_ANCHOR_OCCURRENCE"):
        insert_region("a\n", PY, "r", "a", "x", occurrence=occurrence)


def test_occurrence_beyond_the_matches_says_how_many_match() -> None:
    with raises("ERR_INVALID_ANCHOR_OCCURRENCE") as excinfo:
        insert_region("a\nb\na\n", PY, "r", "a", "x", occurrence=3)
    assert "matches 2 lines (lines 1, 3)" in excinfo.value.message
    assert excinfo.value.details["matching_lines"] == [1, 3]


@pytest.mark.parametrize("position", ["middle", "After", ""])
def test_invalid_insert_position(position: str) -> None:
    with raises("ERR_INVALID_INSERT_POSITION"):
        insert_region("a\n", PY, "r", "a", "x", position=position)


def test_argument_errors_come_before_file_errors() -> None:
    broken = sample("nested.py")
    with raises("ERR_INVALID_INSERT_POSITION"):
        insert_region(broken, PY, "r", "os", "x", position="inside")
    with raises("ERR_MISSING_ANCHOR"):
        insert_region(broken, PY, "r", "", "x")


# --- property ------------------------------------------------------------------------------

_CONTENT = st.text(
    alphabet=st.characters(
        codec="utf-8", categories=("L", "N", "P", "S", "Zs"), include_characters="\n\t"
    ),
    max_size=300,
).filter(lambda s: "OPERATOR_" not in s)


@given(content=_CONTENT, style_key=st.sampled_from(["python", "html", "css", "sql", "batch"]))
def test_insert_then_read_returns_the_content(content: str, style_key: str) -> None:
    style = STYLES[style_key]
    original = "alpha\n  beta\ngamma"
    edit = insert_region(original, style, "p", "beta", content)
    expected = content if content == "" or content.endswith("\n") else content + "\n"
    assert read_region(edit.text, style, "p") == expected
    # Removing the new block gives back the original file exactly.
    lines = edit.text.split("\n")
    kept = lines[: edit.region.begin_line - 1] + lines[edit.region.end_line :]
    assert "\n".join(kept) == original
