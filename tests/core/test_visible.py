"""The one renderer of untrusted text: nothing invisible, no escape sequence, no markup
trick reaches a person unmarked, and two different texts never look the same."""

from __future__ import annotations

import sys
import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from llm_operator.core.visible import (
    MAX_NAMED,
    hidden_characters,
    hidden_note,
    is_plain,
    marker,
    shown,
    shown_lines,
    shown_markup,
    shown_offsets,
)

_MARKED_CATEGORIES = {"Cc", "Cf", "Zl", "Zp", "Cs"}


def test_every_control_format_separator_and_surrogate_code_point_is_marked() -> None:
    missed = [
        f"U+{code:04X}"
        for code in range(sys.maxunicode + 1)
        if unicodedata.category(chr(code)) in _MARKED_CATEGORIES
        and chr(code) not in "\t\n"
        and shown_lines(chr(code)) != marker(chr(code))
    ]
    assert missed == []


def test_a_reversed_name_is_shown_in_order_with_its_marker() -> None:
    assert shown("prod\u202etxt.env") == "prod<U+202E>txt.env"
    assert (
        shown("a\u2066b\u2069c\u200e\u200f\u061c") == "a<U+2066>b<U+2069>c<U+200E><U+200F><U+061C>"
    )


def test_escape_sequences_cannot_reach_a_terminal() -> None:
    hostile = "ok\x1b[2K\x1b[1A\x1b]52;c;aGk=\x07\x9b31m\x7f"
    out = shown_lines(hostile)
    assert not set("\x1b\x07\x9b\x7f") & set(out)
    assert out == "ok<U+001B>[2K<U+001B>[1A<U+001B>]52;c;aGk=<U+0007><U+009B>31m<U+007F>"


def test_zero_width_and_other_invisible_characters_are_marked() -> None:
    for char in "\u200b\u200c\u200d\u2060\ufeff\u00ad\u034f\u115f\u3164\ufe0f\U000e0041":
        assert shown(f"a{char}b") == f"a{marker(char)}b"


def test_line_breaks_and_tabs_are_kept_in_lines_and_marked_in_one_line() -> None:
    assert shown_lines("a\tb\nc\rd\u2028e") == "a\tb\nc<U+000D>d<U+2028>e"
    assert shown("a\tb\nc") == "a<U+0009>b<U+000A>c"


def test_undecodable_bytes_of_a_name_are_shown_as_bytes() -> None:
    assert shown("caf\udce9") == "caf<0xE9>"


def test_ordinary_text_and_markup_are_kept_as_they_are() -> None:
    text = "naïve 日本語 <b>bold</b> & 😀 a < b > c"
    assert shown(text) == text
    assert is_plain(text)
    assert shown_markup("<b>x</b>\n&") == "&lt;b&gt;x&lt;/b&gt;<br>&amp;"


def test_a_name_spelling_a_marker_does_not_look_like_one_holding_the_character() -> None:
    assert shown("a<U+202E>b") == "a<U+003C>U+202E>b"
    assert shown("a<U+202E>b") != shown("a\u202eb")
    assert shown("x<0xE9>") != shown("x\udce9")


_ALPHABET = st.sampled_from([*"<>U+0123456789ABCDEFx\n\t", "\u202e", "\x1b", "\udce9"])


@given(st.text(_ALPHABET, max_size=12), st.text(_ALPHABET, max_size=12))
def test_two_different_texts_never_look_the_same(one: str, other: str) -> None:
    if one != other:
        assert shown(one) != shown(other)
        assert shown_lines(one) != shown_lines(other)


@given(st.text(_ALPHABET, max_size=20), st.booleans())
def test_offsets_follow_every_character_into_the_shown_text(text: str, one_line: bool) -> None:
    out, where = shown_offsets(text, one_line)
    assert out == (shown(text) if one_line else shown_lines(text))
    assert len(where) == len(text) + 1
    assert (where[0], where[-1]) == (0, len(out))
    for at, char in enumerate(text):
        assert out[where[at] : where[at + 1]] in (char, marker(char))


def test_plain_ascii_text_is_counted_as_the_full_rule_counts_it() -> None:
    # ASCII text takes a faster path than the one rule for every character.
    ascii_text = "".join(chr(code) for code in range(128)) * 2 + "\x1b[2K\x00"
    mixed = ascii_text + "\u202e"
    assert ascii_text.isascii()
    count, names = hidden_characters(ascii_text)
    assert names == tuple(marker(chr(code))[1:-1] for code in [*range(9), *range(11, 32), 127])
    assert count == 2 * len(names) + 2
    assert hidden_characters(mixed) == (count + 1, (*names, "U+202E"))
    assert all(
        (hidden_characters(chr(code))[0] == 1) == (not is_plain(chr(code), one_line=False))
        for code in range(128)
    )


def test_hidden_characters_are_counted_for_the_review() -> None:
    assert hidden_characters("a\u202eb\u200bc\u202e\n\t") == (3, ("U+202E", "U+200B"))
    assert hidden_note("plain\ttext\n") is None
    assert hidden_note("x\x1b[2K") == (
        "the new content holds 1 invisible or control character (U+001B)"
    )


def test_a_line_of_millions_of_one_invisible_character_names_it_once() -> None:
    text = "x = 1\n" + "\u200b" * 2_000_000 + "\u202e" + "\u200b"
    assert hidden_characters(text) == (2_000_002, ("U+200B", "U+202E"))


@given(st.lists(st.sampled_from(["a", "\u200b", "\u202e", "\x00", "\u00e9", "\ue000", "\t"])))
def test_counts_and_names_are_those_of_every_character_in_order(chars: list[str]) -> None:
    text = "".join(chars) + "\u00e9"  # never ASCII: the path for any text
    hidden = [char for char in text if not is_plain(char, one_line=False) and char != "\t"]
    expected = tuple(marker(char)[1:-1] for char in dict.fromkeys(hidden))
    assert hidden_characters(text) == (len(hidden), expected)


def test_at_most_max_named_distinct_characters_are_named_all_counted() -> None:
    tags = "".join(chr(0xE0000 + n) for n in range(200))  # tag characters: invisible
    count, names = hidden_characters("x\u00e9" + tags * 3)
    assert count == 600
    assert names == tuple(f"U+{0xE0000 + n:04X}" for n in range(MAX_NAMED))
