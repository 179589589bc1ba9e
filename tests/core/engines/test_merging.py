"""The three-way merge of a planned edit into a file changed outside the app."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from llm_operator.core.engines.merging import Lines, merge3
from support.examples import examples

# Texts of few distinct lines, so lines repeat, with or without a final newline.
TEXTS = st.lists(st.sampled_from(["a", "b", "", "c d", "é"]), max_size=12).flatmap(
    lambda lines: st.sampled_from(["\n".join(lines), "\n".join(lines) + "\n" if lines else ""])
)

# One edit: at a base line, replace it, delete it, or insert before it.
EDIT = st.tuples(st.sampled_from(["replace", "delete", "insert"]), st.integers(1, 3))


def _apply(base: list[str], edits: dict[int, tuple[str, list[str]]]) -> list[str]:
    out: list[str] = []
    for at, line in enumerate(base):
        kind, new = edits.get(at, ("keep", []))
        if kind == "insert":
            out += [*new, line]
        elif kind == "replace":
            out += new
        elif kind == "keep":
            out.append(line)
    return out


def _text(lines: list[str]) -> str:
    return "".join(line + "\n" for line in lines)


@st.composite
def apart(
    draw: st.DrawFn,
) -> tuple[list[str], dict[int, tuple[str, list[str]]], dict[int, tuple[str, list[str]]]]:
    """A base of unique lines and two sets of edits at least one untouched line apart
    (so no change of one side meets a change of the other)."""
    size = draw(st.integers(1, 30))
    base = [f"base {n}" for n in range(size)]
    spots = sorted(draw(st.sets(st.integers(0, size - 1), max_size=8)))
    spaced: list[int] = []
    for spot in spots:
        if not spaced or spot >= spaced[-1] + 2:
            spaced.append(spot)
    ours: dict[int, tuple[str, list[str]]] = {}
    theirs: dict[int, tuple[str, list[str]]] = {}
    for number, spot in enumerate(spaced):
        side, name = draw(st.sampled_from([(ours, "ours"), (theirs, "theirs")]))
        kind, count = draw(EDIT)
        new = [f"{name} {number}.{k}" for k in range(count)] if kind != "delete" else []
        side[spot] = (kind, new)
    return base, ours, theirs


@settings(max_examples=examples(200), deadline=None)
@given(apart())
def test_changes_apart_are_both_kept(
    case: tuple[list[str], dict[int, tuple[str, list[str]]], dict[int, tuple[str, list[str]]]],
) -> None:
    base, ours, theirs = case
    merged = merge3(_text(base), _text(_apply(base, ours)), _text(_apply(base, theirs)))
    assert merged.overlaps == ()
    assert merged.text == _text(_apply(base, {**ours, **theirs}))
    assert len(merged.outside) == len(theirs)


@settings(max_examples=examples(200), deadline=None)
@given(apart())
def test_changes_apart_are_both_kept_without_a_final_newline(
    case: tuple[list[str], dict[int, tuple[str, list[str]]], dict[int, tuple[str, list[str]]]],
) -> None:
    """The same, every text without its final newline (the last line left alone, since its
    newline state would change with it): merged text is cut by character offsets, and the
    last line has no line break to end at."""
    base, ours, theirs = case
    last = len(base) - 1
    ours = {at: edit for at, edit in ours.items() if at != last}
    theirs = {at: edit for at, edit in theirs.items() if at != last}

    def bare(lines: list[str]) -> str:
        return _text(lines)[:-1]

    merged = merge3(bare(base), bare(_apply(base, ours)), bare(_apply(base, theirs)))
    assert merged.overlaps == ()
    assert merged.text == bare(_apply(base, {**ours, **theirs}))


@settings(max_examples=examples(200), deadline=None)
@given(apart(), st.integers(0, 29), st.booleans(), st.sampled_from(["replace", "delete", "insert"]))
def test_changes_that_meet_are_refused(
    case: tuple[list[str], dict[int, tuple[str, list[str]]], dict[int, tuple[str, list[str]]]],
    spot: int,
    neighbour: bool,
    kind: str,
) -> None:
    """A change of the file on the line the edit changes, or on the line next to it,
    refuses the merge and names where."""
    base, ours, theirs = case
    spot %= len(base)
    theirs = {at: edit for at, edit in theirs.items() if abs(at - spot) > 2}
    ours = {at: edit for at, edit in ours.items() if abs(at - spot) > 2}
    ours[spot] = ("replace", ["ours here"])
    other = spot + 1 if neighbour and spot + 1 < len(base) else spot
    theirs[other] = (kind, [] if kind == "delete" else ["theirs here"])
    ours_lines, theirs_lines = _apply(base, ours), _apply(base, theirs)
    merged = merge3(_text(base), _text(ours_lines), _text(theirs_lines))
    assert merged.text is None
    assert len(merged.overlaps) == 1
    overlap = merged.overlaps[0]
    assert overlap.base.start <= spot < overlap.base.stop
    assert "ours here" in ours_lines[overlap.ours.start : overlap.ours.stop]
    if kind != "delete":
        assert "theirs here" in theirs_lines[overlap.theirs.start : overlap.theirs.stop]


@settings(max_examples=examples(300), deadline=None)
@given(base=TEXTS, other=TEXTS)
def test_an_unchanged_side_gives_the_other(base: str, other: str) -> None:
    assert merge3(base, other, base).text == other
    assert merge3(base, base, other).text == other
    assert merge3(base, other, other).text == other  # the same change made twice


def test_a_final_newline_is_part_of_the_last_line() -> None:
    """Adding a final newline outside meets an edit of the last line."""
    merged = merge3("a\nb\nc", "a\nb\nC", "a\nb\nc\n")
    assert merged.text is None
    assert merged.overlaps[0].theirs == Lines(2, 3)
    assert merge3("a\nb\nc\nd", "A\nb\nc\nd", "a\nb\nc\nd\n").text == "A\nb\nc\nd\n"


def test_the_lines_are_named_as_an_editor_counts_them() -> None:
    base = "".join(f"{n}\n" for n in range(10))
    ours = base.replace("2\n", "two\n")
    theirs = base.replace("7\n", "seven\nsept\n").replace("2\n", "deux\n")
    merged = merge3(base, ours, theirs)
    assert merged.text is None
    assert [lines.describe() for lines in merged.outside] == ["line 3", "lines 8-9"]
    (overlap,) = merged.overlaps
    assert overlap.theirs.describe() == "line 3"
    assert Lines(4, 4).describe() == "after line 4"
    assert Lines(0, 0).describe() == "at the start"
