"""The workspace jail: no command reads or writes outside the root, and secret-looking
files leave the machine only with the user's consent.

A sentinel file with unique content sits outside the workspace; every test checks that
its content never appears in any result (summary or details)."""

from __future__ import annotations

import os
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest

from llm_operator.core.errors import OperatorError
from llm_operator.core.store.workspace import Workspace, check_path_text

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX paths and symlinks")

READ_ACTIONS = ("fs.read", "fs.readSlice", "fs.search", "fs.stat", "fs.searchTree")


@pytest.fixture
def sentinel() -> str:
    return f"SENTINEL-{uuid.uuid4().hex}"


@pytest.fixture
def outside(tmp_path: Path, workspace: Path, sentinel: str) -> Path:
    """A folder next to the workspace holding secret.txt, and a sibling ``ws-evil``."""
    assert workspace.parent == tmp_path
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "secret.txt").write_text(f"{sentinel}\n", encoding="utf-8")
    evil = tmp_path / f"{workspace.name}-evil"
    evil.mkdir()
    (evil / "secret.txt").write_text(f"{sentinel}\n", encoding="utf-8")
    return folder


def read_commands(cmd: Any, path: str, prefix: str) -> str:
    blocks = []
    for number, action in enumerate(READ_ACTIONS):
        extra = {"query": "SENTINEL"} if "search" in action else {}
        blocks.append(cmd(f"{prefix}-{number}", action, path=path, **extra))
    return "\n".join(blocks)


def assert_never_leaks(results: list[Any], sentinel: str) -> None:
    for result in results:
        assert sentinel not in result.summary
        assert sentinel not in (result.details or "")


def assert_all_refused(results: list[Any], code: str) -> None:
    assert results
    for result in results:
        assert not result.ok, result.summary
        assert result.code == code, result.summary


@pytest.mark.parametrize(
    "path",
    [
        "../outside/secret.txt",
        "src/../../outside/secret.txt",
        "./../outside/secret.txt",
        "src/pkg/../../../outside/secret.txt",
        "..",
        "../ws-evil/secret.txt",
        "../ws-evil",
        "~",
        "~/secret.txt",
    ],
)
def test_relative_escapes_are_refused(
    path: str, run_reply: Any, cmd: Any, outside: Path, sentinel: str
) -> None:
    results = run_reply(read_commands(cmd, path, "esc"))
    assert_all_refused(results, "ERR_PATH_OUTSIDE_WORKSPACE")
    assert_never_leaks(results, sentinel)


def test_absolute_paths_are_refused(
    run_reply: Any, cmd: Any, outside: Path, sentinel: str, workspace: Path
) -> None:
    paths = (
        str(outside / "secret.txt"),
        str(workspace / "README.md"),
        "/etc/passwd",
        "C:/Windows/win.ini",
        "c:secret.txt",
    )
    for number, path in enumerate(paths):
        results = run_reply(read_commands(cmd, path, f"abs{number}"))
        assert_all_refused(results, "ERR_PATH_OUTSIDE_WORKSPACE")
        assert_never_leaks(results, sentinel)


def test_backslashes_are_invalid(run_reply: Any, cmd: Any, outside: Path, sentinel: str) -> None:
    results = run_reply(read_commands(cmd, "..\\outside\\secret.txt", "bs"))
    assert_all_refused(results, "ERR_INVALID_PATH")
    assert_never_leaks(results, sentinel)


def test_nul_in_a_path_is_refused(
    run_reply: Any, cmd: Any, workspace: Path, outside: Path, sentinel: str
) -> None:
    with pytest.raises(OperatorError) as raised:
        Workspace(workspace).resolve("README.md\x00../../outside/secret.txt")
    assert raised.value.code == "ERR_PATH_OUTSIDE_WORKSPACE"
    with pytest.raises(OperatorError):
        check_path_text("a\x00b")
    # A pasted reply can carry a NUL into a command line; the scanner refuses control
    # characters before any path is looked at.
    results = run_reply(read_commands(cmd, "README.md\x00", "nul"))
    assert_all_refused(results, "ERR_NON_ASCII_IN_CMD")
    assert_never_leaks(results, sentinel)


def test_symlinked_file_leaving_the_root(
    run_reply: Any, cmd: Any, workspace: Path, outside: Path, sentinel: str
) -> None:
    os.symlink(outside / "secret.txt", workspace / "leak.txt")
    results = run_reply(read_commands(cmd, "leak.txt", "lf"))
    assert_all_refused(results, "ERR_PATH_OUTSIDE_WORKSPACE")
    assert_never_leaks(results, sentinel)


def test_symlinked_folder_leaving_the_root(
    run_reply: Any, cmd: Any, workspace: Path, outside: Path, sentinel: str
) -> None:
    os.symlink(outside, workspace / "outdir")
    results = run_reply(
        read_commands(cmd, "outdir/secret.txt", "ld")
        + "\n"
        + cmd("ld-list", "fs.list", path="outdir")
        + "\n"
        + cmd("ld-tree", "fs.searchTree", path="outdir", query="SENTINEL")
    )
    assert_all_refused(results, "ERR_PATH_OUTSIDE_WORKSPACE")
    assert_never_leaks(results, sentinel)


def test_search_tree_over_the_root_does_not_follow_links_out(
    run_reply: Any, cmd: Any, workspace: Path, outside: Path, sentinel: str
) -> None:
    os.symlink(outside, workspace / "outdir")
    os.symlink(outside / "secret.txt", workspace / "leak.txt")
    os.symlink(workspace.parent / f"{workspace.name}-evil", workspace / "evil")
    (result,) = run_reply(cmd("tree", "fs.searchTree", path=".", query="SENTINEL"))
    assert result.ok
    assert_never_leaks([result], sentinel)
    listing = run_reply(cmd("list-root", "fs.list", path="."))
    assert_never_leaks(listing, sentinel)


def test_dangling_symlink_pointing_outside(
    run_reply: Any, cmd: Any, workspace: Path, outside: Path, sentinel: str
) -> None:
    os.symlink(outside / "not-yet.txt", workspace / "dangle")
    results = run_reply(
        read_commands(cmd, "dangle", "dg")
        + "\n"
        + cmd("dg-write", "fs.write", path="dangle", content="planted")
    )
    assert_all_refused(results, "ERR_PATH_OUTSIDE_WORKSPACE")
    assert not (outside / "not-yet.txt").exists()


def test_sibling_folder_with_the_roots_name_as_prefix(
    run_reply: Any, cmd: Any, workspace: Path, outside: Path, sentinel: str
) -> None:
    evil = workspace.parent / f"{workspace.name}-evil"
    assert str(evil).startswith(str(workspace))  # a string-prefix check would let it in
    os.symlink(evil, workspace / "evil-link")
    results = run_reply(
        read_commands(cmd, "evil-link/secret.txt", "sib")
        + "\n"
        + read_commands(cmd, f"../{evil.name}/secret.txt", "sib2")
        + "\n"
        + cmd("sib-write", "fs.write", path="evil-link/planted.txt", content="x")
    )
    assert_all_refused(results, "ERR_PATH_OUTSIDE_WORKSPACE")
    assert_never_leaks(results, sentinel)
    assert not (evil / "planted.txt").exists()
    with pytest.raises(OperatorError):
        Workspace(workspace).resolve("evil-link")


def test_writes_outside_are_refused_and_create_nothing(
    run_reply: Any, cmd: Any, workspace: Path, outside: Path
) -> None:
    before = sorted(p.name for p in outside.iterdir())
    results = run_reply(
        cmd("w1", "fs.write", path="../outside/new.txt", content="x")
        + "\n"
        + cmd("w2", "fs.write", path=str(outside / "new2.txt"), content="x")
        + "\n"
        + cmd("w3", "fs.delete", path="../outside/secret.txt")
    )
    assert_all_refused(results, "ERR_PATH_OUTSIDE_WORKSPACE")
    assert sorted(p.name for p in outside.iterdir()) == before


def test_links_inside_the_root_still_work(run_reply: Any, cmd: Any, workspace: Path) -> None:
    os.symlink("src/pkg", workspace / "pkg-link")
    (result,) = run_reply(cmd("inside", "fs.read", path="pkg-link/util.py"))
    assert result.ok
    assert result.details == "VALUE = 42\n"


# -- secret-looking files --------------------------------------------------------------


@pytest.fixture
def secrets(workspace: Path, sentinel: str) -> dict[str, str]:
    files = {
        ".env": f"API_KEY={sentinel}\n",
        "config/.env.production": f"TOKEN={sentinel}\n",
        "keys/id_rsa": f"-----BEGIN KEY-----\n{sentinel}\n",
        "certs/server.pem": f"-----BEGIN CERT-----\n{sentinel}\n",
    }
    for rel, text in files.items():
        path = workspace / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return files


@pytest.mark.parametrize(
    "rel", [".env", "config/.env.production", "keys/id_rsa", "certs/server.pem"]
)
@pytest.mark.parametrize("action", ["fs.read", "fs.readSlice", "fs.search"])
def test_secret_reads_need_approval(
    rel: str, action: str, run_reply: Any, cmd: Any, secrets: dict[str, str], sentinel: str
) -> None:
    extra = {"query": "SENTINEL"} if action == "fs.search" else {}
    (rejected,) = run_reply(cmd("secret-no", action, path=rel, **extra), False)
    assert not rejected.ok
    assert "rejected by the user" in rejected.summary
    assert_never_leaks([rejected], sentinel)
    (undecided,) = run_reply(cmd("secret-undecided", action, path=rel, **extra), None)
    assert not undecided.ok
    assert_never_leaks([undecided], sentinel)
    (approved,) = run_reply(cmd("secret-yes", action, path=rel, **extra), True)
    assert approved.ok
    assert sentinel in (approved.details or "")


def test_a_link_to_a_secret_file_is_a_secret_read(
    run_reply: Any, cmd: Any, workspace: Path, secrets: dict[str, str], sentinel: str
) -> None:
    os.symlink(".env", workspace / "settings.txt")
    (rejected,) = run_reply(cmd("alias-read", "fs.read", path="settings.txt"), False)
    assert not rejected.ok
    assert_never_leaks([rejected], sentinel)
    (tree,) = run_reply(cmd("alias-tree", "fs.searchTree", path=".", query="SENTINEL"), False)
    assert_never_leaks([tree], sentinel)


def test_search_tree_passes_over_secret_files_approved_or_not(
    run_reply: Any, cmd: Any, workspace: Path, secrets: dict[str, str], sentinel: str
) -> None:
    (workspace / "notes.txt").write_text("public SENTINEL mention\n", encoding="utf-8")
    for approve in (False, True):
        (found,) = run_reply(
            cmd(f"tree-{approve}", "fs.searchTree", path=".", query="SENTINEL"), approve
        )
        assert found.ok  # the public part of the search is still useful
        assert "notes.txt:1: public SENTINEL mention" in found.details
        # It counts the secret-looking files it left unread and names none of them.
        assert "# secret-looking files not searched: 4 (never opened" in found.details
        for rel in secrets:
            assert rel not in found.details
        assert_never_leaks([found], sentinel)
    # The way to search one is fs.search, approved.
    (approved,) = run_reply(cmd("search-yes", "fs.search", path=".env", query="SENTINEL"), True)
    assert approved.ok
    assert sentinel in approved.details


def test_search_tree_without_secret_matches_needs_no_approval(
    run_reply: Any, cmd: Any, make_session: Any, secrets: dict[str, str]
) -> None:
    run = make_session().prepare(cmd("tree-plain", "fs.searchTree", path=".", query="VALUE"))
    assert run.pending == []
    assert run.results[0].ok
