"""Counts in summaries agree with their number: "1 byte", "1 line", "2 bytes"."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from llm_operator.core.wording import counted
from support.actions import b64

ONE_PLURAL = re.compile(r"\b1 (bytes|lines|files|matches|regions|characters|commands)\b")


def test_counted_uses_the_singular_only_for_one() -> None:
    assert counted(1, "byte") == "1 byte"
    assert counted(0, "byte") == "0 bytes"
    assert counted(2, "line") == "2 lines"
    assert counted(1, "match", "matches") == "1 match"
    assert counted(3, "match", "matches") == "3 matches"


def test_summaries_of_one_byte_and_one_line_are_singular(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    (workspace / "one.txt").write_text("x")
    (workspace / "two.txt").write_text("x\ny\n")
    results = run_reply(
        "\n\n".join(
            [
                cmd("r1", "fs.read", path="one.txt"),
                cmd("s1", "fs.stat", path="one.txt"),
                cmd("q1", "fs.search", path="two.txt", query="y"),
                cmd("t1", "fs.searchTree", path=".", query="VALUE"),
                cmd("r2", "fs.read", path="two.txt"),
                cmd("w1", "fs.write", path="new.txt", content_b64=b64("z")),
            ]
        )
    )
    summaries = {result.id: result.summary for result in results}
    assert summaries["r1"] == "Read one.txt (1 byte, 1 line)"
    assert summaries["s1"] == "Stat one.txt: file, 1 byte"
    assert summaries["q1"].startswith("Found 1 matching line in two.txt")
    assert summaries["t1"].startswith("Found 1 match in ")
    assert summaries["r2"] == "Read two.txt (4 bytes, 2 lines)"
    assert "(1 line, 1 byte; " in summaries["w1"]
    for summary in summaries.values():
        assert not ONE_PLURAL.search(summary), summary
