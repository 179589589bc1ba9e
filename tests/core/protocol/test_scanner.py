"""The scanner: golden sample replies, every scanner error code, and properties.

Golden files live in tests/data/scanner as pairs ``<name>.txt`` (a pasted reply, bytes as
an LLM chat would give them) and ``<name>.expected.json`` (the scan items). To rewrite
the expected files deliberately after a reviewed change of behaviour, run

    REGENERATE_SCANNER_GOLDENS=1 pytest tests/core/test_scanner.py

and review the diff before committing.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from llm_operator.core.plan.run import APPROVE
from llm_operator.core.plan.session import Session
from llm_operator.core.protocol.encoder import encode_results
from llm_operator.core.protocol.lines import SPACE_LIKE
from llm_operator.core.protocol.scanner import (
    MAX_BLOCK_CHARS,
    MAX_BLOCK_LINES,
    SCAN_LIMIT,
    BlockProblem,
    CommandBlock,
    Scan,
    scan,
)
from llm_operator.core.store.workspace import Workspace
from support.examples import examples
from support.paths import DATA

GOLDEN_DIR = DATA / "scanner"
REGENERATE = os.environ.get("REGENERATE_SCANNER_GOLDENS") == "1"
GOLDEN_NAMES = sorted(path.name.removesuffix(".txt") for path in GOLDEN_DIR.glob("*.txt"))


def describe(scanned: Scan) -> dict[str, Any]:
    items: list[dict[str, Any]] = []
    for item in scanned.items:
        if isinstance(item, CommandBlock):
            items.append(
                {
                    "code": None,
                    "id": item.get("id"),
                    "line": item.line,
                    "fields": [f"{key}: {value}" for key, value in item.fields],
                }
            )
        else:
            items.append({"code": item.code, "id": item.id, "line": item.line, "fields": None})
    return {
        "items": items,
        "result_blocks": scanned.result_blocks,
        "truncated": scanned.truncated,
    }


def read_reply(path: Path) -> str:
    # Bytes in, no newline translation: CR and CRLF files must reach the scanner as they are.
    return path.read_bytes().decode("utf-8")


# -- golden files -------------------------------------------------------------------


def test_golden_set_is_complete() -> None:
    wanted = {
        "crlf",
        "cr_only",
        "whitespace_markers",
        "markdown_fences",
        "several_blocks",
        "result_blocks",
        "long_message",
        "prose_markers",
        "content_newlines",
    }
    assert wanted <= set(GOLDEN_NAMES)
    for name in GOLDEN_NAMES:
        assert (GOLDEN_DIR / f"{name}.expected.json").is_file() or REGENERATE, name


@pytest.mark.parametrize("name", GOLDEN_NAMES)
def test_golden(name: str) -> None:
    text = read_reply(GOLDEN_DIR / f"{name}.txt")
    got = describe(scan(text))
    expected_path = GOLDEN_DIR / f"{name}.expected.json"
    if REGENERATE:
        expected_path.write_text(json.dumps(got, indent=2) + "\n", encoding="utf-8")
        pytest.skip(f"regenerated {expected_path.name}; review the diff")
    expected = json.loads(expected_path.read_text(encoding="utf-8"))
    assert got == expected


def test_golden_line_endings_do_not_change_the_fields() -> None:
    crlf = scan(read_reply(GOLDEN_DIR / "crlf.txt"))
    lf = scan(read_reply(GOLDEN_DIR / "crlf.txt").replace("\r\n", "\n"))
    assert crlf == lf
    assert all(isinstance(item, CommandBlock) for item in crlf.items)
    for item in crlf.items:
        assert isinstance(item, CommandBlock)
        assert all("\r" not in key + value for key, value in item.fields)


def test_golden_long_message_reads_only_the_end(
    tmp_path: Path, workspace: Path, state_dir: Path
) -> None:
    text = read_reply(GOLDEN_DIR / "long_message.txt")
    assert len(text) > SCAN_LIMIT
    scanned = scan(text)
    assert scanned.truncated
    session = Session(Workspace(workspace), state_dir)
    run = session.prepare(text)
    assert any("200,000" in notice for notice in run.notices)
    results = session.execute(run, {p.index: APPROVE for p in run.pending})
    # The block cut by the limit is reported, never half-read: its write did not happen.
    assert [r.outcome.ok for r in results] == [False, True]
    assert "ERR_MISSING_START_MARKER" in results[0].outcome.summary
    assert not (workspace / "early.txt").exists()


def test_result_blocks_in_a_reply_are_counted_never_run(
    workspace: Path, state_dir: Path, snapshot: Any
) -> None:
    text = read_reply(GOLDEN_DIR / "result_blocks.txt")
    session = Session(Workspace(workspace), state_dir)
    run = session.prepare(text)
    assert run.scan.result_blocks == 3
    assert any("OPERATOR_RESULT" in notice and "3" in notice for notice in run.notices)
    results = session.execute(run, {})
    assert [r.id for r in results] == ["after-results", "after-open-result"]
    assert "old-1" not in encode_results(results)


# -- truncation at the exact boundary ------------------------------------------------

BLOCK = "OPERATOR_CMD\nversion: 1\nid: edge\naction: fs.list\npath: .\nEND_OPERATOR_CMD\n"


@pytest.mark.parametrize("line_end", ["\n", "\r\n", "\r"])
def test_block_starting_exactly_at_the_limit_is_read(line_end: str) -> None:
    block = BLOCK.replace("\n", line_end)
    text = "earlier prose" + line_end + block + "p" * (SCAN_LIMIT - len(block))
    assert len(text) > SCAN_LIMIT
    assert text[-SCAN_LIMIT:].startswith("OPERATOR_CMD")
    (item,) = scan(text).items
    assert isinstance(item, CommandBlock)
    assert item.get("id") == "edge"


def test_cut_inside_a_crlf_pair_keeps_the_next_line() -> None:
    text = "earlier prose\r\n" + BLOCK + "p" * (SCAN_LIMIT - len(BLOCK) - 1)
    assert text[-SCAN_LIMIT - 1 :].startswith("\r\nOPERATOR_CMD")
    (item,) = scan(text).items
    assert isinstance(item, CommandBlock)


@pytest.mark.parametrize("cut_at", [1, 5, 11])
def test_a_marker_cut_by_the_limit_is_not_read_as_a_marker(cut_at: int) -> None:
    # The window starts inside "OPERATOR_CMD" (e.g. at "_CMD"): that partial line is dropped.
    text = "x" * 50 + "\n" + BLOCK + "p" * (SCAN_LIMIT - len(BLOCK) + cut_at)
    assert not text[-SCAN_LIMIT:].startswith("OPERATOR_CMD")
    (item,) = scan(text).items
    assert isinstance(item, BlockProblem)
    assert item.code == "ERR_MISSING_START_MARKER"


def test_a_short_message_is_not_truncated() -> None:
    assert not scan(BLOCK).truncated
    assert scan("x" * SCAN_LIMIT + BLOCK).truncated


# -- every scanner error code, through a session ---------------------------------------


def test_missing_end_marker(expect_refused: Any, cmd: Any, workspace: Path) -> None:
    bad = cmd("never-ends", "fs.write", path="README.md", content="lost").removesuffix(
        "\nEND_OPERATOR_CMD"
    )
    expect_refused(bad, "ERR_MISSING_END_MARKER", "never-ends", bad_first=False)


def test_missing_end_marker_without_id(expect_refused: Any) -> None:
    bad = "OPERATOR_CMD\nversion: 1\naction: fs.list\npath: ."
    expect_refused(bad, "ERR_MISSING_END_MARKER", "error-2", bad_first=False)


def test_nested_block_swallows_what_it_encloses(
    expect_refused: Any, cmd: Any, workspace: Path
) -> None:
    inner = cmd("inner", "fs.write", path="inner.txt", content="should not exist")
    outer = "OPERATOR_CMD\nversion: 1\nid: outer\naction: fs.write\npath: README.md\n" + inner
    refused = expect_refused(outer, "ERR_NESTED_BLOCK", "outer")
    assert "inner" not in refused.id
    assert not (workspace / "inner.txt").exists()


def test_result_marker_inside_a_command_is_nested(expect_refused: Any) -> None:
    bad = (
        "OPERATOR_CMD\nversion: 1\nid: has-result\naction: fs.list\n"
        "OPERATOR_RESULT\nid: x\nEND_OPERATOR_CMD"
    )
    expect_refused(bad, "ERR_NESTED_BLOCK", "has-result")


def test_start_marker_not_alone(expect_refused: Any) -> None:
    bad = (
        "OPERATOR_CMD version: 1\nid: glued\naction: fs.write\npath: README.md\n"
        "content: x\nEND_OPERATOR_CMD"
    )
    expect_refused(bad, "ERR_MARKER_NOT_ALONE", "glued")


def test_end_marker_not_alone(expect_refused: Any) -> None:
    bad = (
        "OPERATOR_CMD\nversion: 1\nid: glued-end\naction: fs.write\npath: README.md\n"
        "content: x END_OPERATOR_CMD"
    )
    expect_refused(bad, "ERR_MARKER_NOT_ALONE", "glued-end")


def test_stray_end_marker_not_alone(expect_refused: Any) -> None:
    expect_refused("and here it ends: END_OPERATOR_CMD", "ERR_MARKER_NOT_ALONE", "error-1")


def test_sentence_ending_with_the_marker_then_a_real_block(run_reply: Any, cmd: Any) -> None:
    text = "Here is the command: OPERATOR_CMD\n" + cmd("real", "fs.stat", path="README.md")
    results = run_reply(text)
    assert [(r.id, r.ok, r.code) for r in results] == [
        ("error-1", False, "ERR_MARKER_NOT_ALONE"),
        ("real", True, None),
    ]


@pytest.mark.parametrize(
    "sentence",
    [
        "Every OPERATOR_CMD block needs an id.",
        "I will close it with END_OPERATOR_CMD as usual.",
        "The app answers with OPERATOR_RESULT blocks, see END_OPERATOR_RESULT above.",
        "Use `OPERATOR_CMD` on its own line.",
        "OPERATOR_CMD: is not a marker either",
    ],
)
def test_marker_word_inside_a_sentence_is_not_a_command(
    sentence: str, run_reply: Any, cmd: Any
) -> None:
    text = sentence + "\n" + cmd("after", "fs.stat", path="README.md") + "\n" + sentence
    assert len(scan(text).items) == 1
    results = run_reply(text)
    assert [(r.id, r.ok) for r in results] == [("after", True)]


def test_empty_line_in_command(expect_refused: Any) -> None:
    bad = (
        "OPERATOR_CMD\nversion: 1\nid: gap\naction: fs.write\n\npath: README.md\n"
        "content: x\nEND_OPERATOR_CMD"
    )
    expect_refused(bad, "ERR_EMPTY_LINE_IN_CMD", "gap")


def test_whitespace_only_line_is_an_empty_line(expect_refused: Any) -> None:
    bad = "OPERATOR_CMD\nversion: 1\nid: blank\naction: fs.list\n   \t\npath: .\nEND_OPERATOR_CMD"
    expect_refused(bad, "ERR_EMPTY_LINE_IN_CMD", "blank")


@pytest.mark.parametrize(
    "line",
    ["please write this file", "- path: README.md", "# comment", "9key: value", "key = value"],
)
def test_non_key_value_line(line: str, expect_refused: Any) -> None:
    bad = (
        f"OPERATOR_CMD\nversion: 1\nid: prose\naction: fs.write\npath: README.md\n{line}\n"
        "content_b64: eA==\nEND_OPERATOR_CMD"
    )
    refused = expect_refused(bad, "ERR_NON_KEY_VALUE_LINE", "prose")
    assert "key: value" in refused.summary


@pytest.mark.parametrize("text", ["caf\u00e9.txt", "\u201cquoted\u201d", "tab\u00a0nbsp", "\u2603"])
def test_non_ascii_in_command(text: str, expect_refused: Any) -> None:
    bad = (
        "OPERATOR_CMD\nversion: 1\nid: accents\naction: fs.write\npath: README.md\n"
        f"content: {text}\nEND_OPERATOR_CMD"
    )
    refused = expect_refused(bad, "ERR_NON_ASCII_IN_CMD", "accents")
    assert "U+" in refused.summary


@pytest.mark.parametrize("char", ["\x00", "\x0b", "\x0c", "\x1b", "\x7f"])
def test_control_characters_in_command(char: str, expect_refused: Any) -> None:
    bad = (
        "OPERATOR_CMD\nversion: 1\nid: ctrl\naction: fs.write\npath: README.md\n"
        f"content: a{char}b\nEND_OPERATOR_CMD"
    )
    refused = expect_refused(bad, "ERR_NON_ASCII_IN_CMD", "ctrl")
    assert "control character" in refused.summary
    assert f"U+{ord(char):04X}" in refused.summary


def _big_block(lines: list[str]) -> str:
    return "OPERATOR_CMD\n" + "\n".join(lines) + "\nEND_OPERATOR_CMD"


def test_block_of_201_lines_is_too_large(expect_refused: Any) -> None:
    head = ["version: 1", "id: long", "action: fs.write", "path: README.md", "content: x"]
    filler = [f"k{n}: v" for n in range(MAX_BLOCK_LINES + 1 - len(head))]
    lines = head + filler
    assert len(lines) == 201
    expect_refused(_big_block(lines), "ERR_BLOCK_TOO_LARGE", "long")
    # One line fewer passes the scanner (the validator then refuses the unknown keys).
    (item,) = scan(_big_block(lines[:-1])).items
    assert isinstance(item, CommandBlock)


def test_block_over_50000_chars_is_too_large(expect_refused: Any) -> None:
    head = ["version: 1", "id: wide", "action: fs.write", "path: README.md"]
    prefix = "content_b64: "
    # Characters between the markers count each line with its line break.
    used = sum(len(line) + 1 for line in head) + len(prefix) + 1
    payload = "A" * (MAX_BLOCK_CHARS + 1 - used)
    lines = [*head, prefix + payload]
    assert sum(len(line) + 1 for line in lines) == 50_001
    expect_refused(_big_block(lines), "ERR_BLOCK_TOO_LARGE", "wide")
    exact = [*head, prefix + payload[:-1]]
    (item,) = scan(_big_block(exact)).items
    assert isinstance(item, CommandBlock)


def test_stray_end_marker(expect_refused: Any) -> None:
    bad = "version: 1\nid: headless\naction: fs.write\npath: README.md\nEND_OPERATOR_CMD"
    # The id shows in the lines right above the END marker: the refusal carries it.
    refused = expect_refused(bad, "ERR_MISSING_START_MARKER", "headless")
    assert "nothing ran" in refused.summary


def test_stray_end_marker_without_an_id_line(expect_refused: Any) -> None:
    bad = "Then:\naction: fs.write\npath: README.md\nEND_OPERATOR_CMD"
    expect_refused(bad, "ERR_MISSING_START_MARKER", "error-1")


def test_content_with_line_breaks(expect_refused: Any) -> None:
    bad = (
        "OPERATOR_CMD\nversion: 1\nid: multi\naction: fs.write\npath: README.md\n"
        "content: first line\nsecond line\nEND_OPERATOR_CMD"
    )
    refused = expect_refused(bad, "ERR_CONTENT_HAS_NEWLINES", "multi")
    assert "content_b64" in refused.summary


def test_content_followed_by_an_empty_line_is_a_line_break(expect_refused: Any) -> None:
    bad = (
        "OPERATOR_CMD\nversion: 1\nid: para\naction: fs.write\npath: README.md\n"
        "content: first paragraph\n\nsecond paragraph\nEND_OPERATOR_CMD"
    )
    expect_refused(bad, "ERR_CONTENT_HAS_NEWLINES", "para")


def test_a_two_level_target_written_inline_points_to_target_b64(expect_refused: Any) -> None:
    bad = (
        "OPERATOR_CMD\nversion: 1\nid: levels\naction: fs.readStructure\npath: app.py\n"
        "target: class UserAuth\ndef validate(self)\nEND_OPERATOR_CMD"
    )
    refused = expect_refused(bad, "ERR_CONTENT_HAS_NEWLINES", "levels")
    assert "target_b64" in refused.summary


# -- properties ---------------------------------------------------------------------

MARKERS = ["OPERATOR_CMD", "END_OPERATOR_CMD", "OPERATOR_RESULT", "END_OPERATOR_RESULT"]
spaces = st.sampled_from(["", " ", "\t", "  "])
marker_line = st.builds(lambda a, m, b: a + m + b, spaces, st.sampled_from(MARKERS), spaces)
glued_marker = st.builds(
    lambda m, t, first: f"{m} {t}" if first else f"{t} {m}",
    st.sampled_from(MARKERS),
    st.text(max_size=12),
    st.booleans(),
)
key = st.sampled_from(["version", "id", "action", "path", "content", "query", "start", "x_1"])
kv_line = st.builds(lambda k, v: f"{k}: {v}", key, st.text(max_size=20))
junk = st.text(max_size=40)
line_end = st.sampled_from(["\n", "\r\n", "\r"])
# Copy damage around markers: fences glued to them, markdown escapes, space-like characters.
fenced_marker = st.builds(
    lambda m, f, first: f + m if first else m + f,
    st.sampled_from(MARKERS),
    st.sampled_from(["```", "~~~", "```text", "`"]),
    st.booleans(),
)
escaped_marker = st.sampled_from([m.replace("_", "\\_") for m in MARKERS])
damaged_marker = st.builds(
    lambda a, m, b: a + m + b,
    st.sampled_from(["", *SPACE_LIKE]),
    st.sampled_from(MARKERS),
    st.sampled_from(["", *SPACE_LIKE]),
)
grammar_line = st.one_of(
    marker_line,
    glued_marker,
    fenced_marker,
    escaped_marker,
    damaged_marker,
    kv_line,
    junk,
    st.just(""),
)


@st.composite
def marker_heavy_text(draw: st.DrawFn) -> str:
    lines = draw(st.lists(grammar_line, max_size=60))
    ends = draw(st.lists(line_end, min_size=len(lines), max_size=len(lines)))
    return "".join(line + end for line, end in zip(lines, ends, strict=True))


@given(st.text())
def test_scan_never_raises_on_any_text(text: str) -> None:
    scanned = scan(text)
    assert scanned.truncated == (len(text) > SCAN_LIMIT)


@settings(max_examples=examples(300))
@given(marker_heavy_text())
def test_scan_never_raises_on_marker_heavy_text(text: str) -> None:
    scanned = scan(text)
    line_count = len(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"))
    lines = [item.line for item in scanned.items]
    assert lines == sorted(lines)  # one item per block, in message order
    for item in scanned.items:
        assert 1 <= item.line <= line_count
        if isinstance(item, BlockProblem):
            assert item.code.startswith("ERR_")
            assert item.message


@st.composite
def well_formed_reply(draw: st.DrawFn) -> tuple[str, list[str]]:
    """Blocks whose markers are well formed (bodies may be invalid), between prose."""
    prose = st.text(
        alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=30
    ).filter(lambda s: not any(m in s.split() for m in MARKERS))
    count = draw(st.integers(min_value=0, max_value=6))
    parts: list[str] = []
    ids: list[str] = []
    bodies = [
        ["action: fs.stat", "path: README.md"],
        ["action: fs.list", "path: ."],
        ["action: fs.nope", "path: ."],
        ["action: fs.readSlice", "path: README.md", "lines: 0"],
        ["action: fs.write", "path: README.md", "content_b64: !!"],
        ["action: fs.read", "path: README.md", "contnet: x"],
        ["action: fs.list"],
        ["action: operator.getCommentStyle", "language: python"],
        ["action: fs.list", "", "path: ."],
        ["action: fs.list", "a free sentence", "path: ."],
        ["action: fs.read", "path: caf\u00e9"],
    ]
    for number in range(count):
        parts.append(draw(prose))
        ident = f"p{number}"
        ids.append(ident)
        body = draw(st.sampled_from(bodies))
        start = draw(spaces) + "OPERATOR_CMD" + draw(spaces)
        end = draw(spaces) + "END_OPERATOR_CMD" + draw(spaces)
        parts.append("\n".join([start, "version: 1", f"id: {ident}", *body, end]))
    parts.append(draw(prose))
    return draw(line_end).join("\n".join(parts).split("\n")), ids


@pytest.fixture(scope="module")
def property_workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("property-ws")
    (root / "README.md").write_text("hello\n", encoding="utf-8")
    return root


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(well_formed_reply())
def test_every_block_gets_one_result_in_order(
    property_workspace: Path, generated: tuple[str, list[str]]
) -> None:
    text, ids = generated
    starts = sum(1 for line in text.splitlines() if line.strip() == "OPERATOR_CMD")
    assert starts == len(ids)
    with tempfile.TemporaryDirectory() as state:
        session = Session(Workspace(property_workspace), Path(state))
        run = session.prepare(text)
        results = session.execute(run, {})
    assert len(results) == starts
    assert [result.id for result in results] == ids
    assert (property_workspace / "README.md").read_text(encoding="utf-8") == "hello\n"


# -- copy damage: what a chat page adds never changes what a block says ---------------

damage_char = st.sampled_from(["", *SPACE_LIKE])


@st.composite
def damaged_copy(draw: st.DrawFn) -> tuple[str, str]:
    """A well-formed reply and the same reply as a chat page might hand it over: space-like
    characters at line edges and around the first colon of block lines, a BOM, every line
    break doubled, CRLF."""
    clean, _ids = draw(well_formed_reply())
    lines = clean.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    damaged: list[str] = []
    inside = False
    for line in lines:
        word = line.strip()
        if word == "OPERATOR_CMD":
            inside = True
        if inside:
            before, after = draw(damage_char), draw(damage_char)
            if ":" in line and draw(st.booleans()):
                line = line.replace(":", draw(damage_char) + ":" + draw(damage_char), 1)
            line = before + line + after
        if word == "END_OPERATOR_CMD":
            inside = False
        damaged.append(line)
    separator = draw(st.sampled_from(["\n", "\n\n", "\r\n", "\r\n\r\n"]))
    text = separator.join(damaged)
    if draw(st.booleans()):
        text = "\ufeff" + text
    return clean, text


def _meaning(scanned: Scan) -> list[tuple[str | None, str | None, object]]:
    out: list[tuple[str | None, str | None, object]] = []
    for item in scanned.items:
        if isinstance(item, CommandBlock):
            out.append((None, item.get("id"), item.fields))
        else:
            out.append((item.code, item.id, None))
    return out


@settings(max_examples=examples(200), deadline=None)
@given(damaged_copy())
def test_copy_damage_never_changes_what_a_block_says(pair: tuple[str, str]) -> None:
    clean, damaged = pair
    assert _meaning(scan(damaged)) == _meaning(scan(clean))


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damaged_copy())
def test_every_damaged_block_gets_one_result_in_order(
    property_workspace: Path, pair: tuple[str, str]
) -> None:
    clean, damaged = pair
    with tempfile.TemporaryDirectory() as state:
        want = [
            r.id
            for r in Session(Workspace(property_workspace), Path(state)).execute(
                Session(Workspace(property_workspace), Path(state)).prepare(clean), {}
            )
        ]
    with tempfile.TemporaryDirectory() as state:
        session = Session(Workspace(property_workspace), Path(state))
        results = session.execute(session.prepare(damaged), {})
    assert [r.id for r in results] == want
    assert (property_workspace / "README.md").read_text(encoding="utf-8") == "hello\n"


@pytest.mark.parametrize("spacing", ["\n\n", "\r\n\r\n"])
def test_a_block_with_every_line_break_doubled_reads_single_spaced(
    spacing: str, run_reply: Any, cmd: Any
) -> None:
    text = cmd("doubled", "fs.stat", path="README.md").replace("\n", spacing)
    (result,) = run_reply(text)
    assert (result.id, result.ok) == ("doubled", True)


def test_doubling_inside_the_block_only_reads_single_spaced(run_reply: Any) -> None:
    text = (
        "OPERATOR_CMD\nversion: 1\n\nid: half\n\naction: fs.stat\n\npath: README.md\n\n"
        "END_OPERATOR_CMD"
    )
    (result,) = run_reply(text)
    assert (result.id, result.ok) == ("half", True)


def test_one_stray_empty_line_is_still_refused(expect_refused: Any) -> None:
    bad = (
        "OPERATOR_CMD\nversion: 1\nid: stray\naction: fs.stat\n\npath: README.md\nEND_OPERATOR_CMD"
    )
    refused = expect_refused(bad, "ERR_EMPTY_LINE_IN_CMD", "stray")
    assert "(line 4 of the block) is empty" in refused.summary


@pytest.mark.parametrize("char", list(SPACE_LIKE))
def test_space_like_characters_at_edges_and_around_the_colon(char: str, run_reply: Any) -> None:
    lines = [
        f"{char}OPERATOR_CMD{char}",
        f"version:{char}1",
        f"id{char}: edge-{ord(char):x}{char}",
        f"{char}action: fs.stat",
        f"path:{char} README.md{char}",
        f"{char}END_OPERATOR_CMD{char}",
    ]
    (result,) = run_reply("\n".join(lines))
    assert (result.id, result.ok) == (f"edge-{ord(char):x}", True), result.summary


@pytest.mark.parametrize("char", list(SPACE_LIKE))
def test_space_like_characters_inside_a_value_are_refused(char: str, expect_refused: Any) -> None:
    bad = (
        "OPERATOR_CMD\nversion: 1\nid: inner\naction: fs.stat\n"
        f"path: READ{char}ME.md\nEND_OPERATOR_CMD"
    )
    refused = expect_refused(bad, "ERR_NON_ASCII_IN_CMD", "inner")
    assert f"U+{ord(char):04X}" in refused.summary
    assert "(line 4 of the block), column 11" in refused.summary


def test_a_bom_before_the_first_marker(run_reply: Any, cmd: Any) -> None:
    (result,) = run_reply("\ufeff" + cmd("bom", "fs.stat", path="README.md"))
    assert (result.id, result.ok) == ("bom", True)
