"""Every ok write shows what landed: changed lines with their new numbers, capped."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from llm_operator.core.plan.landed import MAX_LANDED


def edits(*ops: dict[str, Any]) -> str:
    return json.dumps({"version": 1, "edits": list(ops)})


def test_an_edit_shows_its_new_lines_with_their_numbers(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    (workspace / "plan.txt").write_text("Alpha\nBeta\nOmega\n", encoding="utf-8")
    op = {"op": "insertAfter", "anchor": "Beta", "text": "\nGamma\nDelta"}
    (result,) = run_reply(cmd("e1", "fs.applyEdits", path="plan.txt", edits_json=edits(op)))
    assert result.ok, result.summary
    assert result.details == "# landed in plan.txt:\n3: Gamma\n4: Delta\n"


def test_a_slip_is_visible_without_another_read(run_reply: Any, cmd: Any, workspace: Path) -> None:
    (workspace / "a.py").write_text("def f():\n    return 1\n", encoding="utf-8")
    op = {"op": "replaceFirst", "find": "return 1", "text": "retrun 2"}
    (result,) = run_reply(cmd("e1", "fs.applyEdits", path="a.py", edits_json=edits(op)))
    assert result.details == "# landed in a.py:\n2:     retrun 2\n"


def test_removed_lines_are_counted_where_they_were(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    (workspace / "a.txt").write_text("one\ntwo\nthree\nfour\n", encoding="utf-8")
    op = {"op": "replaceFirst", "find": "two\nthree\n", "text": ""}
    (result,) = run_reply(cmd("e1", "fs.applyEdits", path="a.txt", edits_json=edits(op)))
    assert result.details == "# landed in a.txt:\n# 2 line(s) removed before line 2\n"


def test_a_long_write_is_capped_with_a_count_of_the_rest(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    text = "".join(f"line {n}\n" for n in range(1, 101))
    (result,) = run_reply(cmd("w1", "fs.write", path="long.txt", content_json=json.dumps(text)))
    lines = (result.details or "").splitlines()
    assert lines[0] == "# landed in long.txt:"
    assert lines[1 : MAX_LANDED + 1] == [f"{n}: line {n}" for n in range(1, MAX_LANDED + 1)]
    assert (
        lines[-1] == f"# ... and {100 - MAX_LANDED} more changed line(s): fs.readSlice shows them"
    )
    assert len(lines) == MAX_LANDED + 2


def test_structure_details_carry_the_landed_lines(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    (workspace / "a.py").write_text(
        "class A:\n    def m(self):\n        return 1\n", encoding="utf-8"
    )
    (result,) = run_reply(
        cmd(
            "s1",
            "fs.replaceStructure",
            path="a.py",
            symbol="A/m",
            content_json=json.dumps("def m(self):\n    return 2\n"),
        )
    )
    assert result.ok, result.summary
    # Numbered lines after the result's JSON line, as every other write shows them.
    assert result.details == (
        '{"lines": [2, 3], "warnings": []}\n# landed in a.py:\n3:         return 2\n'
    )
    assert result.landed == ["# landed in a.py:", "3:         return 2"]


def test_a_rejected_or_failed_write_shows_nothing_landed(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    (result,) = run_reply(cmd("w1", "fs.write", path="x.txt", content="hi"), False)
    assert not result.ok
    assert "landed" not in (result.details or "")
    assert not (workspace / "x.txt").exists()


def test_changes_far_apart_in_a_big_file_of_repeated_lines_land_where_made() -> None:
    """Three changes 20,000 lines apart in a file where two lines in three repeat (blank
    lines, the same return): each shows with its own number. The lines between them are
    diffed by the diff engine, not by one difflib pass over the whole middle of the file
    (which took minutes on 100,000 lines)."""
    from llm_operator.core.changes import ChangeSet, FileChange
    from llm_operator.core.plan.landed import landed_lines

    lines = [("", f"def f{n}():", "    return value")[n % 3] for n in range(60_000)]
    before = "\n".join(lines) + "\n"
    for at in (10_000, 30_000, 50_000):
        lines.insert(at, "    log('patched')")
    after = "\n".join(lines) + "\n"
    change = FileChange("big.py", before.encode(), after.encode())
    assert landed_lines(ChangeSet((change,))) == [
        "# landed in big.py:",
        "10001:     log('patched')",
        "30001:     log('patched')",
        "50001:     log('patched')",
    ]


def test_lines_are_numbered_as_fs_read_slice_numbers_them(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    """Only "\\n" ends a line: a form feed or a line separator inside a line does not."""
    (workspace / "a.txt").write_text("page\fbreak\nsep\u2028inside\nold\n", encoding="utf-8")
    op = {"op": "replaceFirst", "find": "old", "text": "new"}
    (result,) = run_reply(cmd("e1", "fs.applyEdits", path="a.txt", edits_json=edits(op)))
    assert result.ok, result.summary
    assert result.details == "# landed in a.txt:\n3: new\n"


def test_a_one_line_content_write_says_its_file_has_no_final_newline(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    (result,) = run_reply(cmd("w1", "fs.write", path="one.txt", content="hello"))
    assert result.ok, result.summary
    assert (workspace / "one.txt").read_bytes() == b"hello"
    assert result.details == (
        "# landed in one.txt:\n1: hello\n# one.txt now ends without a final newline\n"
    )
    # With its newline (content_json can hold one), nothing more is said.
    (result,) = run_reply(cmd("w2", "fs.write", path="two.txt", content_json='"hi\\n"'))
    assert result.details == "# landed in two.txt:\n1: hi\n"


def test_a_file_that_never_had_a_final_newline_is_not_told_again(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    (workspace / "a.txt").write_text("one\ntwo", encoding="utf-8")
    op = {"op": "replaceFirst", "find": "one", "text": "uno"}
    (result,) = run_reply(cmd("e1", "fs.applyEdits", path="a.txt", edits_json=edits(op)))
    assert result.details == "# landed in a.txt:\n1: uno\n"
