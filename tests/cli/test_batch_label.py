"""The undo names only the commands whose changes it takes back: an approved write that
failed (nothing written) is not in the batch's name, in the question or the report.
Real ``exec`` and ``undo`` processes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from support.actions import cli

REPLY = (
    "OPERATOR_CMD\nversion: 1\nid: d1\naction: fs.delete\npath: old.txt\nEND_OPERATOR_CMD\n"
    "OPERATOR_CMD\nversion: 1\nid: w2\naction: fs.write\npath: new.txt\ncontent: x\n"
    "END_OPERATOR_CMD\n"
)


@pytest.mark.slow
def test_a_failed_write_is_not_named_by_the_undo(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "old.txt").write_text("old\n", encoding="utf-8")
    where = ["--workspace", workspace, "--state-dir", tmp_path / "state"]
    # No home folder: the delete cannot reach a trash, so it fails and deletes nothing.
    env = dict(os.environ, HOME=str(tmp_path / "no-home"))
    env.pop("XDG_DATA_HOME", None)
    ran = cli("exec", *where, "--yes", stdin=REPLY, env=env)
    assert "id: d1\nok: false\nsummary: fs.delete failed (ERR_TRASH_UNAVAILABLE)" in ran.stdout
    assert "id: w2\nok: true" in ran.stdout
    assert (workspace / "old.txt").exists()
    undone = cli("undo", *where, "--yes", env=env)
    assert undone.returncode == 0, undone.stderr
    assert undone.stdout.startswith("Undid 'w2': "), undone.stdout
    assert "d1" not in undone.stdout
    assert not (workspace / "new.txt").exists()
    assert (workspace / "old.txt").read_text(encoding="utf-8") == "old\n"
