"""Details as readable lines inside an OPERATOR_RESULT block, and back to their exact bytes.

Rules (docs/protocol.md, "Readable results"):
- The details are cut at ``\\n``. Each line becomes one body line: ``|`` alone for an
  empty line, ``| `` + the line verbatim, or ``|\\`` + the line escaped. The fixed prefix
  means no body line can be read as a marker or as a ``key: value`` line.
- A line is escaped when it holds a control character other than tab (C0, DEL, C1), a
  bidi control, a zero-width or other invisible format character (Unicode Cf, Zl, Zp), or
  bytes that are not UTF-8 (reaching here as lone surrogates, Python's surrogateescape).
  In an escaped line ``\\`` is ``\\\\``, CR is ``\\r``, ``\\xNN`` is always ONE byte (a C0
  or DEL character, each UTF-8 byte of a C1 character or of an invisible character
  above U+FFFF, or a byte that is not UTF-8) and ``\\uXXXX`` is an invisible or bidi
  character up to U+FFFF. Every other character stands for itself. The reader refuses
  anything the encoder would not write.
- Details that do not end with ``\\n`` are followed by the line NO_NEWLINE, which the
  line count does not include.
Decoding inverts this exactly: ``decode_lines(encode_lines(t)) == wire_bytes(t)``.
"""

from __future__ import annotations

import re
import unicodedata

VERBATIM = "| "
ESCAPED = "|\\"
EMPTY = "|"
NO_NEWLINE = "\\ No newline at end of details"

_INVISIBLE = frozenset({"Cf", "Zl", "Zp", "Cs", "Cc"})
# Cheap first test: every character that could need escaping is outside this class.
_PLAIN = re.compile(r"[\t\x20-\x7e\u00a0-\u00ac\u00ae-\u05ff]*\Z")
_ESCAPE = re.compile(r"\\(?:\\|r|x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4}))")


class ReadableFormatError(ValueError):
    """Body lines that are not the readable form (the message says which line and why)."""


def _needs_escape(char: str) -> bool:
    if char == "\t":
        return False
    return unicodedata.category(char) in _INVISIBLE


def _escape_of(code: int) -> str:
    """How character ``code`` is written in an escaped line (itself when it needs none)."""
    char = chr(code)
    if char == "\r":
        return "\\r"
    if (code < 0x20 and char != "\t") or code == 0x7F:
        return f"\\x{code:02x}"
    if 0xDC80 <= code <= 0xDCFF:  # a byte that is not UTF-8 (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    if not _needs_escape(char):
        return char
    if 0x80 <= code <= 0x9F or code > 0xFFFF:
        # C1, and invisible characters beyond \uXXXX: their UTF-8 bytes, one \xNN each.
        return "".join(f"\\x{byte:02x}" for byte in char.encode("utf-8"))
    return f"\\u{code:04x}"


class _Escapes(dict[int, str]):
    """``str.translate`` table computed on first use of each character, then cached."""

    def __missing__(self, code: int) -> str:
        escaped = _escape_of(code)
        self[code] = escaped
        return escaped


_TABLE = _Escapes()


def _escaped_or_none(line: str) -> str | None:
    """``line`` escaped, or None when nothing in it needs escaping (a backslash alone does not)."""
    if _PLAIN.match(line):
        return None
    translated = line.translate(_TABLE)
    if translated == line:
        return None
    return line.replace("\\", "\\\\").translate(_TABLE)


def line_needs_escape(line: str) -> bool:
    return _escaped_or_none(line) is not None


def escape_line(line: str) -> str:
    return line.replace("\\", "\\\\").translate(_TABLE)


def body_line(line: str) -> str:
    if not line:
        return EMPTY
    escaped = _escaped_or_none(line)
    if escaped is not None:
        return ESCAPED + escaped
    return VERBATIM + line


def encode_lines(details: str) -> list[str]:
    """The body lines of ``details`` (NO_NEWLINE last when it does not end with a newline)."""
    lines = details.split("\n")
    ends_with_newline = lines[-1] == ""
    if ends_with_newline:
        lines.pop()
    body = [body_line(line) for line in lines]
    if not ends_with_newline:
        body.append(NO_NEWLINE)
    return body


def wire_bytes(details: str) -> bytes:
    """The bytes ``details`` stand for: UTF-8, with surrogate-escaped bytes put back."""
    out = bytearray()
    for char in details:
        code = ord(char)
        if 0xDC80 <= code <= 0xDCFF:
            out.append(code - 0xDC00)
        else:
            out += char.encode("utf-8", "surrogatepass")
    return bytes(out)


def _unescape(text: str) -> bytes:
    """``text`` with its escapes decoded (every backslash already checked to start one)."""
    out = bytearray()
    position = 0
    for found in _ESCAPE.finditer(text):
        out += text[position : found.start()].encode("utf-8", "surrogatepass")
        byte, char = found.group(1), found.group(2)
        if byte is not None:
            out.append(int(byte, 16))
        elif char is not None:
            out += chr(int(char, 16)).encode("utf-8", "surrogatepass")
        else:
            out += b"\r" if found.group() == "\\r" else b"\\"
        position = found.end()
    out += text[position:].encode("utf-8", "surrogatepass")
    return bytes(out)


def decode_line(line: str, number: int = 1) -> bytes:
    """One body line back to its bytes (without the line break)."""
    if line == EMPTY:
        return b""
    if line.startswith(VERBATIM):
        text = line[len(VERBATIM) :]
        if _escaped_or_none(text) is not None:
            raise ReadableFormatError(
                f"body line {number} starts with '| ' but holds a character that must be "
                "escaped (such lines start with '|\\')"
            )
        return text.encode("utf-8", "surrogatepass")
    if line.startswith(ESCAPED):
        text = line[len(ESCAPED) :]
        _check_escapes(text, number)
        return _unescape(text)
    raise ReadableFormatError(
        f"body line {number} starts with {line[:2]!r}; each body line is '|' alone, "
        "'| ' and the line, or '|\\' and the escaped line"
    )


def _check_escapes(text: str, number: int) -> None:
    """Refuse what the encoder never writes: a stray backslash, a ``\\uXXXX`` that is not
    an invisible BMP character written that way, a character left bare that needs escaping."""
    position = 0
    while True:
        slash = text.find("\\", position)
        _check_bare(text[position : len(text) if slash < 0 else slash], number, position)
        if slash < 0:
            return
        found = _ESCAPE.match(text, slash)
        column = len(ESCAPED) + slash + 1
        if found is None:
            raise ReadableFormatError(
                f"body line {number}, column {column}: a backslash that starts no escape "
                "(\\\\, \\r, \\xNN, \\uXXXX)"
            )
        char = found.group(2)
        if char is not None and _escape_of(int(char, 16)) != f"\\u{int(char, 16):04x}":
            raise ReadableFormatError(
                f"body line {number}, column {column}: {found.group()} is not how that "
                "character is written (\\uXXXX is only for an invisible or bidi character "
                "of four hex digits; others are \\xNN bytes or stand for themselves)"
            )
        position = found.end()


def _check_bare(text: str, number: int, start: int) -> None:
    if _PLAIN.match(text):
        return
    for index, char in enumerate(text):
        if char != "\\" and _TABLE[ord(char)] != char:
            column = len(ESCAPED) + start + index + 1
            raise ReadableFormatError(
                f"body line {number}, column {column}: U+{ord(char):04X} must be escaped"
            )


def decode_lines(body: list[str]) -> bytes:
    """Body lines (NO_NEWLINE last or not) back to the exact bytes of the details."""
    ends_with_newline = not body or body[-1] != NO_NEWLINE
    lines = body if ends_with_newline else body[:-1]
    pieces = [decode_line(line, number) for number, line in enumerate(lines, start=1)]
    joined = b"\n".join(pieces)
    return joined + b"\n" if ends_with_newline and pieces else joined
