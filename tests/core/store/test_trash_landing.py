"""A delete whose trash is a folder inside the workspace says so in its result.

On a workspace that is a mount root (a USB disk, a second partition), the freedesktop
trash of that volume is ``<ws>/.Trash-<uid>``: the "deleted" bytes are still in the
workspace, and the result must not pretend otherwise.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from llm_operator.core.plan.session import Session
from llm_operator.core.store.workspace import Workspace
from support.tmpfs import mounted_tmpfs

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the freedesktop trash")


@pytest.fixture
def mounted_workspace(tmp_path: Path) -> Iterator[Path]:
    with mounted_tmpfs(tmp_path / "disk", "4m") as root:
        yield root


def test_delete_on_a_mount_root_names_the_trash_folder_inside(
    mounted_workspace: Path, tmp_path: Path, cmd: Any, trash: Path
) -> None:
    from support.fixtures import run_session

    root = mounted_workspace
    (root / "notes.txt").write_text("deleted words\n")
    (root / "old").mkdir()
    (root / "old" / "a.txt").write_text("a\n")
    session = Session(Workspace(root), tmp_path / "state")
    results = run_session(
        session,
        cmd("d1", "fs.delete", path="notes.txt") + "\n" + cmd("d2", "fs.delete", path="old"),
        True,
    )
    folder = f".Trash-{os.getuid()}"
    for result in results:
        assert result.ok, result.summary
        assert f"moved to the trash folder {folder} inside the workspace" in result.summary
    assert results[0].summary.startswith("Deleted notes.txt (14 bytes, moved to the trash folder")
    # What the result says is where the bytes are.
    assert (root / folder / "files" / "notes.txt").read_text() == "deleted words\n"
    assert (root / folder / "files" / "old" / "a.txt").read_text() == "a\n"
    assert not (trash / "notes.txt").exists()


def test_delete_into_the_home_trash_inside_the_workspace_says_so(
    tmp_path: Path, cmd: Any, trash: Path
) -> None:
    from support.fixtures import run_session

    # The workspace holds the home folder (someone opened their home as the workspace).
    (tmp_path / "gone.txt").write_text("x\n")
    session = Session(Workspace(tmp_path), tmp_path / "state")
    (result,) = run_session(session, cmd("d", "fs.delete", path="gone.txt"), True)
    assert result.ok, result.summary
    assert "moved to the trash folder home/.local/share/Trash inside the workspace" in (
        result.summary
    )
    assert (trash / "gone.txt").read_text() == "x\n"


def test_delete_to_a_trash_outside_the_workspace_says_nothing_more(
    workspace: Path, run_reply: Any, cmd: Any, trash: Path
) -> None:
    (result,) = run_reply(cmd("d", "fs.delete", path="README.md"))
    assert result.ok, result.summary
    assert result.summary.endswith("moved to the trash)")
    assert (trash / "README.md").exists()
