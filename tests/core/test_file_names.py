"""display_name: every file name shown on exactly one line, one way, without collisions."""

from __future__ import annotations

import os

import pytest

from llm_operator.core.file_names import display_name, is_plain_name


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("main.py", "main.py"),
        ("naïve café.txt", "naïve café.txt"),
        ("a\nb.txt", "a\\nb.txt"),
        ("cr\rhere", "cr\\rhere"),
        ("tab\tname", "tab\\tname"),
        ("bell\x07", "bell\\x07"),
        ("del\x7f", "del\\x7f"),
        ("c1\x85", "c1\\x85"),
        ("back\\slash", "back\\\\slash"),
        ("sep\u2028para\u2029", "sep\\u2028para\\u2029"),
        (os.fsdecode(b"bad\xffutf8"), "bad\\xffutf8"),
    ],
)
def test_names_are_escaped_python_style(name: str, shown: str) -> None:
    assert display_name(name) == shown
    assert "\n" not in display_name(name)
    assert is_plain_name(name) == (name == shown)


def test_escaping_never_makes_two_names_look_alike() -> None:
    names = ["a\nb", "a\\nb", "a\\\nb", os.fsdecode(b"a\xffb"), "a\\xffb", "a\xffb"]
    shown = [display_name(name) for name in names]
    assert len(set(shown)) == len(names), shown
