"""A reply of many reads never makes the chat forget the writes it already carried out.

The session memory keeps a bounded number of ids. Reads are remembered too (to say a
read was repeated), and a reply may hold a thousand of them: were reads and writes
evicted together, one such reply would make an earlier write unknown, and that reply
pasted again would run its write a second time. Real ``exec`` processes, one workspace.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from llm_operator.core.store.memory import MAX_ENTRIES
from support.actions import cli

INSERT = (
    "OPERATOR_CMD\nversion: 1\nid: w-1\naction: fs.insertBeforeStructure\npath: a.py\n"
    'target: def f(\ncontent_json: "# note\\n"\nEND_OPERATOR_CMD\n'
)


@pytest.mark.slow
def test_a_reply_of_many_reads_leaves_an_earlier_write_a_repeat(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "a.py").write_text("def f():\n    return 1\n", encoding="utf-8")
    where = ["--workspace", workspace, "--state-dir", tmp_path / "state"]
    first = cli("exec", *where, "--yes", stdin=INSERT)
    assert first.returncode == 0, first.stdout + first.stderr
    once = (workspace / "a.py").read_text(encoding="utf-8")
    assert once.count("# note") == 1
    reads = "".join(
        f"OPERATOR_CMD\nversion: 1\nid: r-{n}\naction: fs.stat\npath: a.py\nEND_OPERATOR_CMD\n"
        for n in range(MAX_ENTRIES + 1)
    )
    stats = cli("exec", *where, "--yes", stdin=reads)
    assert stats.returncode == 0, stats.stderr
    assert stats.stdout.count("ok: true") == MAX_ENTRIES + 1
    again = cli("exec", *where, "--yes", stdin=INSERT)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "[repeat: this id already ran at" in again.stdout
    assert (workspace / "a.py").read_text(encoding="utf-8") == once
