"""File names as one line of text: the one escaping rule of every listing and search.

A name read from the disk may hold a newline, other control characters, bytes that are
not UTF-8 (``os.listdir`` hands those back as lone surrogates) or a backslash. Shown raw,
a newline would split one entry into two and let a crafted name pose as a fake entry or a
fake match. ``display_name`` escapes them the way Python writes string literals:

- ``\\`` for a backslash, ``\\n`` ``\\r`` ``\\t`` for those controls;
- ``\\xHH`` for any other C0/C1 control character, DEL, and each byte that is not UTF-8;
- ``\\uHHHH`` for the line and paragraph separators U+2028/U+2029 and other format or
  separator characters that editors treat as line breaks.

Every other character (letters of every script, spaces, quotes) is kept as it is, so the
result is exactly one line, and two different names never give the same text. A plain
name (no character to escape) is returned unchanged: ``is_plain_name`` tells which.
"""

from __future__ import annotations

import re

_SIMPLE = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
# Controls, DEL, C1 controls, lone surrogates (undecodable bytes), and the characters
# that terminals or editors may show as a line break.
_ODD = re.compile("[\\\\\x00-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029\u0085\ufeff]")


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    simple = _SIMPLE.get(char)
    if simple is not None:
        return simple
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # a byte os.fsdecode could not decode (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}"


def display_name(name: str) -> str:
    """``name`` (or a ``/``-separated path) escaped so that it is one line of valid text."""
    return _ODD.sub(_escape, name)


def is_plain_name(name: str) -> bool:
    """Whether ``name`` is shown exactly as it is (no character needs escaping)."""
    return _ODD.search(name) is None


_INVISIBLE = frozenset({"Cf", "Zl", "Zp"})


def visible_name(name: str) -> str:
    """``display_name`` of ``name``, with every invisible or bidi character (Unicode Cf,
    Zl, Zp: U+202E, U+200B...) also written as ``\\uHHHH``, as the details lines escape
    them: for a summary line, which is shown as it is."""
    import unicodedata

    shown = display_name(name)
    if shown.isascii():
        return shown
    return "".join(
        f"\\u{ord(char):04x}" if unicodedata.category(char) in _INVISIBLE else char
        for char in shown
    )


def resume_cursor(path: str) -> str:
    """The ``after`` field that resumes a walk right after ``path``, written so the model
    can send it back as it is: ``after: <path>`` for a path of printable ASCII (no
    backslash, no space at either end), else ``after_json: "<path as JSON>"`` (ASCII only,
    ``\\u00e9`` for é), since a command holds ASCII only."""
    import json

    if path.isascii() and path.isprintable() and "\\" not in path and path.strip() == path:
        return f"after: {path}"
    return f"after_json: {json.dumps(path, ensure_ascii=True)}"


_MISLEADING = re.compile(r':[0-9]+:|[@/]\Z|\A"')


def listed_name(name: str) -> str:
    """``display_name`` of a name or path as a listing or a search line shows it: in double
    quotes, with ``"`` written ``\\"``, when it could read as something else, i.e. when it
    holds ``:<digits>:`` (a search line's ``<path>:<line>:``), ends with ``@`` or ``/`` (the
    marks of a symlink and a folder in fs.list) or starts with ``"``. The name is then the
    text between the quotes, ``\\"`` and ``\\\\`` read back as ``"`` and ``\\``."""
    shown = display_name(name)
    if not _MISLEADING.search(name):
        return shown
    return '"' + shown.replace('"', '\\"') + '"'
