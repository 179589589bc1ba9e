"""How long a text is to a chat: what every part size (context parts, result parts) counts.

A chat's input box is a browser text field: ``value.length`` and ``maxlength`` count UTF-16
code units, so a character past U+FFFF (an emoji, a math letter) counts two. Counting code
points instead lets a part of the part size be cut by a chat that takes exactly that many
characters. A lone surrogate (a name byte that is not UTF-8) counts one.
"""

from __future__ import annotations

__all__ = ["head", "units"]


def units(text: str) -> int:
    """``text``'s length as a chat box counts it: UTF-16 code units."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def head(text: str, room: int) -> str:
    """The longest start of ``text`` that takes at most ``room`` units."""
    if units(text) <= room:
        return text
    used = 0
    for index, char in enumerate(text):
        used += 2 if ord(char) > 0xFFFF else 1
        if used > room:
            return text[:index]
    return text
