"""Every operating-system fault comes back as a named ERR_ code with a message that names
workspace-relative paths only (never the absolute workspace path nor its real path), and
never as ERR_INTERNAL.

The faults are real (the suite may run as root, so permission bits alone prove nothing):
a file where a folder is expected, names over the file system's limit, symlink loops, a
read-only tmpfs, a full tmpfs, named pipes. The replies run in a real ``llm-operator exec``
process and every failure of every result is scanned.
"""

from __future__ import annotations

import base64
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from support.actions import cli

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="mounts and errnos of Linux")

LONG = "n" * 300
FAMILIES: tuple[tuple[str, dict[str, str]], ...] = (
    ("fs.read", {}),
    ("fs.readSlice", {}),
    ("fs.search", {"query": "x"}),
    ("fs.stat", {}),
    ("fs.list", {}),
    ("fs.searchTree", {"query": "x"}),
    ("fs.readStructure", {"target": "main"}),
    ("fs.listRegions", {"comment_line_prefix": "#"}),
    ("fs.readRegion", {"marker_id": "m", "comment_line_prefix": "#"}),
    ("fs.replaceStructure", {"target": "main", "content_b64": "eA=="}),
    ("fs.write", {"content": "x"}),
    ("fs.patch", {"patch_b64": base64.b64encode(b"@@ -1 +1 @@\n-a\n+b\n")}),
    ("fs.applyEdits", {"edits_b64": base64.b64encode(b'[{"op": "replaceAll", "find": "a"}]')}),
    ("fs.delete", {}),
)


def every_family(cmd: Any, path: str, prefix: str) -> list[str]:
    blocks = []
    for number, (action, extra) in enumerate(FAMILIES):
        fields = {k: v.decode() if isinstance(v, bytes) else v for k, v in extra.items()}
        blocks.append(cmd(f"{prefix}-{number}", action, path=path, **fields))
    return blocks


def mount(*args: str) -> bool:
    done = subprocess.run(["mount", *args], capture_output=True, check=False)
    return done.returncode == 0


@pytest.fixture
def mounts(workspace: Path) -> Iterator[dict[str, Path]]:
    """``ro/`` a read-only tmpfs holding a file, ``full/`` a 16 KB tmpfs; skipped where
    mounting is not allowed."""
    made: dict[str, Path] = {}
    ro, full = workspace / "ro", workspace / "full"
    ro.mkdir()
    full.mkdir()
    if os.geteuid() == 0 and mount("-t", "tmpfs", "-o", "size=1m", "tmpfs", str(ro)):
        (ro / "kept.txt").write_text("a\n")
        if mount("-o", "remount,ro", str(ro)):
            made["ro"] = ro
    if os.geteuid() == 0 and mount("-t", "tmpfs", "-o", "size=16k", "tmpfs", str(full)):
        made["full"] = full
    yield made
    for folder in (ro, full):
        subprocess.run(["umount", str(folder)], capture_output=True, check=False)


@pytest.mark.slow
def test_os_faults_have_named_codes_and_relative_messages(
    tmp_path: Path, workspace: Path, cmd: Any, parse_results: Any, mounts: dict[str, Path]
) -> None:
    (workspace / "loop-a").symlink_to("loop-b")
    (workspace / "loop-b").symlink_to("loop-a")
    (workspace / "self").symlink_to("self/x")
    os.mkfifo(workspace / "pipe")
    cases: list[tuple[str, set[str]]] = [
        ("README.md/inner.txt", {"ERR_NOT_A_DIRECTORY"}),
        ("src/main.py/deeper/x.py", {"ERR_NOT_A_DIRECTORY"}),
        (f"{LONG}.txt", {"ERR_NAME_TOO_LONG"}),
        (f"src/{LONG}/x.txt", {"ERR_NAME_TOO_LONG"}),
        ("loop-a", {"ERR_SYMLINK_LOOP"}),
        ("loop-a/x.txt", {"ERR_SYMLINK_LOOP"}),
        ("self", {"ERR_SYMLINK_LOOP"}),
        ("pipe", {"ERR_NOT_A_FILE", "ERR_NOT_A_DIRECTORY"}),
        ("no/such/file.txt", {"ERR_FILE_NOT_FOUND"}),
    ]
    blocks: list[str] = []
    expected: dict[str, set[str]] = {}
    for number, (path, codes) in enumerate(cases):
        for block in every_family(cmd, path, f"c{number}"):
            blocks.append(block)
        for index in range(len(FAMILIES)):
            expected[f"c{number}-{index}"] = codes | {"ERR_FILE_NOT_FOUND"}
    # The write of case 8 creates the file: the patch and the edit then miss their text.
    expected["c8-11"] = {"ERR_PATCH_CONTEXT_MISMATCH"}
    expected["c8-12"] = {"ERR_INVALID_EDITS_JSON", "ERR_ANCHOR_NOT_FOUND"}
    if "ro" in mounts:
        blocks += [
            cmd("ro-w", "fs.write", path="ro/new.txt", content="x"),
            cmd("ro-d", "fs.delete", path="ro/kept.txt"),
        ]
        expected |= {
            "ro-w": {"ERR_READ_ONLY_FS"},
            "ro-d": {"ERR_READ_ONLY_FS"},
        }
    if "full" in mounts:
        big = base64.b64encode(os.urandom(30_000)).decode()
        blocks.append(cmd("full-w", "fs.write", path="full/big.txt", content=big))
        expected["full-w"] = {"ERR_NO_SPACE"}
    reply = tmp_path / "reply.txt"
    reply.write_text("\n\n".join(blocks) + "\n")
    done = cli("exec", "--workspace", workspace, "--state-dir", tmp_path / "st", "--yes", reply)
    assert "Traceback" not in done.stderr, done.stderr
    results = parse_results(done.stdout)
    assert {result.id for result in results} == set(expected), results[0].summary
    leaks = {str(workspace), os.path.realpath(workspace), str(tmp_path)}
    seen: set[str] = set()
    for result in results:
        text = result.summary + (result.details or "")
        assert not any(leak in text for leak in leaks), text
        if result.ok:
            # fs.stat of the pipe tells its kind; a write to a missing path creates it, and
            # the delete of the same reply then removes it. A delete of a looping link
            # removes the link: deleting a link never needs its target.
            assert result.id in {"c4-13", "c6-13", "c7-3", "c8-10", "c8-13"}, result.summary
            continue
        assert result.code != "ERR_INTERNAL", result.summary
        if result.code and result.code != "ERR_FILE_NOT_FOUND":
            seen.add(result.code)
        if result.id in expected and result.code not in expected[result.id]:
            # Refusals by the validator (bad field values) come before the disk.
            assert result.summary.startswith("Invalid OPERATOR_CMD"), result.summary
    must = {"ERR_NOT_A_DIRECTORY", "ERR_NAME_TOO_LONG", "ERR_SYMLINK_LOOP", "ERR_NOT_A_FILE"}
    if "ro" in mounts:
        must |= {"ERR_READ_ONLY_FS"}
    if "full" in mounts:
        must |= {"ERR_NO_SPACE"}
    assert must <= seen, seen
    if "full" in mounts:
        assert not any((workspace / "full").iterdir())  # no temp file left on the full disk


def _drop_dac_override() -> None:
    """In the child: drop the capabilities that let root ignore permission bits, so the
    exec process meets EACCES as a normal user would (prctl PR_CAPBSET_DROP)."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
        if libc.prctl(24, capability, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def test_permission_faults_are_named(
    tmp_path: Path, workspace: Path, cmd: Any, parse_results: Any, trash: Path
) -> None:
    if os.geteuid() != 0:
        pytest.skip("chmod already binds a normal user; this case is about root")
    (workspace / "closed.txt").write_text("x\n")
    (workspace / "closed.txt").chmod(0)
    (workspace / "locked").mkdir()
    (workspace / "locked").chmod(0)
    (workspace / "frozen").mkdir()
    (workspace / "frozen" / "a.txt").write_text("a\n")
    (workspace / "frozen" / "c.txt").write_text("c\n")
    (workspace / "frozen").chmod(0o500)
    blocks = [
        cmd("read", "fs.read", path="closed.txt"),
        cmd("list", "fs.list", path="locked"),
        cmd("into", "fs.write", path="locked/x.txt", content="x"),
        cmd("new", "fs.write", path="frozen/b.txt", content="b"),
        cmd("over", "fs.write", path="frozen/a.txt", content="b"),
        cmd("del", "fs.delete", path="frozen/c.txt"),
        cmd("fine", "fs.write", path="open.txt", content="still works"),
    ]
    reply = tmp_path / "reply.txt"
    reply.write_text("\n\n".join(blocks) + "\n")
    try:
        command = [sys.executable, "-m", "llm_operator.cli", "exec", "--yes"]
        done = subprocess.run(
            [
                *command,
                "--workspace",
                str(workspace),
                "--state-dir",
                str(tmp_path / "st"),
                str(reply),
            ],
            preexec_fn=_drop_dac_override,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    except subprocess.SubprocessError as exc:
        pytest.skip(f"cannot drop capabilities here: {exc}")
    finally:
        for folder in ("locked", "frozen"):
            (workspace / folder).chmod(0o700)
    assert "Traceback" not in done.stderr, done.stderr
    by_id = {result.id: result for result in parse_results(done.stdout)}
    for name in ("read", "list", "into", "new", "over"):
        assert by_id[name].code == "ERR_PERMISSION_DENIED", by_id[name].summary
    assert by_id["del"].code == "ERR_TRASH_UNAVAILABLE"
    assert "permission denied" in by_id["del"].summary
    assert by_id["fine"].ok, by_id["fine"].summary
    for result in by_id.values():
        assert str(workspace) not in result.summary + (result.details or "")
    assert (workspace / "frozen" / "a.txt").read_text() == "a\n"
    assert sorted(p.name for p in (workspace / "frozen").iterdir()) == ["a.txt", "c.txt"]
