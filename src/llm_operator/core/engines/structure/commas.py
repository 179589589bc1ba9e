"""Commas between JSON members after whole-line edits.

Structure edits move whole lines, so a member moved to the end of an object keeps the
comma it had in the middle, and the member that was last before it has none. After an
edit, a comma directly before a closing ``}``/``]`` is removed, and a comma is added after
a value that ends a line when the next thing is another member or element. The fix runs
only when the file before the edit needed none of it, so a file's own style (a trailing
comma in a JSONC settings file) is never touched.
"""

from __future__ import annotations

_VALUE_START = frozenset('"{[-0123456789tfn')
_VALUE_END = frozenset('"}]0123456789el')


def _skip_blank(text: str, at: int) -> int:
    """Index of the next character that is neither whitespace nor inside a comment."""
    while at < len(text):
        char = text[at]
        if char in " \t\r\n":
            at += 1
        elif text.startswith("//", at):
            end = text.find("\n", at)
            at = len(text) if end == -1 else end
        elif text.startswith("/*", at):
            end = text.find("*/", at + 2)
            at = len(text) if end == -1 else end + 2
        else:
            break
    return at


def fix_commas(text: str) -> str:
    out: list[str] = []
    at = 0
    after_key = False
    while at < len(text):
        char = text[at]
        if text.startswith(("//", "/*"), at):
            # A comment is copied as it is: a member commented out (``// "x": {},``) is
            # no member, its comma no separator.
            end = _skip_blank(text, at)
            out.append(text[at:end])
            at = end
            continue
        if char == '"':
            end = at + 1
            while end < len(text) and text[end] != '"':
                end += 2 if text[end] == "\\" else 1
            out.append(text[at : end + 1])
            at = end + 1
            following = _skip_blank(text, at)
            after_key = following < len(text) and text[following] == ":"
            if not after_key:
                _maybe_comma(text, at, following, out)
            continue
        if char == ",":
            following = _skip_blank(text, at + 1)
            if following < len(text) and text[following] in "}]":
                at += 1
                continue
        out.append(char)
        at += 1
        if char in _VALUE_END and char != '"':
            following = _skip_blank(text, at)
            _maybe_comma(text, at, following, out)
    return "".join(out)


def _maybe_comma(text: str, at: int, following: int, out: list[str]) -> None:
    """Add a comma after a value that ends its line when another member follows."""
    if following >= len(text) or text[following] not in _VALUE_START:
        return
    if "\n" not in text[at:following]:
        return
    previous = text[at - 1] if at else ""
    if previous.isalnum() and previous not in "el0123456789":
        return
    out.append(",")


def fixed_if_clean(before: str, after: str) -> str:
    """``after`` with its commas fixed, when ``before`` needed no fixing."""
    if fix_commas(before) != before:
        return after
    return fix_commas(after)
