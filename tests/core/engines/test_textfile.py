"""TextFile: decode to LF text and encode back to the very same bytes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from llm_operator.core.engines.textfile import BOM, TextFile
from llm_operator.core.errors import OperatorError

_chars = st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n")
lines = st.lists(
    st.tuples(st.text(alphabet=_chars, max_size=12), st.sampled_from(["\n", "\r\n", "\r"])),
    max_size=12,
)


@given(lines, st.booleans(), st.booleans())
def test_unchanged_text_encodes_to_the_same_bytes(
    parts: list[tuple[str, str]], bom: bool, final: bool
) -> None:
    raw = "".join(text + brk for text, brk in parts)
    if not final and parts:
        raw += "tail"
    data = (BOM if bom else b"") + raw.encode("utf-8")
    decoded = TextFile.decode(data)
    assert "\r" not in decoded.text
    assert decoded.encode(decoded.text) == data


def test_crlf_file_stays_crlf_after_an_edit() -> None:
    decoded = TextFile.decode(b"one\r\ntwo\r\n")
    assert decoded.text == "one\ntwo\n"
    assert decoded.encode("one\nnew\ntwo\n") == b"one\r\nnew\r\ntwo\r\n"


def test_bom_survives() -> None:
    decoded = TextFile.decode(BOM + b"x\n")
    assert decoded.bom
    assert decoded.encode("y\n") == BOM + b"y\n"


def test_mixed_breaks_keep_untouched_lines_and_use_the_common_break_for_new_ones() -> None:
    data = b"a\r\nb\nc\r\nd\r\n"
    decoded = TextFile.decode(data)
    assert decoded.mixed_newlines
    assert decoded.text == "a\nb\nc\nd\n"
    assert decoded.encode("a\nb\nX\nc\nd\n") == b"a\r\nb\nX\r\nc\r\nd\r\n"


def test_final_newline_state_follows_the_text() -> None:
    decoded = TextFile.decode(b"a\r\nb")
    assert decoded.encode(decoded.text) == b"a\r\nb"
    assert decoded.encode("a\nb\nc") == b"a\r\nb\r\nc"


def test_latin1_is_refused_with_the_offset() -> None:
    with pytest.raises(OperatorError) as caught:
        TextFile.decode("caf\u00e9".encode("latin-1"), "menu.txt")
    assert caught.value.code == "ERR_ENCODING_ERROR"
    assert "menu.txt" in caught.value.message
    assert caught.value.details["byte_offset"] == 3
