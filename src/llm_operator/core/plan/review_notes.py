"""What a diff does not show, told in a review's "Look closely" lines: invisible and
control characters, lone carriage returns, line breaks that change, letters of one
script passing for another, and changed lines that look the same as before.

Invariant: every note is bounded work whatever the change (LOOK_CHARS letters looked
up at most); a note that stopped early says so.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..engines.textfile import BOM, TextFile
from ..visible import hidden_note
from ..wording import counted
from .diff_rows import DiffLine, pairs

if TYPE_CHECKING:
    from ..engines.diffing import LineDiff


def hidden_characters(
    before: bytes | None, after: bytes | None, text: str
) -> tuple[str | None, str | None]:
    """What ``after``'s bytes hold that the diff cannot show: invisible or control
    characters (a BOM the file did not have included), and lone carriage returns in a
    file whose lines end otherwise. The diff reads text as fs.read does (every CR a line
    break, the BOM dropped), so both are counted here from the bytes; ``text`` is the
    decoded ``after``, all there is to look at when it has no CR and no BOM."""
    if after is None:
        return None, None
    if b"\r" not in after and not after.startswith(BOM):
        return hidden_note(text, data=after), None  # ``after`` is ``text`` in UTF-8
    landed = TextFile.decode(after)
    raw = after.decode("utf-8")
    if before is not None and before.startswith(BOM) and landed.bom:
        raw = raw[1:]  # the file keeps the BOM it had
    raw = raw.replace("\r\n", "\n")
    lone = raw.count("\r")
    if not lone or (landed.newline == "\r" and not landed.mixed_newlines):
        return hidden_note(raw.replace("\r", "\n")), None
    breaks = (
        f"Look closely: the new content holds {counted(lone, 'lone carriage return')} "
        "(U+000D); the diff shows each as a line break, but in the file it stays inside its "
        "line, where most editors and tools do not break it"
    )
    return hidden_note(raw.replace("\r", "")), breaks


# Scripts whose letters look like Latin ones (and each other's): a word that mixes them is
# how "p\u0430ypal" (a Cyrillic a) passes for "paypal".
_LOOK_ALIKE_SCRIPTS = ("LATIN", "CYRILLIC", "GREEK", "ARMENIAN", "CHEROKEE", "COPTIC")


def _script(char: str) -> str | None:
    import unicodedata

    if not char.isalpha():
        return None
    name = unicodedata.name(char, "")
    return next((s for s in _LOOK_ALIKE_SCRIPTS if name.startswith(s + " ")), None)


def _mixed_word(line: str) -> tuple[str, str, str] | None:
    """The first letter of ``line`` whose word mixes scripts that look alike: (the
    letter, its script, the word's other script)."""
    for word in re.findall(r"[^\W\d_]+", line):
        if word.isascii():
            continue
        # Each distinct letter looked up once (a word may be millions of letters long).
        script_of = {char: script for char in set(word) if (script := _script(char))}
        scripts = set(script_of.values())
        if len(scripts) < 2:
            continue
        main = "LATIN" if "LATIN" in scripts else sorted(scripts)[0]
        char = min((char for char, script in script_of.items() if script != main), key=word.find)
        return char, script_of[char], main
    return None


# The most characters of new lines, not ASCII, looked at for look-alike letters in one
# preview (each letter's script is a lookup: forty million took minutes); the review
# says how many more there were.
LOOK_CHARS = 500_000
# A letter outside ASCII (a word character that is no digit, no underscore, no a-z/A-Z).
_NON_ASCII_LETTER = re.compile(r"[^\W\d_a-zA-Z]")


def _odd_letter(line: str) -> tuple[str, str, str] | None:
    """The first letter of ``line`` that passes for another: one in a word of another
    script (what the line says of it, the letter, and how it passes), or a compatibility
    form of an ASCII letter (fullwidth, mathematical, the script small l)."""
    import unicodedata

    mixed = _mixed_word(line)
    if mixed is not None:
        char, _, main = mixed
        return "a word mixing letters of two scripts", char, f"among {main.title()} letters"
    for found in _NON_ASCII_LETTER.finditer(line):  # found in C: a line may be megabytes
        char = found.group()
        if char.isalpha():
            folded = unicodedata.normalize("NFKC", char)
            if folded != char and folded.isascii() and folded.isalpha():
                return "a letter in a form that passes for another", char, f"read as {folded}"
    return None


def mixed_scripts(rows: tuple[DiffLine, ...]) -> str | None:
    """A review line for new lines with a letter that passes for another: a word whose
    letters come from two scripts that look alike (Latin with Cyrillic or Greek...), or a
    fullwidth or mathematical form of an ASCII letter. It reads as another word, and a
    person comparing it with the old line sees no change."""
    import unicodedata

    found: list[tuple[int | None, tuple[str, str, str]]] = []
    left = LOOK_CHARS
    unchecked = 0
    for row in rows:
        if row.kind != "added" or row.text.isascii():
            continue
        text = row.text[: max(left, 0)]
        unchecked += len(row.text) - len(text)
        left -= len(text)
        if text and (odd := _odd_letter(text)):
            found.append((row.new_no, odd))
    rest = (
        f"{unchecked:,} characters of new lines past the first {LOOK_CHARS:,} were not "
        "looked at for such letters"
    )
    if not found:
        return f"Look closely: {rest}" if unchecked else None
    line, (what, char, how) = found[0]
    return (
        f"Look closely: {counted(len(found), 'new line')} {'has' if len(found) == 1 else 'have'} "
        f"{what} (new line {line}: U+{ord(char):04X} {unicodedata.name(char, '?')} {how})"
        + (f"; {rest}" if unchecked else "")
    )


_BREAK_NAMES = {b"\r\n": "CRLF (\\r\\n)", b"\n": "LF (\\n)", b"\r": "CR (\\r)"}


def _endings(data: bytes) -> list[bytes]:
    """The line break after each line of ``data``, as the diff numbers its lines (every
    CRLF, LF and lone CR ends one); a last line without one has none."""
    return re.findall(rb"\r\n|\r|\n", data)


def ending_changes(before: bytes | None, after: bytes | None, lines: LineDiff) -> str | None:
    """A review line for lines whose break turns from LF to CRLF or back, or from a lone
    CR to either: the diff reads text as fs.read does (every break a line break), so such
    a line shows as unchanged, or not at all, while ``cd dir\\r`` in a script is another
    command, and a comment ended by a lone CR hides the command after it. A kept line is
    compared with its old break, a changed one with the break of the old line in its
    place, a new one with the break most of the old file's lines have; in a new file every
    CRLF is named. New lone CRs have a note of their own (``_hidden``)."""
    if after is None or (b"\r" not in after and (before is None or b"\r" not in before)):
        return None  # no CR on either side: every break is an LF, as the diff shows it
    new = _endings(after)
    old = _endings(before) if before is not None else []
    usual = max((b"\r\n", b"\n"), key=old.count) if old else b"\n"
    changed: dict[tuple[bytes, bytes], list[int]] = {}  # (to, was) -> [first row, count]

    def note(to: bytes, was: bytes, row: int, count: int = 1) -> None:
        seen = changed.setdefault((to, was), [row, 0])
        seen[0], seen[1] = min(seen[0], row), seen[1] + count

    for tag, i1, i2, j1, j2 in lines.opcodes:
        if tag == "equal" and new[j1:j2] == old[i1:i2]:
            continue  # kept lines with their breaks (compared in C: most of a big file)
        end = min(j2, len(new))
        paired = max(0, min(i2, len(old)) - i1) if tag in ("equal", "replace") else 0
        for j in range(j1, min(j1 + paired, end)):  # each with the old line's break
            if new[j] != old[i1 + j - j1] and new[j] != b"\r":
                note(new[j], old[i1 + j - j1], j + 1)
        # The lines past the old ones, with the file's usual break: counted in C (an edit
        # list can make forty million of them).
        rest = new[min(j1 + paired, end) : end]
        for to in (b"\r\n", b"\n"):
            if to != usual and (count := rest.count(to)):
                note(to, usual, min(j1 + paired, end) + rest.index(to) + 1, count)
    parts = []
    for (to, other), (first, count) in sorted(changed.items(), key=lambda item: item[1][0]):
        where = f"new line {first}" + (", ..." if count > 1 else "")
        if before is None:
            parts.append(
                f"{counted(count, 'line')} of the new file end in {_BREAK_NAMES[to]} ({where})"
            )
        else:
            parts.append(
                f"{counted(count, 'line')} will end in {_BREAK_NAMES[to]}, "
                f"not {_BREAK_NAMES[other]} as the file's lines did ({where})"
            )
    if not parts:
        return None
    return f"Look closely: {'; '.join(parts)}; the diff does not show line breaks"


_BLANKS = re.compile(r"[ \t]+")

# Letters that print like a Latin one, mapped to it (the usual suspects of Unicode's
# confusables: Cyrillic, Greek, Latin IPA, Armenian); with NFKC for fullwidth,
# mathematical and other compatibility forms, they make a line's "skeleton".
_CONFUSABLE = {
    ord(other): latin
    for latin, others in {
        "a": "\u0430\u0251",
        "c": "\u0441\u03f2",
        "d": "\u0501",
        "e": "\u0435",
        "g": "\u0261",
        "h": "\u04bb",
        "i": "\u0456",
        "j": "\u0458",
        "n": "\u0578",
        "o": "\u043e\u03bf\u0585",
        "p": "\u0440\u03c1",
        "s": "\u0455",
        "u": "\u057d",
        "v": "\u03bd",
        "x": "\u0445",
        "y": "\u0443\u04af",
        "A": "\u0410\u0391",
        "B": "\u0412\u0392",
        "C": "\u0421",
        "E": "\u0415\u0395",
        "H": "\u041d\u0397",
        "I": "\u0406\u04c0\u0399",
        "J": "\u0408",
        "K": "\u041a\u039a",
        "M": "\u041c\u039c",
        "N": "\u039d",
        "O": "\u041e\u039f",
        "P": "\u0420\u03a1",
        "S": "\u0405",
        "T": "\u0422\u03a4",
        "X": "\u0425\u03a7",
        "Y": "\u03a5",
        "Z": "\u0396",
    }.items()
    for other in others
}


def _skeleton(text: str) -> str:
    """``text`` as it looks: compatibility forms folded (NFKC), look-alike letters of other
    alphabets taken for the Latin ones they print like."""
    import unicodedata

    return unicodedata.normalize("NFKC", text).translate(_CONFUSABLE)


def look_alike(rows: tuple[DiffLine, ...]) -> str | None:
    """A review line for changed lines that a person cannot tell from their old version:
    the same characters in another Unicode form (``é`` as ``e`` + U+0301), other
    trailing spaces or tabs, or a tab for spaces (or back) anywhere in the line. The diff
    shows them as changed but not what changed."""
    import unicodedata

    found: list[tuple[int, str]] = []
    for old, new in pairs(rows):
        if old.text == new.text or new.new_no is None:
            continue
        if old.text.rstrip(" \t") == new.text.rstrip(" \t"):
            found.append((new.new_no, "only its trailing spaces or tabs differ"))
        elif _BLANKS.sub(" ", old.text) == _BLANKS.sub(" ", new.text):
            # A tab and spaces print alike, and a Makefile recipe needs its tab.
            found.append((new.new_no, "only its spaces and tabs differ"))
        elif unicodedata.normalize("NFKC", old.text) == unicodedata.normalize("NFKC", new.text):
            found.append((new.new_no, "the same letters written in another Unicode form"))
        elif _skeleton(old.text) == _skeleton(new.text):
            found.append(
                (new.new_no, "letters swapped for ones of another alphabet that look alike")
            )
    if not found:
        return None
    line, why = found[0]
    return (
        f"Look closely: {counted(len(found), 'changed line')} will look as before "
        f"(new line {line}: {why})"
    )
