"""A block without its END line swallows the blocks after it: each one is named."""

from __future__ import annotations

from llm_operator.core.protocol.detect import detect_paste
from llm_operator.core.protocol.scanner import BlockProblem, Swallowed, scan

UNCLOSED = "OPERATOR_CMD\nversion: 1\nid: a1\naction: fs.read\npath: x.txt\n\n"
READ_B = "OPERATOR_CMD\nversion: 1\nid: b2\naction: fs.read\npath: y.txt\nEND_OPERATOR_CMD\n"
READ_C = "OPERATOR_CMD\nversion: 1\nid: c3\naction: fs.read\npath: z.txt\nEND_OPERATOR_CMD\n"


def test_a_nested_block_names_what_it_swallowed() -> None:
    items = scan(UNCLOSED + READ_B + "\n" + READ_C).items
    assert len(items) == 2
    first = items[0]
    assert isinstance(first, BlockProblem)
    assert first.code == "ERR_NESTED_BLOCK"
    assert first.id == "a1"
    assert first.swallowed == (Swallowed(7, "b2"),)
    assert "its END line is missing, so it swallowed the block b2 (from line 7)" in first.message


def test_the_outer_id_is_never_taken_from_a_swallowed_block() -> None:
    no_id = "OPERATOR_CMD\nversion: 1\naction: fs.read\n"
    first = scan(no_id + READ_B).items[0]
    assert isinstance(first, BlockProblem)
    assert first.id is None
    assert first.swallowed == (Swallowed(4, "b2"),)


def test_a_block_never_closed_names_every_block_after_it() -> None:
    text = UNCLOSED + READ_B.replace("END_OPERATOR_CMD\n", "") + READ_C.replace("END_", "X_")
    first = scan(text).items[0]
    assert isinstance(first, BlockProblem)
    assert first.code == "ERR_MISSING_END_MARKER"
    assert [s.id for s in first.swallowed] == ["b2", "c3"]
    assert "the block b2 (from line 7), the block c3 (from line 12)" in first.message


def test_detect_passes_the_swallowed_blocks_on() -> None:
    found = detect_paste(UNCLOSED + READ_B).commands
    assert len(found) == 1
    assert found[0].swallowed == (Swallowed(7, "b2"),)
    assert found[0].line == 1
    assert found[0].problem is not None
    assert "swallowed the block b2" in found[0].problem
