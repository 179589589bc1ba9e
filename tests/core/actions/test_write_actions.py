"""fs.write through the protocol path: a reply in, files on disk and results out."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from llm_operator.core.plan.run import Decision
from support.actions import b64, expect_failure, run_decided, tree


def test_write_one_line_content_creates_a_file(run_reply: Any, cmd: Any, workspace: Path) -> None:
    (result,) = run_reply(cmd("w1", "fs.write", path="notes.txt", content="hello world"))
    assert result.ok, result.summary
    assert result.id == "w1"
    assert "notes.txt" in result.summary
    assert (workspace / "notes.txt").read_bytes() == b"hello world"


def test_write_content_b64_keeps_every_byte(run_reply: Any, cmd: Any, workspace: Path) -> None:
    text = "line one\n\ttabbed \u00e9\u00e8 \u2713\n\nlast without newline"
    (result,) = run_reply(cmd("w1", "fs.write", path="src/main.py", content_b64=b64(text)))
    assert result.ok, result.summary
    assert (workspace / "src" / "main.py").read_bytes() == text.encode("utf-8")


def test_write_creates_missing_parent_folders(run_reply: Any, cmd: Any, workspace: Path) -> None:
    before = set(tree(workspace))
    (result,) = run_reply(cmd("w1", "fs.write", path="a/b/c/new.md", content_b64=b64("# New\n")))
    assert result.ok, result.summary
    assert (workspace / "a" / "b" / "c" / "new.md").read_bytes() == b"# New\n"
    assert set(tree(workspace)) - before == {"a", "a/b", "a/b/c", "a/b/c/new.md"}


def test_write_lands_on_the_real_file_behind_an_inner_symlink(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    (workspace / "link.py").symlink_to("src/main.py")
    (result,) = run_reply(cmd("w1", "fs.write", path="link.py", content="x = 1"))
    assert result.ok, result.summary
    assert (workspace / "link.py").is_symlink()
    assert (workspace / "src" / "main.py").read_bytes() == b"x = 1"


def test_write_of_identical_content_needs_no_approval(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    current = (workspace / "README.md").read_text(encoding="utf-8")
    session = make_session()
    run = session.prepare(cmd("w1", "fs.write", path="README.md", content_b64=b64(current)))
    assert run.pending == []
    (item,) = run.items
    # Answered when the run executes, under the write lock, with no decision to make.
    assert item.result is None
    (result,) = session.execute(run, {})
    assert result.ok, result.summary
    assert "already holds this content" in result.outcome.summary


# -- failures: each leaves the workspace byte-identical -----------------------------------


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"path": "README.md"}, "ERR_MISSING_WRITE_CONTENT"),
        ({"path": "src", "content": "x"}, "ERR_IS_A_DIRECTORY"),
        ({"path": ".git/config", "content": "x"}, "ERR_PATH_PROTECTED"),
        ({"path": ".git/hooks/pre-commit", "content_b64": b64("x\n")}, "ERR_PATH_PROTECTED"),
        ({"path": ".", "content": "x"}, "ERR_PATH_PROTECTED"),
        ({"path": "../outside.txt", "content": "x"}, "ERR_PATH_OUTSIDE_WORKSPACE"),
        ({"path": "escape/evil.txt", "content": "x"}, "ERR_PATH_OUTSIDE_WORKSPACE"),
    ],
    ids=["missing", "folder", "git", "git-hook", "root", "dotdot", "link-out"],
)
def test_write_failures(
    run_reply: Any, cmd: Any, workspace: Path, tmp_path: Path, fields: dict[str, str], code: str
) -> None:
    (workspace / ".git" / "hooks").mkdir(parents=True)
    (workspace / ".git" / "config").write_bytes(b"[core]\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    (workspace / "escape").symlink_to(outside)
    result = expect_failure(
        run_reply,
        workspace,
        cmd("w-bad", "fs.write", **fields),
        code,
        "w-bad",
        path=fields["path"],
    )
    assert list(outside.iterdir()) == []
    assert not (tmp_path / "outside.txt").exists()
    if code == "ERR_PATH_PROTECTED" and fields["path"] != ".":
        assert ".git" in result.summary


def test_rejected_write_changes_nothing_and_reports_the_reason(
    make_session: Any, cmd: Any, parse_results: Any, workspace: Path
) -> None:
    before = (workspace / "README.md").read_bytes()
    snap = tree(workspace)
    text = (
        cmd("w1", "fs.write", path="README.md", content="replaced")
        + "\n"
        + cmd("w2", "fs.write", path="new.txt", content="new")
    )
    decide = {"w1": Decision(False, "keep the readme as it is"), "w2": Decision(False)}
    first, second = run_decided(make_session(), text, decide, parse_results)
    assert (first.ok, second.ok) == (False, False)
    assert first.code == second.code == "ERR_REJECTED_BY_USER"
    assert first.summary.startswith("fs.write failed (ERR_REJECTED_BY_USER)")
    assert "keep the readme as it is" in first.summary
    assert (workspace / "README.md").read_bytes() == before
    assert tree(workspace) == snap


@pytest.mark.parametrize(
    ("action", "fields"),
    [
        ("fs.write", {"content": "x"}),
        ("fs.patch", {"patch_b64": b64("--- /dev/null\n+++ b/notes/\n@@ -0,0 +1 @@\n+x\n")}),
    ],
)
def test_a_path_ending_in_a_slash_names_a_folder_and_is_refused(
    run_reply: Any, cmd: Any, workspace: Path, action: str, fields: dict[str, str]
) -> None:
    result = expect_failure(
        run_reply, workspace, cmd("w1", action, path="notes/", **fields), "ERR_INVALID_PATH", "w1"
    )
    assert "folder" in result.summary
    assert not (workspace / "notes").exists()
