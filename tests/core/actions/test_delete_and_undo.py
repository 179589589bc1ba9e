"""fs.delete through the session, and ``llm-operator exec`` / ``undo`` as subprocesses.

Every delete goes to a trash under tmp_path (HOME and XDG_DATA_HOME point there, for this
process and for the children it starts).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

from support.actions import b64, cli, edits_b64, expect_failure, tree

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="freedesktop trash and POSIX modes"
)


# -- fs.delete -----------------------------------------------------------------------------


def test_delete_file_goes_to_the_trash(
    run_reply: Any, cmd: Any, workspace: Path, trash: Path
) -> None:
    data = (workspace / "README.md").read_bytes()
    (result,) = run_reply(cmd("d1", "fs.delete", path="README.md"))
    assert result.ok, result.summary
    assert not (workspace / "README.md").exists()
    assert (trash / "README.md").read_bytes() == data


def test_delete_folder_tree_goes_to_the_trash(
    run_reply: Any, cmd: Any, workspace: Path, trash: Path
) -> None:
    (workspace / "src" / "pkg" / "deep").mkdir()
    (workspace / "src" / "pkg" / "deep" / "x.txt").write_bytes(b"x")
    inside = tree(workspace / "src")
    (result,) = run_reply(cmd("d1", "fs.delete", path="src"))
    assert result.ok, result.summary
    assert "3 files" in result.summary
    assert not (workspace / "src").exists()
    assert tree(trash / "src") == inside


def test_delete_symlink_removes_only_the_link(run_reply: Any, cmd: Any, workspace: Path) -> None:
    (workspace / "link-to-pkg").symlink_to("src/pkg")
    (workspace / "link-to-file").symlink_to("src/main.py")
    before = tree(workspace / "src")
    links = ["link-to-pkg", "link-to-file"]
    blocks = [cmd(f"d{n}", "fs.delete", path=link) for n, link in enumerate(links)]
    results = run_reply("\n".join(blocks))
    assert all(r.ok for r in results), [r.summary for r in results]
    assert not os.path.lexists(workspace / "link-to-pkg")
    assert not os.path.lexists(workspace / "link-to-file")
    assert tree(workspace / "src") == before


@pytest.mark.parametrize(
    ("path", "code"),
    [
        ("src/nope.py", "ERR_FILE_NOT_FOUND"),
        (".git", "ERR_PATH_PROTECTED"),
        (".git/HEAD", "ERR_PATH_PROTECTED"),
        (".", "ERR_PATH_PROTECTED"),
        ("../ws", "ERR_PATH_OUTSIDE_WORKSPACE"),
        ("out/secret.txt", "ERR_PATH_OUTSIDE_WORKSPACE"),
        ("README.md/", "ERR_NOT_A_DIRECTORY"),
    ],
)
def test_delete_failures(
    run_reply: Any, cmd: Any, workspace: Path, tmp_path: Path, path: str, code: str
) -> None:
    (workspace / ".git").mkdir()
    (workspace / ".git" / "HEAD").write_bytes(b"ref: refs/heads/main\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_bytes(b"keep")
    (workspace / "out").symlink_to(outside)
    expect_failure(run_reply, workspace, cmd("d1", "fs.delete", path=path), code, "d1")
    assert (outside / "secret.txt").read_bytes() == b"keep"


def test_missing_trash_erases_nothing(
    run_reply: Any, cmd: Any, workspace: Path, trash: Path
) -> None:
    trash.parent.write_text("a file where the trash folder should be")
    for path in ("README.md", "src/pkg"):
        result = expect_failure(
            run_reply,
            workspace,
            cmd(f"d-{path}", "fs.delete", path=path),
            "ERR_TRASH_UNAVAILABLE",
            f"d-{path}",
        )
        assert "nothing was deleted" in result.summary


def test_rejected_delete_changes_nothing(run_reply: Any, cmd: Any, workspace: Path) -> None:
    before = tree(workspace)
    (result,) = run_reply(cmd("d1", "fs.delete", path="src"), False)
    assert result.code == "ERR_REJECTED_BY_USER"
    assert tree(workspace) == before


# -- exec and undo as the command line -------------------------------------------------------


def exec_yes(workspace: Path, state: Path, *blocks: str) -> Any:
    text = "Here you go.\n\n" + "\n\n".join(blocks) + "\n"
    return cli("exec", "--workspace", workspace, "--state-dir", state, "--yes", stdin=text)


def undo(workspace: Path, state: Path) -> Any:
    return cli("undo", "--yes", "--workspace", workspace, "--state-dir", state)


def test_undo_puts_back_edits_deletes_and_creations(
    cmd: Any, workspace: Path, tmp_path: Path, trash: Path
) -> None:
    state = tmp_path / "cli-state"
    (workspace / "src" / "pkg" / "data").mkdir()
    (workspace / "src" / "pkg" / "data" / "table.csv").write_bytes(b"a,b\r\n1,2\r\n")
    (workspace / "src" / "pkg" / "keys.txt").write_bytes(b"private\n")
    (workspace / "src" / "pkg" / "keys.txt").chmod(0o600)
    (workspace / "src" / "main.py").chmod(0o755)
    original = tree(workspace)
    done = exec_yes(
        workspace,
        state,
        cmd(
            "e1",
            "fs.applyEdits",
            path="src/main.py",
            edits_b64=edits_b64({"op": "replaceFirst", "find": "hello", "text": "bye"}),
        ),
        cmd("w1", "fs.write", path="docs/guide/intro.md", content_b64=b64("# Intro\n")),
        cmd("d1", "fs.delete", path="src/pkg"),
        cmd("d2", "fs.delete", path="README.md"),
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("ok: true") == 4
    assert b"bye" in (workspace / "src" / "main.py").read_bytes()
    assert not (workspace / "src" / "pkg").exists()
    assert not (workspace / "README.md").exists()
    assert (workspace / "docs" / "guide" / "intro.md").is_file()
    assert (trash / "pkg" / "keys.txt").read_bytes() == b"private\n"  # the child used tmp's trash
    assert not any(state == p or state in p.parents for p in workspace.rglob("*"))

    undone = undo(workspace, state)
    assert undone.returncode == 0, undone.stdout + undone.stderr
    assert undone.stdout.startswith("Undid ")
    assert tree(workspace) == original  # bytes, modes, the folder tree, no docs/ left


@pytest.mark.slow
def test_undo_walks_back_batch_by_batch(cmd: Any, workspace: Path, tmp_path: Path) -> None:
    state = tmp_path / "cli-state"
    original = tree(workspace)
    first = exec_yes(workspace, state, cmd("w1", "fs.write", path="a.txt", content="one"))
    assert first.returncode == 0, first.stdout + first.stderr
    after_first = tree(workspace)
    second = exec_yes(
        workspace,
        state,
        cmd("w2", "fs.write", path="a.txt", content="two"),
        cmd("w3", "fs.write", path="b.txt", content="bee"),
    )
    assert second.returncode == 0, second.stdout + second.stderr
    assert (workspace / "a.txt").read_bytes() == b"two"

    assert undo(workspace, state).returncode == 0
    assert tree(workspace) == after_first
    assert undo(workspace, state).returncode == 0
    assert tree(workspace) == original
    nothing = undo(workspace, state)
    assert "Nothing to undo" in nothing.stdout
    assert tree(workspace) == original


def test_undo_refused_when_a_file_changed_since(cmd: Any, workspace: Path, tmp_path: Path) -> None:
    state = tmp_path / "cli-state"
    done = exec_yes(
        workspace,
        state,
        cmd("w1", "fs.write", path="README.md", content="by the batch"),
        cmd("w2", "fs.write", path="new.txt", content="new"),
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (workspace / "README.md").write_bytes(b"edited by hand afterwards")
    before = tree(workspace)

    refused = undo(workspace, state)
    assert refused.returncode == 1
    assert "refused" in refused.stdout
    assert "README.md" in refused.stdout
    assert tree(workspace) == before
