"""Attack cases taken from other projects' jails, run through every action family.

- The MCP filesystem server's path-validation suite (modelcontextprotocol/servers,
  src/filesystem/__tests__/path-validation.test.ts at 76d64c82, MIT/Apache-2.0): prefix
  siblings, traversal spellings, special characters, symlink chains, a root opened through
  a symlink, writes through links, FIFOs and devices. Their absolute paths become paths
  relative to the workspace, which is how commands name files here.
- git's t/t4139-apply-escape.sh (git/git, GPL-2.0): a patch may not create or delete
  ``../foo``, nor write through a symlink to ``..`` or to an absolute folder outside.
Only the cases' ideas are taken; no code of either project is copied.
"""

from __future__ import annotations

import base64
import os
import stat
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest

from llm_operator.core.store.workspace import Workspace

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX paths and symlinks")

READS: tuple[tuple[str, dict[str, str]], ...] = (
    ("fs.read", {}),
    ("fs.readSlice", {}),
    ("fs.search", {"query": "SENTINEL"}),
    ("fs.stat", {}),
    ("fs.list", {}),
    ("fs.readStructure", {"target": "main"}),
    ("fs.listRegions", {"comment_line_prefix": "#"}),
    ("fs.readRegion", {"marker_id": "m", "comment_line_prefix": "#"}),
    ("fs.deleteStructure", {"target": "main"}),
)


def all_commands(cmd: Any, path: str, prefix: str) -> str:
    """Every action family on ``path``: reads, structure and region reads, structure
    edits, writes, patches, edits, delete."""
    blocks = []
    for number, (action, extra) in enumerate(READS):
        blocks.append(cmd(f"{prefix}-r{number}", action, path=path, **extra))
    edits = base64.b64encode(b'[{"op": "replaceAll", "find": "a", "replace": "b"}]').decode()
    patch = base64.b64encode(b"--- /dev/null\n+++ b/x\n@@ -0,0 +1 @@\n+evil\n").decode()
    blocks += [
        cmd(f"{prefix}-w", "fs.write", path=path, content="planted"),
        cmd(f"{prefix}-p", "fs.patch", path=path, patch_b64=patch),
        cmd(f"{prefix}-e", "fs.applyEdits", path=path, edits_b64=edits),
        cmd(f"{prefix}-d", "fs.delete", path=path),
    ]
    return "\n".join(blocks)


@pytest.fixture
def sentinel() -> str:
    return f"SENTINEL-{uuid.uuid4().hex}"


@pytest.fixture
def siblings(tmp_path: Path, workspace: Path, sentinel: str) -> dict[str, Path]:
    """Folders beside the workspace whose names share its prefix (the MCP prefix cases)."""
    made = {}
    for suffix in ("2", "_backup", "-old", "ile", ".bak", " (v2)"):
        folder = tmp_path / f"{workspace.name}{suffix}"
        folder.mkdir()
        (folder / "secret.txt").write_text(f"{sentinel}\n")
        made[suffix] = folder
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text(f"{sentinel}\n")
    made["outside"] = outside
    return made


def outside_state(folders: dict[str, Path]) -> dict[str, bytes]:
    return {
        str(path): path.read_bytes()
        for folder in folders.values()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def check_refused(results: list[Any], sentinel: str, codes: set[str]) -> None:
    assert results
    for result in results:
        assert sentinel not in result.summary + (result.details or "")
        assert not result.ok, result.summary
        assert result.code in codes, result.summary


@pytest.mark.parametrize("suffix", ["2", "_backup", "-old", "ile", ".bak", " (v2)"])
def test_prefix_siblings_are_outside(
    suffix: str, run_reply: Any, cmd: Any, workspace: Path, siblings: Any, sentinel: str
) -> None:
    before = outside_state(siblings)
    name = f"{workspace.name}{suffix}"
    os.symlink(siblings[suffix], workspace / "sib")
    for number, path in enumerate((f"../{name}/secret.txt", f"../{name}", "sib/secret.txt")):
        results = run_reply(all_commands(cmd, path, f"s{number}"))
        check_refused(results, sentinel, {"ERR_PATH_OUTSIDE_WORKSPACE"})
    assert outside_state(siblings) == before


@pytest.mark.parametrize(
    "path",
    [
        "../../../etc/passwd",
        "src/../../outside/secret.txt",
        "./../../outside",
        "src/./../../outside/secret.txt",
        "src/../src/../../outside/secret.txt",
        "..",
        "../outside/secret.txt ",  # trailing space
        "../OUTSIDE/secret.txt",  # case variant
    ],
)
def test_traversal_spellings(
    path: str, run_reply: Any, cmd: Any, siblings: Any, sentinel: str
) -> None:
    before = outside_state(siblings)
    results = run_reply(all_commands(cmd, path, "t"))
    check_refused(results, sentinel, {"ERR_PATH_OUTSIDE_WORKSPACE"})
    assert outside_state(siblings) == before


@pytest.mark.parametrize(
    "name", ["..test", "test..", "te..st", "100%.txt", "%2e%2e", "my-project (v2).txt", "a'b\"c"]
)
def test_dots_percent_unicode_and_quotes_are_plain_names(
    name: str, run_reply: Any, cmd: Any, workspace: Path, siblings: Any
) -> None:
    before = outside_state(siblings)
    (write, read) = run_reply(
        cmd("w", "fs.write", path=f"src/{name}", content="kept inside")
        + "\n"
        + cmd("r", "fs.read", path=f"src/{name}")
    )
    assert write.ok, write.summary
    assert read.ok, read.summary
    assert read.details == "kept inside"
    assert (workspace / "src" / name).read_text() == "kept inside"
    assert outside_state(siblings) == before


@pytest.mark.parametrize("path", [' "../outside/secret.txt"', " ../outside/secret.txt", "'..'/x"])
def test_quoted_or_space_led_dots_are_names_not_parents(
    path: str, run_reply: Any, cmd: Any, workspace: Path, siblings: Any, sentinel: str
) -> None:
    # ' ..' and '"..' are names a folder could have; they must never mean the parent.
    before = outside_state(siblings)
    results = run_reply(all_commands(cmd, path, "q"))
    by_id = {result.id: result for result in results}
    for result in results:
        assert sentinel not in result.summary + (result.details or "")
    assert outside_state(siblings) == before
    assert by_id["q-w"].code != "ERR_INTERNAL"
    (written,) = run_reply(cmd("again", "fs.write", path=path, content="planted"))
    assert outside_state(siblings) == before
    if written.ok:  # the scanner kept the odd name: the file is inside, under that name
        inside = [p for p in workspace.rglob("*") if p.is_file() and p.read_text() == "planted"]
        assert inside
        assert all(workspace in p.parents for p in inside)
    else:
        assert written.code != "ERR_INTERNAL", written.summary


def test_symlink_chain_ending_outside(
    tmp_path: Path, run_reply: Any, cmd: Any, workspace: Path, siblings: Any, sentinel: str
) -> None:
    before = outside_state(siblings)
    os.symlink(siblings["outside"] / "secret.txt", tmp_path / "link1")
    os.symlink(tmp_path / "link1", tmp_path / "link2")
    os.symlink(tmp_path / "link2", workspace / "seemingly-safe")
    results = run_reply(all_commands(cmd, "seemingly-safe", "c"))
    # The delete removes the link itself (inside); everything else is refused.
    for result in results:
        assert sentinel not in result.summary + (result.details or "")
        if result.id != "c-d":
            assert result.code == "ERR_PATH_OUTSIDE_WORKSPACE", result.summary
    assert outside_state(siblings) == before


def test_symlink_chain_inside_and_a_root_opened_through_a_symlink(
    tmp_path: Path, run_reply: Any, cmd: Any, workspace: Path, state_dir: Path
) -> None:
    from llm_operator.core.plan.session import Session
    from support.fixtures import run_session

    os.symlink("pkg/util.py", workspace / "src" / "l1")
    os.symlink("l1", workspace / "src" / "l2")
    alias = tmp_path / "alias-of-ws"
    os.symlink(workspace, alias)
    # An absolute link naming the root through the alias still lands inside.
    os.symlink(alias / "README.md", workspace / "readme-abs")
    session = Session(Workspace(alias), state_dir)
    (chain, absolute, write) = run_session(
        session,
        cmd("a", "fs.read", path="src/l2")
        + "\n"
        + cmd("b", "fs.read", path="readme-abs")
        + "\n"
        + cmd("c", "fs.write", path="src/l2", content="VALUE = 43"),
        True,
    )
    assert chain.ok, chain.summary
    assert chain.details == "VALUE = 42\n"
    assert absolute.ok, absolute.summary
    assert "Demo" in (absolute.details or "")
    assert write.ok, write.summary
    assert os.readlink(workspace / "src" / "l2") == "l1"  # the link stays a link
    assert (workspace / "src" / "pkg" / "util.py").read_text() == "VALUE = 43"


def test_write_through_a_link_to_an_outside_file_is_refused(
    run_reply: Any, cmd: Any, workspace: Path, siblings: Any, sentinel: str
) -> None:
    before = outside_state(siblings)
    os.symlink(siblings["outside"] / "secret.txt", workspace / "target-symlink.txt")
    results = run_reply(
        cmd("w", "fs.write", path="target-symlink.txt", content="NEW CONTENT")
        + "\n"
        + cmd("n", "fs.write", path="target-symlink.txt/child", content="x")
    )
    check_refused(results, sentinel, {"ERR_PATH_OUTSIDE_WORKSPACE"})
    assert outside_state(siblings) == before
    assert (workspace / "target-symlink.txt").is_symlink()


def test_new_file_under_a_symlinked_parent_that_leaves(
    run_reply: Any, cmd: Any, workspace: Path, siblings: Any, sentinel: str
) -> None:
    os.symlink(siblings["outside"], workspace / "linked")
    results = run_reply(cmd("w", "fs.write", path="linked/deeper/new.txt", content="x"))
    check_refused(results, sentinel, {"ERR_PATH_OUTSIDE_WORKSPACE"})
    assert not (siblings["outside"] / "deeper").exists()


def test_fifos_and_devices_are_not_files(run_reply: Any, cmd: Any, workspace: Path) -> None:
    os.mkfifo(workspace / "pipe")
    os.symlink("/dev/zero", workspace / "zero")
    made_device = True
    try:
        os.mknod(workspace / "null", stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        made_device = False
    results = run_reply(all_commands(cmd, "pipe", "f") + "\n" + all_commands(cmd, "zero", "z"))
    by_id = {result.id: result for result in results}
    for result in results:
        if result.id.startswith("z"):
            if result.id != "z-d":  # deleting the link itself is allowed
                assert result.code == "ERR_PATH_OUTSIDE_WORKSPACE", result.summary
        elif result.id not in ("f-r3", "f-r4"):  # fs.stat tells its kind; fs.list refuses
            assert result.code == "ERR_NOT_A_FILE", result.summary
    assert by_id["f-r3"].ok
    assert by_id["f-r4"].code == "ERR_NOT_A_DIRECTORY"
    assert stat.S_ISFIFO(os.lstat(workspace / "pipe").st_mode)
    if made_device:
        results = run_reply(all_commands(cmd, "null", "n"))
        for result in results:
            if result.id not in ("n-r3", "n-r4"):
                assert result.code == "ERR_NOT_A_FILE", result.summary


# -- git t4139-apply-escape ---------------------------------------------------------------

NEW_FILE_PATCH = base64.b64encode(b"--- /dev/null\n+++ b/foo\n@@ -0,0 +1 @@\n+evil\n").decode()


def test_t4139_cannot_create_or_delete_a_file_containing_dotdot(
    tmp_path: Path, run_reply: Any, cmd: Any, workspace: Path
) -> None:
    results = run_reply(
        cmd("a", "fs.write", path="../foo", content="evil")
        + "\n"
        + cmd("b", "fs.patch", path="../foo", patch_b64=NEW_FILE_PATCH)
    )
    check_refused(results, "no sentinel", {"ERR_PATH_OUTSIDE_WORKSPACE"})
    assert not (tmp_path / "foo").exists()
    (tmp_path / "foo").write_text("evil\n")
    results = run_reply(cmd("c", "fs.delete", path="../foo"))
    check_refused(results, "no sentinel", {"ERR_PATH_OUTSIDE_WORKSPACE"})
    assert (tmp_path / "foo").read_text() == "evil\n"


@pytest.mark.parametrize("how", ["dotdot", "absolute"])
def test_t4139_symlink_escape(
    how: str, tmp_path: Path, run_reply: Any, cmd: Any, workspace: Path
) -> None:
    os.symlink(".." if how == "dotdot" else str(tmp_path), workspace / "tmp")
    (tmp_path / "bar").write_text("evil\n")
    results = run_reply(
        cmd("a", "fs.write", path="tmp/foo", content="evil")
        + "\n"
        + cmd("b", "fs.patch", path="tmp/foo", patch_b64=NEW_FILE_PATCH)
        + "\n"
        + cmd("c", "fs.delete", path="tmp/bar")
    )
    check_refused(results, "no sentinel", {"ERR_PATH_OUTSIDE_WORKSPACE"})
    assert not (tmp_path / "foo").exists()
    assert (tmp_path / "bar").read_text() == "evil\n"


def test_t4139_symlink_to_the_root_itself_stays_inside(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    # git refuses any write beyond a symlink; here a link is followed while it stays inside.
    os.symlink(str(workspace), workspace / "tmp")
    (result,) = run_reply(cmd("a", "fs.patch", path="tmp/foo", patch_b64=NEW_FILE_PATCH))
    assert result.ok, result.summary
    assert (workspace / "foo").read_text() == "evil\n"
    assert (workspace / "tmp").is_symlink()
