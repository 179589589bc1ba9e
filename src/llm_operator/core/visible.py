"""Untrusted text as a person must see it: the one renderer for the window and the terminal.

Everything that comes from a reply or a file (ids, paths, names, reasons, messages, diff
lines, results) reaches a person through ``shown`` (one line) or ``shown_lines`` (a text
whose line breaks and tabs are kept). Both are plain text, never markup: the window puts
them into plain-text widgets (or escapes them for the few rich-text places), the terminal
writes them as they are.

The rule: every character that a screen would not show as itself is replaced by a marker
that names it, so text cannot hide, reorder or overwrite other text:

- ``<U+XXXX>`` (four to six upper-case hex digits) for C0 and C1 control characters
  (ESC included, so no terminal escape sequence survives), DEL, the bidi controls
  (U+202A..U+202E, U+2066..U+2069, U+200E/U+200F, U+061C), zero-width and other format
  characters (Unicode category Cf: U+200B..U+200D, U+2060, U+FEFF, the soft hyphen...),
  the other default-ignorable code points (variation selectors, Hangul fillers, tags),
  the blank braille pattern U+2800 (a "space" that is not one), and the line and
  paragraph separators U+2028/U+2029. A tab and a line break are marked too in one-line
  text; ``shown_lines`` keeps them.
- ``<0xHH>`` for a byte of a file name that is not UTF-8 (Python holds it as a lone
  surrogate, U+DC80..U+DCFF); ``<U+XXXX>`` for any other lone surrogate.
- a ``<`` that starts text looking like a marker is itself written ``<U+003C>``, so a
  name that spells ``<U+202E>`` literally never looks like one that holds U+202E.

Every other character (letters of every script, spaces, punctuation, emoji, ``<b>``) is
kept as it is, and text without any such character is returned unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# Kept in step with Unicode by tests/core/test_visible.py, which checks every code point of
# categories Cc, Cf, Zl, Zp and Cs against it.
_INVISIBLE_RANGES = (
    "\x00-\x08\x0b-\x1f\x7f-\x9f"  # C0 (tab and line feed apart), DEL, C1
    "\u00ad\u034f\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2"
    "\u115f\u1160\u17b4\u17b5\u180b-\u180f"
    "\u200b-\u200f\u2028-\u202e\u2060-\u206f\u2800\u3164"
    "\ud800-\udfff"  # lone surrogates: bytes that are not UTF-8, and strays
    "\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb"
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0000-\U000e0fff"
)
_SOURCES = {
    "one line": f"[{_INVISIBLE_RANGES}\t\n]|<(?=U\\+[0-9A-F]{{4,6}}>|0x[0-9A-F]{{2}}>)",
    "lines": f"[{_INVISIBLE_RANGES}]|<(?=U\\+[0-9A-F]{{4,6}}>|0x[0-9A-F]{{2}}>)",
    "hidden": f"[{_INVISIBLE_RANGES}]",
}
_compiled: dict[str, re.Pattern[str]] = {}


def _rule(name: str) -> re.Pattern[str]:
    """The pattern ``name`` of ``_SOURCES``, compiled when first used: the three cost about
    a millisecond to compile, which a run that only counts ASCII text need not pay."""
    pattern = _compiled.get(name)
    if pattern is None:
        pattern = _compiled[name] = re.compile(_SOURCES[name])
    return pattern


# Every ASCII character that is shown as itself (tab and line feed are not hidden either).
_ASCII_SHOWN = bytes(range(0x20, 0x7F)) + b"\t\n"
MARKER = re.compile(r"<U\+[0-9A-F]{4,6}>|<0x[0-9A-F]{2}>")
"""A marker in shown text: after rendering, every text of this shape is one."""


def marker(char: str) -> str:
    """The visible stand-in for one character: ``<U+202E>``, or ``<0xFF>`` for a byte."""
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # a byte os.fsdecode could not decode (surrogateescape)
        return f"<0x{code - 0xDC00:02X}>"
    return f"<U+{code:04X}>"


def _mark(found: re.Match[str]) -> str:
    return marker(found.group())


def shown(text: str) -> str:
    """``text`` as one line a person can trust: every invisible character marked."""
    return _rule("one line").sub(_mark, text)


def shown_lines(text: str) -> str:
    """``text`` with its line breaks and tabs kept and every other invisible character
    marked: for diffs, file content and messages of several lines."""
    return _rule("lines").sub(_mark, text)


def is_plain(text: str, one_line: bool = True) -> bool:
    """Whether ``text`` is shown exactly as it is."""
    return _rule("one line" if one_line else "lines").search(text) is None


def shown_offsets(text: str, one_line: bool = True) -> tuple[str, Sequence[int]]:
    """``text`` as shown, and where each of its offsets (0..len) lands in the shown text.

    Renderers that mark character spans (changed words of a diff line) move them with it.
    """
    pattern = _rule("one line" if one_line else "lines")
    out: list[str] = []
    where: list[int] = []
    done = 0  # characters of ``text`` copied so far
    size = 0  # length of the shown text so far
    for found in pattern.finditer(text):
        start = found.start()
        where.extend(range(size, size + start - done))
        out.append(text[done:start])
        size += start - done
        piece = marker(found.group())
        where.append(size)
        out.append(piece)
        size += len(piece)
        done = start + 1
    if not out:
        return text, range(len(text) + 1)
    where.extend(range(size, size + len(text) - done + 1))
    out.append(text[done:])
    return "".join(out), where


# The most distinct invisible characters ``hidden_characters`` names.
MAX_NAMED = 64


def hidden_characters(text: str, data: bytes | None = None) -> tuple[int, tuple[str, ...]]:
    """How many invisible or control characters ``text`` holds (line breaks and tabs
    apart), and the distinct ones (the first MAX_NAMED), in order of first appearance, as
    markers' names. ``data``: ``text`` encoded as UTF-8, when the caller has those bytes
    (ASCII text is then looked at in them rather than encoded again).

    Counted and found in C, never one Python step per character: a reply's edit list can
    make a line of forty million of them."""
    if text.isascii():  # the common case: only C0 controls and DEL to look for
        # ASCII text is its UTF-8 bytes, one byte a character.
        raw = data if data is not None and len(data) == len(text) else text.encode("ascii")
        controls = raw.translate(None, _ASCII_SHOWN)
        return len(controls), _names([chr(byte) for byte in dict.fromkeys(controls)][:MAX_NAMED])
    # One search a distinct character, each for any not found yet from where the last
    # one was (the searches cover the text once between them); then each is counted.
    rule = _rule("hidden")
    found: list[str] = []
    at = 0
    while len(found) <= MAX_NAMED:
        if found:
            seen = "".join(re.escape(char) for char in found)
            match = re.compile(f"(?![{seen}]){_SOURCES['hidden']}").search(text, at)
        else:
            match = rule.search(text)
        if match is None:
            return sum(text.count(char) for char in found), _names(found)
        found.append(match.group())
        at = match.end()
    # More than MAX_NAMED distinct ones: counted by removing them all.
    return len(text) - len(rule.sub("", text)), _names(found[:MAX_NAMED])


def _names(chars: list[str]) -> tuple[str, ...]:
    return tuple(marker(char)[1:-1] for char in chars)


def hidden_note(text: str, limit: int = 5, data: bytes | None = None) -> str | None:
    """A review line saying that ``text`` holds invisible or control characters, if it does.
    ``data``: ``text`` encoded as UTF-8, when the caller has those bytes."""
    count, names = hidden_characters(text, data)
    if not count:
        return None
    listed = ", ".join(names[:limit]) + (", ..." if len(names) > limit else "")
    noun = "character" if count == 1 else "characters"
    return f"the new content holds {count} invisible or control {noun} ({listed})"


def shown_markup(text: str, rendered: bool = False) -> str:
    """``shown_lines(text)`` escaped for the few places Qt reads as rich text (tooltips):
    ``<``, ``>``, ``&`` and quotes stand for themselves, line breaks become ``<br>``.
    ``rendered``: ``text`` already went through ``shown`` or ``shown_lines``."""
    import html  # lazy: the command line never needs it

    escaped = html.escape(text if rendered else shown_lines(text), quote=True)
    return escaped.replace("\n", "<br>")
