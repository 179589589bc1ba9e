"""A whole-number field given a number it cannot take says what is wrong with it, in one
short summary, and never repeats hundreds of digits (an MCP client's 1e308 arrives as
309 of them). Real ``exec`` processes."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.actions import cli


@pytest.mark.parametrize(
    ("given", "says"),
    [
        ("1000000000000000", "lines: must be at most 999999999 (9 digits), got a number of 16"),
        ("1" + "0" * 308, "lines: must be at most 999999999 (9 digits), got a number of 309"),
        ("-3", "lines: must be 0 or more (digits only, no sign)"),
        ("1e3", "lines: must be a whole number written in digits, got '1e3'"),
    ],
)
def test_a_whole_number_field_says_what_is_wrong(tmp_path: Path, given: str, says: str) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "a.txt").write_text("alpha\n", encoding="utf-8")
    reply = (
        "OPERATOR_CMD\nversion: 1\nid: r1\naction: fs.readSlice\npath: a.txt\n"
        f"start: 1\nlines: {given}\nEND_OPERATOR_CMD\n"
    )
    done = cli("exec", "--workspace", workspace, "--state-dir", tmp_path / "st", stdin=reply)
    (summary,) = [line for line in done.stdout.splitlines() if line.startswith("summary: ")]
    assert says in summary, summary
    assert "0" * 40 not in done.stdout
    assert len(summary) < 200, summary
