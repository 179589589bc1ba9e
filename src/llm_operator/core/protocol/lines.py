"""One line of a pasted reply, read with the copy damage a chat page adds taken off.

Chat pages add characters nobody typed: a byte order mark at the start of a saved reply,
no-break spaces where the page laid out text, zero-width spaces and joiners at line ends.
They are whitespace here only where the meaning of a command cannot change: at the edges of
a line and on either side of the first colon. Inside a key or a value every character is
kept and checked, so a value is never silently altered.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

# U+00A0 no-break space, U+202F narrow no-break space, U+2007 figure space, U+200B zero
# width space, U+200C/U+200D zero width (non-)joiner, U+2060 word joiner, U+FEFF BOM.
SPACE_LIKE = "\u00a0\u202f\u2007\u200b\u200c\u200d\u2060\ufeff"
EDGE = " \t" + SPACE_LIKE
_TO_SPACE = str.maketrans({char: " " for char in SPACE_LIKE})
KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
# Printable ASCII and tab only: control characters could corrupt an echoed id or path.
FORBIDDEN_CHAR = re.compile(r"[^\t\x20-\x7e]")
BASE64_FRAGMENT = re.compile(r"[A-Za-z0-9+/=]+\Z")


def trim(text: str) -> str:
    """``text`` without whitespace or space-like characters at its edges."""
    return text.strip(EDGE)


def tokens(line: str) -> list[str]:
    """Whitespace-separated words of ``line``, with space-like characters as whitespace."""
    return line.translate(_TO_SPACE).split()


def is_blank(line: str) -> bool:
    return not trim(line)


@dataclass(frozen=True)
class KeyValue:
    """A ``key: value`` line, key and value trimmed."""

    key: str
    value: str


@dataclass(frozen=True)
class BadChar:
    """A character a command line may not hold, and where it stands (1-based column)."""

    char: str
    column: int
    in_value_of: str | None  # the key whose value holds it, when the line is key: value

    @property
    def described(self) -> str:
        code = f"U+{ord(self.char):04X}"
        if self.char.isascii():
            return f"the control character {code}"
        name = unicodedata.name(self.char, "unnamed")
        return f"the non-ASCII character {code} {name}"


def _tolerated(raw: str) -> list[bool]:
    """For each position of ``raw``: whether a space-like character there is copy damage."""
    keep = [False] * len(raw)
    start = len(raw) - len(raw.lstrip(EDGE))
    end = len(raw.rstrip(EDGE))
    for index in [*range(start), *range(end, len(raw))]:
        keep[index] = True
    colon = raw.find(":", start, end)
    if colon >= 0:
        left = colon
        while left > start and raw[left - 1] in EDGE:
            left -= 1
            keep[left] = True
        right = colon + 1
        while right < end and raw[right] in EDGE:
            keep[right] = True
            right += 1
    return keep


def bad_char(raw: str) -> BadChar | None:
    """The first character of ``raw`` a command may not hold, outside the tolerated spots."""
    if FORBIDDEN_CHAR.search(raw) is None:  # most lines: printable ASCII only
        return None
    tolerated = _tolerated(raw)
    for match in FORBIDDEN_CHAR.finditer(raw):
        index = match.start()
        if tolerated[index]:
            continue
        colon = raw.find(":")
        key = None
        if 0 <= colon < index:
            parsed = key_value(raw[: colon + 1] + "x")
            key = parsed.key if parsed is not None else None
        return BadChar(match.group(), index + 1, key)
    return None


def key_value(raw: str) -> KeyValue | None:
    """``raw`` as ``key: value`` (key and value trimmed), or None if it is not one."""
    text = trim(raw)
    colon = text.find(":")
    if colon < 0:
        return None
    key = trim(text[:colon])
    if not KEY.match(key):
        return None
    return KeyValue(key, trim(text[colon + 1 :]))


def unescaped_key(raw: str) -> KeyValue | None:
    """Like ``key_value`` but reading markdown-escaped keys (``content\\_b64``) too."""
    return key_value(raw.replace("\\_", "_"))
