"""pack_message: the message format, parts that fit, cut lines, the token estimate."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llm_operator.core.protocol.context_pack import (
    MIN_LIMIT,
    PackedFile,
    estimate_tokens,
    file_lines,
    pack_message,
    section_chars,
)
from support.context_parts import unpack


def test_one_part_has_no_part_header_and_numbers_lines() -> None:
    files = [PackedFile("a.py", "x = 1\ny = 2\n"), PackedFile("b.md", "# T\n")]
    message = pack_message("PRIMER", "do the thing", files, "a.py (python)", 10_000)
    assert message.parts == (
        "PRIMER\n\n## Task\ndo the thing\n\n## Files (2)\n"
        "=== FILE: a.py (2 lines) ===\n1: x = 1\n2: y = 2\n=== END FILE: a.py ===\n"
        "=== FILE: b.md (1 line) ===\n1: # T\n=== END FILE: b.md ===\n\n"
        "## Outline of the rest of the workspace\na.py (python)",
    )
    assert message.chars == len(message.parts[0])
    assert message.tokens == estimate_tokens(message.chars) == -(-message.chars // 4)


def test_no_task_no_files_no_outline_is_the_primer_alone() -> None:
    assert pack_message("PRIMER\n", "  ", [], None, 5000).parts == ("PRIMER",)


def test_section_chars_is_what_the_file_adds() -> None:
    packed = PackedFile("a.py", "x = 1\ny = 2\n")
    with_file = pack_message("P", "", [packed], None, 10_000).chars
    without = pack_message("P", "", [], None, 10_000).chars
    assert with_file - without == section_chars(packed) + len("\n\n## Files (1)")


@pytest.mark.parametrize("limit", [MIN_LIMIT, 2500, 7000])
def test_parts_fit_the_limit_and_rebuild_every_file(limit: int) -> None:
    files = [
        PackedFile(
            f"pkg/m{n}.py", "".join(f"line {j} " + "x" * (j % 97) + "\n" for j in range(150))
        )
        for n in range(4)
    ]
    message = pack_message("P\n" * 300, "task", files, "outline\n" * 100, limit)
    assert len(message.parts) > 1
    assert all(len(part) <= limit for part in message.parts)
    n = len(message.parts)
    assert message.parts[0].startswith(f"LLM Operator context, part 1 of {n}. More parts follow")
    assert message.parts[-1].startswith(f"LLM Operator context, part {n} of {n} (last part)")
    assert unpack(message.parts) == {f.rel: f.text for f in files}


def test_a_file_cut_by_a_part_boundary_is_closed_and_reopened() -> None:
    text = "".join(f"{j}\n" for j in range(1, 400))
    message = pack_message("P", "", [PackedFile("big.txt", text)], None, MIN_LIMIT)
    first, second = message.parts[0], message.parts[1]
    assert first.endswith("=== FILE big.txt continues in the next part ===")
    next_line = first.split("\n")[-2].split(":")[0]
    assert f"=== FILE: big.txt (continued from line {int(next_line) + 1}) ===" in second


def test_a_line_longer_than_a_part_is_cut_into_marked_pieces() -> None:
    long_line = "".join(chr(ord("a") + n % 26) for n in range(5000))
    files = [PackedFile("min.js", long_line + "\nshort\n")]
    message = pack_message("P", "", files, None, MIN_LIMIT)
    assert all(len(part) <= MIN_LIMIT for part in message.parts)
    assert "[line 1 continues]" in message.whole
    assert unpack(message.parts) == {"min.js": long_line + "\nshort\n"}


def test_file_lines_match_read_slice_numbering() -> None:
    assert file_lines("a\r\nb\fc\nd") == ["a", "b\fc", "d"]
    assert file_lines("") == []


_LINE = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r"),
    max_size=300,
)
_FILE_TEXT = st.lists(_LINE, max_size=40).map(lambda lines: "".join(f"{x}\n" for x in lines))


@settings(max_examples=30, deadline=None)
@given(
    texts=st.lists(_FILE_TEXT, min_size=1, max_size=4),
    long_line=st.integers(min_value=0, max_value=4000),
    limit=st.integers(min_value=MIN_LIMIT, max_value=6000),
)
def test_any_files_pack_into_parts_that_fit_and_unpack_whole(
    texts: list[str], long_line: int, limit: int
) -> None:
    files = [PackedFile(f"dir/f{n}.txt", text) for n, text in enumerate(texts)]
    files.append(PackedFile("wide.txt", "w" * long_line + "\n"))
    message = pack_message("primer line\n" * 20, "the task", files, "outline", limit)
    assert all(len(part) <= limit for part in message.parts)
    assert unpack(message.parts) == {f.rel: f.text for f in files}
