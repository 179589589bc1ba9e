"""The jail under a race: a second process swaps ``sub/`` between the real folder and a
symlink to a folder outside the workspace, in a tight loop, while replies run fs.write,
fs.read, fs.stat and fs.delete on paths under ``sub/`` again and again.

Nothing may be created, read or removed outside: the outside folder holds files with the
same names as those inside ``sub/`` (with a sentinel text), and its full listing, temp
files included, must be the same at the end. Every failure must be the jail's refusal
(ERR_PATH_OUTSIDE_WORKSPACE) or a clean "it is not there right now".
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX symlinks")

RACE_SECONDS = 21.0

SWAPPER = textwrap.dedent(
    """
    import os, sys, time
    ws, outside, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
    sub, parked = os.path.join(ws, "sub"), os.path.join(ws, "sub.real")
    end = time.monotonic() + seconds
    swaps = 0
    made = 0
    print("ready", flush=True)
    while time.monotonic() < end:
        try:
            os.rename(sub, parked)
            os.symlink(outside, sub)
            os.unlink(sub)
            os.rename(parked, sub)
            swaps += 1
            # A breath with the real folder in place, as between a user's two commands:
            # without it the session's by-name steps (send2trash) would never find it.
            time.sleep(0.0005)
        except OSError:
            # A write made a new sub/ while the real one was parked: keep it aside, inside
            # the workspace, and put the real folder back.
            if os.path.lexists(parked):
                if os.path.islink(sub):
                    os.unlink(sub)
                elif os.path.isdir(sub):
                    made += 1
                    os.rename(sub, os.path.join(ws, "made-%d" % made))
                os.rename(parked, sub)
    print(swaps, made, flush=True)
    """
)

ALLOWED = {"ERR_PATH_OUTSIDE_WORKSPACE", "ERR_FILE_NOT_FOUND", "ERR_STALE_FILE"}


def listing(folder: Path) -> dict[str, bytes | str]:
    found: dict[str, bytes | str] = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            rel = path.relative_to(folder).as_posix()
            found[rel] = "dir" if path.is_dir() else path.read_bytes()
    return found


@pytest.mark.slow  # one of the slowest: run by .ci/run
def test_swapping_a_folder_for_an_outside_symlink(
    tmp_path: Path, workspace: Path, make_session: Any, cmd: Any, trash: Path
) -> None:
    from support.fixtures import run_session

    sentinel = f"SENTINEL-{uuid.uuid4().hex}"
    outside = tmp_path / "outside"
    outside.mkdir()
    sub = workspace / "sub"
    sub.mkdir()
    (sub / "inside.txt").write_text("inside text\n")
    for name in ("inside.txt", *(f"d-{n}.txt" for n in range(2000))):
        (outside / name).write_text(f"{sentinel} {name}\n")
    before_outside = listing(outside)
    real_sub = os.open(sub, os.O_RDONLY | os.O_DIRECTORY)  # the real folder, by inode

    swapper = subprocess.Popen(
        [sys.executable, "-c", SWAPPER, str(workspace), str(outside), str(RACE_SECONDS)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert swapper.stdout is not None
    assert swapper.stdout.readline().strip() == "ready"
    results: list[Any] = []
    rounds = 0
    try:
        while swapper.poll() is None:
            name = f"d-{rounds % 2000}.txt"
            fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644, dir_fd=real_sub)
            os.write(fd, b"to delete\n")
            os.close(fd)
            reply = "\n".join(
                [
                    cmd(f"w{rounds}", "fs.write", path=f"sub/w-{rounds}.txt", content="new"),
                    cmd(f"r{rounds}", "fs.read", path="sub/inside.txt"),
                    cmd(f"s{rounds}", "fs.stat", path="sub/inside.txt"),
                    cmd(f"l{rounds}", "fs.list", path="sub"),
                    cmd(f"x{rounds}", "fs.delete", path=f"sub/{name}"),
                ]
            )
            results += run_session(make_session(), reply, True)
            rounds += 1
        out, _ = swapper.communicate(timeout=30)
    finally:
        if swapper.poll() is None:
            swapper.kill()
            swapper.wait()
        os.close(real_sub)

    swaps, made = (int(n) for n in out.split())
    assert swaps > 1000, "the swapper must really have raced"
    assert rounds > 20
    assert listing(outside) == before_outside
    for result in results:
        assert sentinel not in result.summary
        assert sentinel not in (result.details or "")
        if not result.ok:
            assert result.code in ALLOWED, result.summary
            if result.code == "ERR_STALE_FILE":
                # only "it was not there any more" or "a folder on the way changed"
                assert "found nothing" in result.summary or "changed on disk just before" in (
                    result.summary
                ), result.summary
    trashed = [p.read_bytes() for p in trash.rglob("*") if p.is_file()] if trash.exists() else []
    assert not any(sentinel.encode() in data for data in trashed)
    succeeded = {r.id[0] for r in results if r.ok}
    # The race must not have starved the session: each kind succeeded at least once.
    assert succeeded >= {"w", "r", "s", "l", "x"}, succeeded
    codes = Counter(result.code or "ok" for result in results)
    print(f"{rounds} rounds, {swaps} swaps, {made} folders made, results: {dict(codes)}")
