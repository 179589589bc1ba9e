"""occurrence, symbol, dest_symbol and dest_occurrence through the protocol path."""

from __future__ import annotations

from pathlib import Path
from typing import Any

GO = "package main\n\nfunc init() {\n\ta = 1\n}\n\nfunc init() {\n\tb = 2\n}\n"
RS = "impl S {\n    fn a() {}\n}\n\nimpl S {\n    fn b() {}\n}\n"


def test_occurrence_picks_one_of_identical_definitions(
    run_reply: Any, cmd: Any, reply: Any, workspace: Path
) -> None:
    (workspace / "m.go").write_text(GO, encoding="utf-8")
    ambiguous, picked = run_reply(
        reply(
            cmd("t1", "fs.deleteStructure", path="m.go", target="func init() {"),
            cmd("t2", "fs.deleteStructure", path="m.go", target="func init() {", occurrence="2"),
        )
    )
    assert not ambiguous.ok
    assert "ERR_TARGET_AMBIGUOUS" in ambiguous.summary
    assert "occurrence" in ambiguous.summary
    assert picked.ok, picked.summary
    assert (workspace / "m.go").read_text(encoding="utf-8") == (
        "package main\n\nfunc init() {\n\ta = 1\n}\n"
    )


def test_symbol_and_dest_symbol_move_between_twin_parents(
    run_reply: Any, cmd: Any, reply: Any, workspace: Path
) -> None:
    (workspace / "s.rs").write_text(RS, encoding="utf-8")
    (moved,) = run_reply(
        cmd(
            "m1",
            "fs.moveStructure",
            path="s.rs",
            symbol="S/b",
            position="end",
            dest_symbol="S",
            dest_occurrence="1",
        )
    )
    assert moved.ok, moved.summary
    assert (workspace / "s.rs").read_text(encoding="utf-8") == (
        "impl S {\n    fn a() {}\n    fn b() {}\n}\n\nimpl S {\n}\n"
    )


def test_symbol_with_target_and_a_zero_occurrence_are_refused(
    run_reply: Any, cmd: Any, reply: Any, workspace: Path
) -> None:
    (workspace / "m.go").write_text(GO, encoding="utf-8")
    both, zero, reading = run_reply(
        reply(
            cmd("r1", "fs.readStructure", path="m.go", symbol="init", target="func init"),
            cmd("r2", "fs.readStructure", path="m.go", symbol="init", occurrence="0"),
            cmd("r3", "fs.readStructure", path="m.go", symbol="init[2]"),
        )
    )
    assert "ERR_CONFLICTING_FIELDS" in both.summary
    assert "ERR_INVALID_OCCURRENCE" in zero.summary
    assert reading.ok, reading.summary
    assert '"line_range_inclusive": [7, 9]' in reading.details
    assert (workspace / "m.go").read_text(encoding="utf-8") == GO
