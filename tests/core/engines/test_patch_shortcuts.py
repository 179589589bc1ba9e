"""The shortcuts fs.patch takes on big files give the answers of the full computation.

- ``PatchResult.line_diff`` diffs only the lines each hunk replaced, where the full path
  diffs the whole old text against the whole new one. The text between the hunks is
  copied unchanged, so for one hunk both work on the same lines and give the same review,
  byte for byte. With several hunks the full path may pair equal lines across hunks (or
  name the other of two equal adjacent lines): the short diff then shows each change
  where its hunk made it. Always: it is a true diff (applied to the old text, it gives
  the new text exactly), so no changed character goes unshown, and it names no line
  outside the hunks as changed.
- ``TextFile.decodes_back`` says, without the round trip, whether decoding the encoded
  text gives the text back (then the new bytes are not decoded again).
- Hidden characters of ASCII text are looked for in its bytes, not in a new encoding.
- A hunk's place is found counting lines from where an earlier hunk's count stopped,
  searching from there when a place nearer than that is found, and the scan stops at the
  first place at or below the stated line: the places are those a scan of the whole text
  from its start finds.
- Through a whole plan: the review of a patch names the same invisible characters and
  lone carriage returns as a preview made from the planned bytes alone.
"""

from __future__ import annotations

import base64
import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from llm_operator.core.changes import FileChange
from llm_operator.core.engines.diffing import LineDiff, unified_diff
from llm_operator.core.engines.patch_placing import Counted, Place, nearest
from llm_operator.core.engines.patching import PatchResult, apply_unified_diff
from llm_operator.core.engines.textfile import BOM, TextFile
from llm_operator.core.errors import OperatorError
from llm_operator.core.plan.preview import preview_change
from llm_operator.core.plan.session import Session
from llm_operator.core.store import files, saved
from llm_operator.core.store.files import line_count
from llm_operator.core.store.fsaccess import locate
from llm_operator.core.visible import hidden_characters, hidden_note, is_plain, marker
from support.examples import examples
from support.fixtures import cmd

# Few distinct lines, so that texts repeat lines (blank lines, closing braces) as code does.
_LINE = st.sampled_from(["", "}", "a", "b", "x = 1", "  return x", "é", "a\u200b"])
_LINES = st.lists(_LINE, max_size=40)


def _text(lines: list[str], final_newline: bool) -> str:
    return "\n".join(lines) + ("\n" if final_newline and lines else "")


def _full(before: str, result: PatchResult) -> LineDiff:
    """The full computation: the whole old text diffed against the whole new one."""
    return LineDiff(before, result.text)


def _same_answers(before: str, result: PatchResult) -> None:
    short, full = result.line_diff(before), _full(before, result)
    assert short.before.total == full.before.total == line_count(before)
    assert short.after.total == full.after.total == line_count(result.text)
    assert short.unified("f.txt") == full.unified("f.txt")
    assert short.opcodes == full.opcodes
    # The landed lines come from the same opcodes and the same new lines.
    for tag, _i1, _i2, j1, j2 in short.opcodes:
        if tag != "equal":
            assert short.new_lines(j1, j2) == full.new_lines(j1, j2)


def _true_diff(before: str, result: PatchResult) -> None:
    """Whatever the patch: the short diff, applied to the old text, gives the new one, and
    every line it names as changed lies in a hunk's replaced lines."""
    short = result.line_diff(before)
    assert short.before.total == line_count(before)
    assert short.after.total == line_count(result.text)
    diff = short.unified("f.txt")
    if not diff:
        assert result.text == before
    else:
        assert apply_unified_diff(before, diff, "f.txt").text == result.text
    old_lines = {n for s in result.splices for n in range(s.old_line, s.old_line + s.old_count)}
    new_lines = {n for s in result.splices for n in range(s.new_line, s.new_line + s.new_count)}
    for tag, i1, i2, j1, j2 in short.opcodes:
        if tag != "equal":
            assert set(range(i1, i2)) <= old_lines
            assert set(range(j1, j2)) <= new_lines


@settings(max_examples=examples(400), deadline=None)
@given(_LINES, st.booleans(), _LINES, st.booleans(), st.integers(0, 5))
def test_a_patch_made_by_our_diff_gives_a_true_review(
    old: list[str], old_eol: bool, new: list[str], new_eol: bool, context: int
) -> None:
    before, after = _text(old, old_eol), _text(new, new_eol)
    patch = unified_diff(before, after, "f.txt", context=context)
    if not patch:
        return
    try:
        result = apply_unified_diff(before, patch, "f.txt")
    except OperatorError:
        return  # a patch without context may be ambiguous: refused, nothing to compare
    assert result.text == after
    _true_diff(before, result)


@st.composite
def _hunks(draw: st.DrawFn) -> tuple[str, str]:
    """An old text and a hand-written patch of it: hunks at random places whose removed
    lines may come back as added ones, with uneven context, as a model writes them."""
    old = draw(st.lists(_LINE, min_size=1, max_size=40))
    eol = draw(st.booleans())
    before = _text(old, eol)
    body: list[str] = []
    at = 0
    while at < len(old) and draw(st.booleans()):
        start = draw(st.integers(at, len(old) - 1))
        size = draw(st.integers(0, min(6, len(old) - start)))
        taken = old[start : start + size]
        kinds = [draw(st.sampled_from(" -")) for _ in taken]
        added = draw(st.lists(_LINE, max_size=4))
        if not taken and not added:
            continue
        lines = [kind + line for kind, line in zip(kinds, taken, strict=True)]
        where = draw(st.integers(0, len(lines)))
        lines[where:where] = ["+" + line for line in added]
        old_count = len(taken)
        new_count = sum(1 for line in lines if line[0] in " +")
        first = start + 1 if old_count else start
        body.append(f"@@ -{first},{old_count} +{first},{new_count} @@")
        body.extend(lines)
        if start + size == len(old) and not eol:
            body.append("\\ No newline at end of file")
        at = start + size + 1
    return before, "\n".join(body) + "\n"


@settings(max_examples=examples(600), deadline=None)
@given(_hunks())
def test_any_patch_gives_a_true_review_diff(case: tuple[str, str]) -> None:
    before, patch = case
    try:
        result = apply_unified_diff(before, patch, "f.txt")
    except OperatorError:
        return  # refused (ambiguous, overlapping, no lines...): nothing is shown
    _true_diff(before, result)


def test_hunks_among_distinct_lines_give_the_full_review_byte_for_byte() -> None:
    # A big file with distinct lines, three hunks far apart (as the benchmark): nothing
    # to choose between, so the short review is the full one.
    lines = [f"line {n} of the file" for n in range(6000)]
    before = "\n".join(lines) + "\n"
    for n in (100, 3000, 5990):
        lines[n] = lines[n].replace("of", "in")
        lines.insert(n + 1, "an added line")
    after = "\n".join(lines) + "\n"
    result = apply_unified_diff(before, unified_diff(before, after, "f.txt"), "f.txt")
    assert result.text == after
    assert len(result.splices) == 3
    _same_answers(before, result)
    _true_diff(before, result)


def test_an_insertion_among_equal_lines_is_shown_where_the_hunk_made_it() -> None:
    # The full diff slides an inserted blank line past the equal ones after it.
    before = "\n\n\n"
    result = apply_unified_diff(before, "@@ -1,0 +2 @@\n+\n", "f.txt")
    assert result.text == "\n\n\n\n"
    _true_diff(before, result)
    assert result.line_diff(before).unified("f.txt").endswith("@@ -1,3 +1,4 @@\n \n+\n \n \n")
    assert _full(before, result).unified("f.txt").endswith("@@ -1,3 +1,4 @@\n \n \n \n+\n")


def test_two_hunks_show_each_change_where_its_hunk_made_it() -> None:
    # Two blank lines at the end, one removed by the second hunk: the full diff names the
    # other of the two equal lines. Both are true; the short one follows the hunk.
    before = "\n}\n}\n}\n\n\n"
    patch = "@@ -1,2 +1 @@\n-\n }\n@@ -4,3 +3,2 @@\n }\n-\n \n"
    result = apply_unified_diff(before, patch, "f.txt")
    assert result.text == "}\n}\n}\n\n"
    _true_diff(before, result)
    short = result.line_diff(before).unified("f.txt")
    assert short.endswith(" }\n \n-\n")
    assert _full(before, result).unified("f.txt").endswith(" }\n-\n \n")


@settings(max_examples=examples(400), deadline=None)
@given(_LINES, st.booleans(), _LINES, st.booleans(), st.booleans())
def test_a_result_put_together_from_the_bytes_is_the_result_from_the_text(
    old: list[str], old_eol: bool, new: list[str], new_eol: bool, ascii_only: bool
) -> None:
    if ascii_only:
        old = [line for line in old if line.isascii()]
    before, after = _text(old, old_eol), _text(new, new_eol)
    patch = unified_diff(before, after, "f.txt")
    if not patch:
        return
    try:
        plain = apply_unified_diff(before, patch, "f.txt")
    except OperatorError:
        return
    raw = before.encode("utf-8")
    joined = apply_unified_diff(before, patch, "f.txt", raw=raw)
    assert joined == plain
    assert (joined.text, joined.splices, joined.old_lines, joined.new_lines) == (
        plain.text,
        plain.splices,
        plain.old_lines,
        plain.new_lines,
    )
    assert joined.data == (joined.text.encode("utf-8") if before.isascii() else None)
    assert plain.data is None
    file = TextFile.decode(raw)
    assert file.encode(joined.text, joined.kept, joined.data) == file.encode(plain.text)


def test_bytes_that_cannot_be_the_text_are_not_used() -> None:
    patch = "@@ -1 +1 @@\n-a\n+b\n"
    assert apply_unified_diff("a\n", patch, "f", raw=b"a\r\n").data is None  # not its length
    assert apply_unified_diff("a\n", patch, "f", raw=b"a\n").data == b"b\n"
    # A file whose bytes are not its text in UTF-8 is encoded as always.
    crlf = TextFile.decode(b"a\r\n")
    assert crlf.encode("b\n", None, b"b\n") == b"b\r\n"
    with_bom = TextFile.decode(BOM + b"a\n")
    assert with_bom.encode("b\n", None, b"b\n") == BOM + b"b\n"


def test_a_line_removed_and_added_back_is_not_shown_as_changed() -> None:
    before = "a\nb\nc\n"
    result = apply_unified_diff(before, "@@ -1,3 +1,3 @@\n a\n-b\n+b\n c\n", "f.txt")
    assert result.text == before
    assert result.line_diff(before).unified("f.txt") == ""
    assert result.line_diff(before).opcodes == [("equal", 0, 3, 0, 3)]


def test_a_changed_end_of_file_newline_is_shown() -> None:
    before = "a\nb"
    patch = "@@ -2 +2 @@\n-b\n\\ No newline at end of file\n+b\n"
    result = apply_unified_diff(before, patch, "f.txt")
    assert result.text == "a\nb\n"
    assert result.line_diff(before).unified("f.txt") == unified_diff(before, "a\nb\n", "f.txt")


# -- decodes_back -----------------------------------------------------------------------

_BREAKS = st.sampled_from(["\n", "\r\n", "\r"])
_CHARS = st.sampled_from(["a", "é", "\ufeff", "\r", "\n", " ", "\u2028"])


@st.composite
def _files(draw: st.DrawFn) -> bytes:
    """File bytes: a BOM or none, lines broken by one style or several."""
    lines = draw(st.lists(st.text(st.sampled_from(["a", "é", "\ufeff", " "]), max_size=4)))
    breaks = [draw(_BREAKS) for _ in lines]
    body = "".join(line + brk for line, brk in zip(lines, breaks, strict=True))
    return (BOM if draw(st.booleans()) else b"") + body.encode("utf-8")


@settings(max_examples=examples(600), deadline=None)
@given(_files(), st.text(_CHARS, max_size=12))
def test_decodes_back_says_exactly_when_the_round_trip_gives_the_text(
    data: bytes, text: str
) -> None:
    file = TextFile.decode(data)
    comes_back = TextFile.decode(file.encode(text)).text == text
    if file.mixed_newlines:
        assert not file.decodes_back(text)  # not known: decoded again
    else:
        assert file.decodes_back(text) == comes_back


@settings(max_examples=examples(400), deadline=None)
@given(
    st.text(st.sampled_from(["a", "\n", "\r"]), min_size=1, max_size=12),
    st.text(st.sampled_from(["a", "b", "\n"]), max_size=12),
)
@example(old="a\n\n\r\ra", text="\n\n\n\n")  # a CR made LF makes the CR before it merge
@example(old="\n\r", text="\n\n\n")
@example(old="echo a\n# c\rrm -rf ~/x\necho b\n", text="echo a\n# c\n\nrm -rf ~/x\necho b\n")
def test_a_mixed_file_gives_back_any_text_it_encodes(old: str, text: str) -> None:
    """A CR break kept before an empty line with an LF break would read back as one CRLF
    break (a line gone): that line takes the usual break, so every text comes back."""
    try:
        file = TextFile.decode(old.encode())
    except OperatorError:
        return
    assert TextFile.decode(file.encode(text)).text == text


# -- hidden characters, looked at in the new bytes --------------------------------------

_ANY = st.sampled_from(["a", " ", "\t", "\n", "\x1b", "\x00", "\x7f", "é", "\u202e", "\u200b"])


@settings(max_examples=examples(600), deadline=None)
@given(st.text(_ANY, max_size=30))
def test_hidden_characters_in_the_bytes_are_those_of_the_text(text: str) -> None:
    data = text.encode("utf-8")
    assert hidden_characters(text, data) == hidden_characters(text)
    assert hidden_note(text, data=data) == hidden_note(text)


def test_bytes_that_are_not_the_text_are_not_trusted() -> None:
    # Only bytes of the text's length can be its ASCII bytes; others are not looked at.
    assert hidden_characters("ab", b"a\x1bb") == (0, ())
    assert hidden_characters("a\x1b", b"a\x1b\x00") == (1, ("U+001B",))


# -- the whole plan: what fs.patch shows against the full computation -------------------

_ADDED = st.sampled_from(["x", "é", "\u202e", "\u200b", "\x1b[2K", "a\rb", "\ufeffz", ""])


@st.composite
def _file_and_patch(draw: st.DrawFn) -> tuple[bytes, str]:
    """A file in some break style, with or without BOM, and a one- or two-hunk patch of it
    that may add invisible characters, a CR inside a line or a BOM character."""
    lines = [f"line {n}" for n in range(draw(st.integers(3, 30)))]
    style = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    bom = BOM if draw(st.booleans()) else b""
    data = bom + "".join(line + style for line in lines).encode("utf-8")
    hunks = []
    for start in sorted(draw(st.sets(st.integers(0, len(lines) - 1), min_size=1, max_size=2))):
        added = draw(st.lists(_ADDED, min_size=1, max_size=3))
        removed = draw(st.booleans())
        body = [("-" if removed else " ") + lines[start], *("+" + line for line in added)]
        new = len(added) + (0 if removed else 1)
        hunks.append(f"@@ -{start + 1},1 +{start + 1},{new} @@\n" + "\n".join(body) + "\n")
    return data, "".join(hunks)


def _hidden_by_the_one_rule(before: bytes, after: bytes) -> str | None:
    """The review's hidden-character line, worked out the slow way: the new content as
    the diff reads it (every CR a break, the BOM dropped unless new), every character
    tried against the one rule (``is_plain``)."""
    landed = TextFile.decode(after)
    raw = after.decode("utf-8")
    if before.startswith(BOM) and landed.bom:
        raw = raw[1:]
    raw = raw.replace("\r\n", "\n")
    lone = raw.count("\r")
    raw = raw.replace(
        "\r", "\n" if not lone or (landed.newline == "\r" and not landed.mixed_newlines) else ""
    )
    found = [char for char in raw if char not in "\t\n" and not is_plain(char, one_line=False)]
    if not found:
        return None
    names = list(dict.fromkeys(marker(char)[1:-1] for char in found))
    listed = ", ".join(names[:5]) + (", ..." if len(names) > 5 else "")
    noun = "character" if len(found) == 1 else "characters"
    return f"the new content holds {len(found)} invisible or control {noun} ({listed})"


@settings(
    max_examples=examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@example(case=(b"line 0\nline 1\n", "@@ -1,1 +1,2 @@\n line 0\n+\x1b[2K\n"))  # ASCII
@example(case=(b"line 0\nline 1\n", "@@ -1,1 +1,2 @@\n line 0\n+a\u202eb\n"))
@given(case=_file_and_patch())
def test_a_patch_review_names_every_hidden_character_the_full_path_names(
    case: tuple[bytes, str], workspace: Path, make_session: Callable[[], Session]
) -> None:
    data, patch = case
    (workspace / "f.txt").write_bytes(data)
    encoded = base64.b64encode(patch.encode("utf-8")).decode()
    run = make_session().prepare(cmd("p1", "fs.patch", path="f.txt", patch_b64=encoded))
    (item,) = run.pending
    assert item.plan is not None
    (change,) = item.plan.changes.changes
    (shown,) = item.previews
    # The full computation: the planned bytes decoded and diffed from scratch, and every
    # character of the new text looked at as the one rule for every character does.
    full = preview_change(FileChange(change.path, change.before, change.after))
    assert shown.hidden == full.hidden
    assert shown.breaks == full.breaks
    assert shown.hidden == _hidden_by_the_one_rule(data, change.after or b"")
    assert change.after_text == TextFile.decode(change.after or b"").text
    old_file = TextFile.decode(data)
    old_text = old_file.text
    assert apply_unified_diff(old_text, shown.diff, "f.txt").text == change.after_text
    # The bytes to write are those of the full path: the patched text encoded again.
    full_result = apply_unified_diff(old_text, patch, "f.txt")
    assert change.after == old_file.encode(full_result.text, full_result.kept)


# -- placing hunks: fewer passes, the same places ---------------------------------------


def _nearest_from_the_start(
    text: str, needle: str, stated: int, fits: Callable[[int], bool]
) -> list[Place]:
    """The places as found before the shortcuts: every occurrence from the start of the
    text, each line counted from line 0, the scan run on past the best place."""
    best: list[Place] = []
    best_distance = 0
    line, counted_to = 0, 0
    found = text.find(needle)
    while found != -1:
        line += text.count("\n", counted_to, found)
        counted_to = found
        distance = abs(line - stated)
        if best and line - stated > best_distance:
            break
        end = found + len(needle)
        if (found == 0 or text[found - 1] == "\n") and fits(end):
            if not best or distance < best_distance:
                best, best_distance = [Place(line, found, end)], distance
            elif distance == best_distance and best[-1].line != line:
                best.append(Place(line, found, end))
        found = text.find(needle, found + 1)
    return best


@settings(max_examples=examples(600), deadline=None)
@given(
    _LINES,
    st.booleans(),
    st.lists(
        st.tuples(st.lists(_LINE, min_size=1, max_size=3), st.integers(0, 45), st.integers(1, 4)),
        min_size=1,
        max_size=4,
    ),
)
def test_hunks_are_placed_where_the_scan_from_the_start_places_them(
    lines: list[str], final_newline: bool, asks: list[tuple[list[str], int, int]]
) -> None:
    text = _text(lines, final_newline)
    known = Counted()  # shared by the hunks of one patch, as apply_unified_diff shares it
    for needle_lines, stated, every in asks:
        needle = "\n".join(needle_lines) + "\n"

        def fits(end: int, every: int = every) -> bool:
            return end % every == 0  # some places do not fit, as at the file's end

        assert nearest(text, needle, stated, fits, known) == _nearest_from_the_start(
            text, needle, stated, fits
        )


# -- reading a file: as many bytes as it holds, never fewer -----------------------------


def _grown_after_fstat(monkeypatch: pytest.MonkeyPatch, shown_size: int) -> None:
    """fstat tells of ``shown_size`` bytes: the file grew between fstat and the read."""
    real = os.fstat

    def fstat(fd: int) -> os.stat_result:
        info = real(fd)
        fields = list(info)
        fields[stat.ST_SIZE] = shown_size
        return os.stat_result(fields)

    monkeypatch.setattr(files.os, "fstat", fstat)


def test_a_file_that_grew_while_being_read_is_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = bytes(range(256)) * 40
    (tmp_path / "f.bin").write_bytes(data)
    with locate(tmp_path, "f.bin") as spot:
        assert files.read_at(spot) == data
        _grown_after_fstat(monkeypatch, 10)
        assert files.read_at(spot) == data  # not cut at the size fstat told


def test_a_file_that_grew_past_the_limit_while_being_read_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "f.bin").write_bytes(b"x" * 100)
    _grown_after_fstat(monkeypatch, 10)
    with locate(tmp_path, "f.bin") as spot, pytest.raises(OperatorError) as refused:
        files.read_at(spot, limit=50)
    assert refused.value.code == "ERR_FILE_TOO_LARGE"
    with locate(tmp_path, "f.bin") as spot:
        assert files.read_at(spot, limit=100) == b"x" * 100


# -- the check before writing: every byte compared, a piece at a time --------------------


def _holds(folder: Path, name: str, expected: bytes) -> bool:
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        return saved.holds_exactly(fd, name, expected)
    finally:
        os.close(fd)


@settings(max_examples=examples(300), deadline=None)
@given(
    st.binary(max_size=3000),
    st.sampled_from(["same", "flip", "longer", "shorter", "other"]),
    st.integers(0, 10_000),
    st.sampled_from([1, 7, 64, 4096]),
)
def test_holds_exactly_answers_as_a_full_read_and_compare(
    expected: bytes, change: str, where: int, chunk: int
) -> None:
    data = bytearray(expected)
    if change == "flip" and data:
        data[where % len(data)] ^= 0xFF
    elif change == "longer":
        data[where % (len(data) + 1) : where % (len(data) + 1)] = b"x"
    elif change == "shorter" and data:
        del data[where % len(data)]
    elif change == "other":
        data = bytearray(b"%d" % where)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "f").write_bytes(bytes(data))
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            full = saved.read_file_at(fd, "f") == expected
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(saved, "COMPARE_CHUNK", chunk)  # pieces of every size
                assert saved.holds_exactly(fd, "f", expected) == full
        finally:
            os.close(fd)


def test_a_changed_byte_anywhere_in_a_big_file_is_seen(tmp_path: Path) -> None:
    expected = bytes(range(256)) * 4000  # about 1 MB: several pieces
    for at in (0, saved.COMPARE_CHUNK - 1, saved.COMPARE_CHUNK, len(expected) - 1):
        changed = bytearray(expected)
        changed[at] ^= 1
        (tmp_path / "f").write_bytes(bytes(changed))
        assert not _holds(tmp_path, "f", expected)
    (tmp_path / "f").write_bytes(expected + b"\n")
    assert not _holds(tmp_path, "f", expected)
    (tmp_path / "f").write_bytes(expected[:-1])
    assert not _holds(tmp_path, "f", expected)
    (tmp_path / "f").write_bytes(expected)
    assert _holds(tmp_path, "f", expected)
    (tmp_path / "f").write_bytes(b"")
    assert _holds(tmp_path, "f", b"")
    assert not _holds(tmp_path, "f", b"x")


def test_a_place_as_near_as_the_counted_offset_is_looked_for_before_it() -> None:
    # The first hunk's scan stops counting inside line 2 ("pq", at its "q"); the second
    # hunk, stated at line 4, finds "pq" at line 6 from there: two lines away, as far as
    # line 2 is. The "pq" that starts line 2, before the counted offset, is as near: both
    # are named (ambiguous), as the scan from the start names them.
    text = "q\nA\npq\nA\nb\nc\npq\nB\n"
    known = Counted()
    assert nearest(text, "q\nA\n", 5, lambda end: True, known) == [Place(0, 0, 4)]
    assert known.up_to_line(4) == (5, 2)  # inside line 2
    both = nearest(text, "pq\n", 4, lambda end: True, known)
    assert both == _nearest_from_the_start(text, "pq\n", 4, lambda end: True)
    assert [place.line for place in both] == [2, 6]
