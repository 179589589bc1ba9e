"""without_surrogates: any text comes out encodable, and plain text comes out unchanged."""

from __future__ import annotations

import os

from llm_operator.core.encodable_text import without_surrogates


def test_an_undecodable_byte_is_shown_as_its_hex_escape_and_encodes() -> None:
    name = os.fsdecode(b"caf\xe9.txt")
    shown = without_surrogates(name)
    assert shown == "caf\\xe9.txt"
    assert shown.encode("utf-8") == b"caf\\xe9.txt"


def test_another_lone_surrogate_is_shown_as_a_unicode_escape() -> None:
    assert without_surrogates("a\ud800b") == "a\\ud800b"


def test_text_without_surrogates_is_returned_as_it_is() -> None:
    text = "naïve \\x41 \u202e"
    assert without_surrogates(text) is text
