"""Splitting results into parts a chat input accepts."""

from __future__ import annotations

import base64
import re

import pytest

from llm_operator.core.outcome import Outcome
from llm_operator.core.protocol.encoder import Result, ResultForm, encode_result
from llm_operator.core.protocol.parts import split_results
from llm_operator.core.protocol.result_reader import read_results
from llm_operator.core.protocol.scanner import scan


def chat_length(text: str) -> int:
    """``text``'s length as a browser's chat box counts it (``value.length``)."""
    return len(text.encode("utf-16-le")) // 2


def read_result(command_id: str, text: str) -> Result:
    return Result(command_id, Outcome(True, f"Read {command_id}", text))


BLOCK = re.compile(r"^OPERATOR_RESULT\n(.*?)\nEND_OPERATOR_RESULT$", re.MULTILINE | re.DOTALL)


def blocks_of(text: str) -> list[dict[str, str]]:
    """The key lines of each block (readable body lines, behind their `|`, left out)."""
    return [
        dict(line.split(": ", 1) for line in body.splitlines() if not line.startswith(("|", "\\")))
        for body in BLOCK.findall(text)
    ]


def test_short_results_are_one_part_without_a_header() -> None:
    results = [read_result("r1", "a"), read_result("r2", "b")]
    parts = split_results(results, 30000)
    assert parts.texts == ("\n\n".join(encode_result(r) for r in results),)


def test_parts_break_between_whole_blocks() -> None:
    results = [read_result(f"r{i}", "x" * 1500) for i in range(6)]
    parts = split_results(results, 5000)
    assert parts.count > 1
    assert all(len(text) <= 5000 for text in parts.texts)
    assert parts.texts[0].startswith(f"LLM Operator results, part 1 of {parts.count}.")
    assert parts.texts[-1].startswith(f"LLM Operator results, part {parts.count} of")
    ids = [block["id"] for text in parts.texts for block in blocks_of(text)]
    assert ids == [f"r{i}" for i in range(6)]
    assert parts.too_long == ()


def test_a_huge_block_becomes_valid_blocks_that_join_back() -> None:
    text = "naïve café ✓ line\n" * 800  # multi-byte characters on every slice boundary
    parts = split_results([read_result("big", text)], 5000, ResultForm.BASE64)
    assert parts.count > 2
    assert all(chat_length(part) <= 5000 for part in parts.texts)
    blocks = [block for part in parts.texts for block in blocks_of(part)]
    assert {block["id"] for block in blocks} == {"big"}
    assert blocks[0]["summary"].startswith(f"Read big [details part 1 of {len(blocks)}")
    joined = "".join(base64.b64decode(block["details_b64"]).decode("utf-8") for block in blocks)
    assert joined == text
    for part in parts.texts:  # each part is still a message the scanner reads cleanly
        assert scan(part).result_blocks == len(blocks_of(part))


def test_a_block_that_cannot_be_split_is_named_too_long() -> None:
    no_details = Result("x1", Outcome(False, "failed " + "y" * 1900))
    parts = split_results([no_details, read_result("r2", "ok")], 1500)
    assert parts.too_long == ("x1",)
    assert "id: x1" in parts.whole


@pytest.mark.parametrize(
    "text",
    [
        "naïve café ✓ line\n" * 800,
        "short\n" + "x" * 12000 + "\n\x00\r\n" * 300 + "tail without newline",
        "\u202e" * 9000,
        "\U0001f4a5 boom\n" * 2000,  # two UTF-16 units each, as a chat box counts them
        "\U0001d4b3" * 12000,
    ],
)
def test_a_huge_readable_block_becomes_blocks_whose_details_join_back(text: str) -> None:
    parts = split_results([read_result("big", text)], 5000)
    assert parts.count > 2
    assert all(chat_length(part) <= 5000 for part in parts.texts)
    blocks = []
    for part in parts.texts:
        assert scan(part).result_blocks == len(blocks_of(part))
        body = part.split("\n\n", 1)[1]  # the header line of the part first
        blocks += read_results(body)
    assert {block.id for block in blocks} == {"big"}
    assert blocks[0].summary.startswith(f"Read big [details part 1 of {len(blocks)}")
    assert b"".join(block.details or b"" for block in blocks) == text.encode("utf-8")
