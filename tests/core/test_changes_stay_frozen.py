"""A FileChange is frozen: working out its digests, texts and diff, or being told them by
the planner, writes nothing into the change itself."""

from __future__ import annotations

import dataclasses

from llm_operator.core.changes import FileChange, digest


def _field_names(change: FileChange) -> set[str]:
    return {f.name for f in dataclasses.fields(change)}


def test_working_out_a_change_writes_nothing_into_it() -> None:
    change = FileChange("a.txt", b"one\ntwo\n", b"one\n2\n")
    assert change.before_digest == digest(b"one\ntwo\n")
    assert change.after_digest == digest(b"one\n2\n")
    diff = change.line_diff
    assert diff is not None
    assert diff.counts() == (1, 1)
    change.forget_texts()
    assert change.before_text == "one\ntwo\n"
    assert set(vars(change)) == _field_names(change)


def test_what_the_planner_tells_a_change_is_kept_outside_its_fields() -> None:
    change = FileChange("a.txt", b"x\n", b"y\n")
    told = change.knowing_before_text("x\n").knowing_after_text("y\n")
    assert told is change
    assert (change.before_text, change.after_text) == ("x\n", "y\n")
    assert set(vars(change)) == _field_names(change)
    # Forgotten, the texts are decoded again from the bytes, as they were.
    change.forget_texts()
    assert (change.before_text, change.after_text) == ("x\n", "y\n")


def test_a_change_that_is_not_text_has_no_text_and_no_diff() -> None:
    change = FileChange("b.bin", b"\xff\xfe", b"\xff")
    assert change.before_text is None
    assert change.line_diff is None
    assert change == FileChange("b.bin", b"\xff\xfe", b"\xff")
    assert hash(change) == hash(FileChange("b.bin", b"\xff\xfe", b"\xff"))
