r"""Text that can always be encoded as UTF-8: lone surrogates shown as escapes.

A file name that is not valid UTF-8 reaches Python as surrogate escapes (``\udcff`` for
the byte 0xff), and such text raises when it is encoded or stored. The encoder (every
result) and the store (the journal, the history, the memory, the rejections) pass text
through ``without_surrogates`` first; listings escape odd names themselves before they get
here (file_names.py), so this is the safety net below both.
"""

from __future__ import annotations

import re

_SURROGATE = re.compile(r"[\ud800-\udfff]")


def without_surrogates(text: str) -> str:
    r"""``text`` with lone surrogates shown as escapes, so it can always be encoded.

    A file name that is not valid UTF-8 reaches Python as surrogate escapes (``\udcff``
    for the byte 0xff). They are shown as ``\xff``; any other lone surrogate as ``\uXXXX``.
    A safety net: listings escape odd names themselves before they get here.
    """
    if not _SURROGATE.search(text):
        return text

    def escape(found: re.Match[str]) -> str:
        code = ord(found.group())
        return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\u{code:04x}"

    return _SURROGATE.sub(escape, text)
