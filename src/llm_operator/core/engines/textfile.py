"""Text files as the edit engines see them, and back to bytes exactly as they were.

Invariants:
- Engines work on ``TextFile.text``: no BOM, line breaks normalised to ``\\n``.
- ``TextFile.encode(text)`` puts back the BOM and the file's line-break style, so a file
  whose text is unchanged encodes to the very same bytes it was decoded from.
- CRLF, a lone CR (classic Mac) and LF all end a line. A file whose line breaks are mixed
  is normalised like any other, but each line's own break is remembered: ``encode`` gives
  every line an edit left in place its old break back, so untouched lines keep their
  bytes; new lines take the file's most common break.
- The final-newline state is part of the text; nothing here adds or strips it.
- Bytes that are not UTF-8 raise ``ERR_ENCODING_ERROR``; nothing is guessed.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..errors import OperatorError

BOM = b"\xef\xbb\xbf"
_BREAK = re.compile(r"\r\n|\r|\n")
_BREAK_NAMES = {"\r\n": "CRLF", "\r": "CR", "\n": "LF"}


def _line_break_style(text: str) -> str | None:
    """The single line break used throughout ``text``, or None if mixed or absent."""
    if "\r" not in text:  # the common case, found in one fast scan
        return "\n"
    crlf = text.count("\r\n")
    cr = text.count("\r") - crlf
    lf = text.count("\n") - crlf
    kinds = [(crlf, "\r\n"), (cr, "\r"), (lf, "\n")]
    present = [style for count, style in kinds if count]
    if len(present) == 1:
        return present[0]
    return None if present else "\n"


def split_lines(text: str) -> tuple[list[str], bool]:
    """The lines of LF ``text`` without their breaks, and whether it ends with a break.

    Empty text has no lines and counts as ending with a break, so an edit that adds lines
    to an empty file ends them with one.
    """
    if not text:
        return [], True
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
        return lines, True
    return lines, False


def file_lines(text: str) -> list[str]:
    """The lines of decoded file text, numbered as every other action numbers them.

    Only ``\n`` ends a line: ``str.splitlines`` would also split at form feeds, vertical
    tabs and U+2028, and the line numbers shown here would then disagree with fs.search,
    fs.searchTree and the edit actions. A CR left at a line end (mixed line endings) is
    not shown.
    """
    if not text:
        return []
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


@dataclass(frozen=True)
class TextFile:
    """A file's text as the engines edit it (LF breaks, no BOM), and what writing it back
    needs: its BOM and line breaks."""

    text: str
    bom: bool = False
    newline: str = "\n"
    mixed_newlines: bool = False
    # For mixed files only: the break after each line of ``text`` (len = its "\n" count).
    line_breaks: tuple[str, ...] = field(default=(), repr=False)

    @classmethod
    def decode(cls, data: bytes, path: str = "") -> TextFile:
        bom = data.startswith(BOM)
        body = data[len(BOM) :] if bom else data
        try:
            raw = body.decode("utf-8")
        except UnicodeDecodeError as exc:
            where = f"{path} " if path else ""
            raise OperatorError(
                "ERR_ENCODING_ERROR",
                f"{where}is not valid UTF-8 (byte {exc.start} is 0x{body[exc.start]:02x}); "
                "the file was left untouched",
                {"byte_offset": exc.start},
            ) from None
        style = _line_break_style(raw)
        if style is None:
            breaks = tuple(_BREAK.findall(raw))
            dominant = Counter(breaks).most_common(1)[0][0]
            text = _BREAK.sub("\n", raw)
            return cls(text, bom, dominant, mixed_newlines=True, line_breaks=breaks)
        if style != "\n":
            raw = raw.replace(style, "\n")
        return cls(raw, bom, style)

    @property
    def breaks_note(self) -> str:
        """What a read says about the file's line breaks, since it shows them all as LF:
        "" for LF, else their style (mixed: each kind with how many lines end in it)."""
        if self.mixed_newlines:
            counts = Counter(self.line_breaks).most_common()
            kinds = " + ".join(f"{count} {_BREAK_NAMES[kind]}" for kind, count in counts)
            return f"mixed line endings: {kinds}"
        return "" if self.newline == "\n" else f"{_BREAK_NAMES[self.newline]} line endings"

    def decodes_back(self, text: str) -> bool:
        """Whether ``TextFile.decode(self.encode(text)).text == text``, told without the
        round trip (False may also mean "not known": a file with mixed breaks).

        Decoding leaves no CR in a text and drops a leading BOM; encoding puts a BOM back
        only where the file had one, and turns every LF into the file's one break. So in a
        file with one break style the text comes back exactly when it holds no CR and, in
        a file without a BOM, does not begin with U+FEFF (the BOM's character). In a file
        with mixed breaks, a line kept with a CR break before one with an LF break would
        read back as one CRLF break: those are decoded again."""
        if self.mixed_newlines:
            return False
        return "\r" not in text and (self.bom or not text.startswith("\ufeff"))

    def encode(
        self,
        text: str,
        kept: Sequence[tuple[int, int, int]] | None = None,
        utf8: bytes | None = None,
    ) -> bytes:
        """``text`` (LF line breaks) as bytes in this file's BOM and line-break style.

        ``kept`` (runs of untouched lines: first old line, first new line, count), when the
        edit knows them, says exactly which lines keep their own break in a file with mixed
        breaks; without it they are found by matching the old and new lines. ``utf8``:
        ``text`` in UTF-8, when the edit has it: a file with LF breaks and no BOM is those
        very bytes, not encoded again.
        """
        if utf8 is not None and not self.bom and self.newline == "\n" and not self.mixed_newlines:
            return utf8
        if self.mixed_newlines and kept is not None:
            text = self._breaks_of_runs(text.replace("\r\n", "\n"), kept)
        elif self.mixed_newlines:
            text = self._restore_breaks(text.replace("\r\n", "\n"))
        elif self.newline != "\n":
            text = text.replace("\r\n", "\n").replace("\n", self.newline)
        data = text.encode("utf-8")
        return BOM + data if self.bom else data

    def _breaks_of_runs(self, text: str, kept: Sequence[tuple[int, int, int]]) -> str:
        new = text.split("\n")
        breaks = [self.newline] * (len(new) - 1)
        for old_first, new_first, count in kept:
            for k in range(count):
                if new_first + k < len(breaks) and old_first + k < len(self.line_breaks):
                    breaks[new_first + k] = self.line_breaks[old_first + k]
        return self._joined(new, breaks)

    def _joined(self, new: list[str], breaks: list[str]) -> str:
        """The lines with their breaks; a CR break right before an empty line whose own
        break starts with LF would read back as one CRLF break (the empty line gone, the
        lines after it one up), so that line takes the file's usual break instead. From the
        last line back: a break made LF so can make the CR before it another such case."""
        usual = self.newline if self.newline != "\r" else "\r\n"
        for index in range(len(breaks) - 2, -1, -1):
            if breaks[index] == "\r" and not new[index + 1] and breaks[index + 1][0] == "\n":
                breaks[index] = usual
        return "".join(
            line + (breaks[index] if index < len(breaks) else "") for index, line in enumerate(new)
        )

    def _restore_breaks(self, text: str) -> str:
        # The review's line diff pairs the kept lines: fast on big texts, never quadratic
        # (difflib without its junk heuristic took minutes on 200,000 blank lines).
        from .diffing import line_opcodes

        new = text.split("\n")
        breaks = [self.newline] * (len(new) - 1)
        for tag, i1, i2, j1, _ in line_opcodes(self.text, text):
            if tag != "equal":
                continue
            for k in range(i2 - i1):
                if j1 + k < len(breaks) and i1 + k < len(self.line_breaks):
                    breaks[j1 + k] = self.line_breaks[i1 + k]
        return self._joined(new, breaks)
