"""``.git`` is protected on every component of the path, as written and as resolved, in any
case, whether it is a folder, a file (worktrees, submodules) or a symlink (Google's repo
tool: ``app/.git -> ../.repo/projects/app.git``). A write there could set
``core.fsmonitor`` and run code at the user's next git command."""

from __future__ import annotations

import base64
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from llm_operator.core.store.pathtext import is_git_name

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX symlinks")

CONFIG = "[core]\n\trepositoryformatversion = 0\n"


def writes(cmd: Any, path: str, prefix: str) -> str:
    edits = base64.b64encode(b'[{"op": "replaceAll", "find": "0", "replace": "1"}]').decode()
    patch = base64.b64encode(
        b"--- a/config\n+++ b/config\n@@ -1,2 +1,3 @@\n [core]\n+\tfsmonitor = evil.sh\n"
        b"\trepositoryformatversion = 0\n"
    ).decode()
    return "\n".join(
        [
            cmd(f"{prefix}-w", "fs.write", path=path, content="[core] fsmonitor = evil.sh"),
            cmd(f"{prefix}-p", "fs.patch", path=path, patch_b64=patch),
            cmd(f"{prefix}-e", "fs.applyEdits", path=path, edits_b64=edits),
            cmd(f"{prefix}-d", "fs.delete", path=path),
        ]
    )


def tree_bytes(root: Path) -> dict[str, bytes | str]:
    found: dict[str, bytes | str] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_symlink():
            found[rel] = f"-> {os.readlink(path)}"
        elif path.is_file():
            found[rel] = path.read_bytes()
    return found


def assert_protected(results: list[Any]) -> None:
    assert results
    for result in results:
        assert not result.ok, result.summary
        assert result.code == "ERR_PATH_PROTECTED", result.summary


@pytest.fixture
def repo_layout(workspace: Path) -> Path:
    """A plain .git folder, a repo-tool symlinked .git, a worktree .git file, a submodule."""
    (workspace / ".git").mkdir()
    (workspace / ".git" / "config").write_text(CONFIG)
    projects = workspace / ".repo" / "projects" / "app.git"
    projects.mkdir(parents=True)
    (projects / "config").write_text(CONFIG)
    (workspace / "app").mkdir()
    os.symlink("../.repo/projects/app.git", workspace / "app" / ".git")
    (workspace / "wt").mkdir()
    (workspace / "wt" / ".git").write_text("gitdir: ../.git/worktrees/wt\n")
    (workspace / "mod").mkdir()
    (workspace / "mod" / ".git").write_text("gitdir: ../.git/modules/mod\n")
    os.symlink(".git", workspace / "gitlink")  # a harmless-looking name for .git
    return workspace


@pytest.mark.parametrize(
    "path",
    [
        ".git/config",
        ".GIT/config",
        ".Git/config",
        ".git./config",  # trailing dot and space: the same folder on Windows file systems
        ".git /config",
        "app/.git/config",  # the repo tool's layout: a symlinked .git
        "app/.GIT/config",
        "app/.git",
        "wt/.git",  # a worktree's .git file
        "mod/.git",  # a submodule's .git file
        "gitlink/config",  # resolves into .git
        "src/../.git/hooks/pre-commit",
        ".git/new-file",
        ".git",
    ],
)
def test_every_write_into_git_is_refused(
    path: str, repo_layout: Path, run_reply: Any, cmd: Any
) -> None:
    before = tree_bytes(repo_layout)
    results = run_reply(writes(cmd, path, "g"))
    assert_protected(results)
    assert tree_bytes(repo_layout) == before


def test_a_link_to_git_can_be_removed_but_not_written_through(
    repo_layout: Path, run_reply: Any, cmd: Any
) -> None:
    before = tree_bytes(repo_layout)
    results = run_reply(writes(cmd, "gitlink", "l"))
    by_id = {result.id: result for result in results}
    assert_protected([by_id["l-w"], by_id["l-p"], by_id["l-e"]])
    # Deleting the link removes only the link; .git itself is untouched.
    assert by_id["l-d"].ok, by_id["l-d"].summary
    del before["gitlink"]
    assert tree_bytes(repo_layout) == before


def test_a_link_whose_text_goes_through_git_is_refused(
    repo_layout: Path, run_reply: Any, cmd: Any
) -> None:
    # Written path has no .git; the symlink on the way names it.
    os.symlink("../.git/hooks", repo_layout / "src" / "hooks")
    before = tree_bytes(repo_layout)
    results = run_reply(writes(cmd, "src/hooks/pre-commit", "h"))
    assert_protected(results)
    assert tree_bytes(repo_layout) == before


def test_git_contents_stay_readable_and_look_alikes_stay_writable(
    repo_layout: Path, run_reply: Any, cmd: Any
) -> None:
    (read,) = run_reply(cmd("r", "fs.read", path="app/.git/config"))
    assert read.ok, read.summary
    results = run_reply(
        cmd("a", "fs.write", path=".gitignore", content="build/")
        + "\n"
        + cmd("b", "fs.write", path="docs/.github/x.md", content="x")
        + "\n"
        + cmd("c", "fs.write", path="src/git/x.txt", content="x")
        + "\n"
        + cmd("d", "fs.write", path="my.git/x.txt", content="x")
    )
    for result in results:
        assert result.ok, result.summary
    assert (repo_layout / ".gitignore").read_text() == "build/"


@pytest.mark.parametrize(
    ("name", "protected"),
    [
        (".git", True),
        (".GiT", True),
        (".git.", True),
        (".git ", True),
        (".g\u200cit", True),  # an HFS+ ignorable code point (git's CVE-2014-9390)
        ("\ufeff.git", True),
        ("git~1", True),
        (".gitignore", False),
        (".github", False),
        ("git", False),
        ("a.git", False),
    ],
)
def test_git_name_spellings(name: str, protected: bool) -> None:
    assert is_git_name(name) is protected


@pytest.mark.parametrize(
    "path",
    [
        ".repo/projects/real.git/config",  # the symlinked .git's target, by its own name
        ".repo/projects/real.git/hooks/pre-commit",
        ".repo/projects/real.git",
        "bare.git/config",  # a bare repository inside the workspace
    ],
)
def test_a_git_folder_not_named_git_is_protected_by_its_own_name(
    path: str, workspace: Path, run_reply: Any, cmd: Any
) -> None:
    import shutil
    import subprocess

    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    for bare in (workspace / ".repo" / "projects" / "real.git", workspace / "bare.git"):
        subprocess.run(["git", "init", "-q", "--bare", str(bare)], check=True)
    (workspace / "app").mkdir()
    os.symlink("../.repo/projects/real.git", workspace / "app" / ".git")
    before = tree_bytes(workspace)
    results = run_reply(writes(cmd, path, "b"))
    assert_protected(results)
    assert "a git repository's own folder" in results[0].summary
    assert tree_bytes(workspace) == before
    # Next to it, an ordinary file is written as usual.
    (ok,) = run_reply(cmd("b-ok", "fs.write", path=".repo/notes.txt", content="fine"))
    assert ok.ok, ok.summary
