"""fs.patch where git's own answer is the reference: each patch is also given to a real
``git apply`` in a scratch repository, and fs.patch answers as it does (applied, or
refused with a message naming the patch line that decides), on real files from
tests/data/structure_real (sources in its README)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from support.actions import b64, expect_failure
from support.paths import DATA

REAL_JS = DATA / "structure_real" / "javascript" / "koa-lib-context.js"
REAL_SH = DATA / "structure_real" / "bash" / "ripgrep-ci-utils.sh"

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def _git_apply(tmp: Path, files: dict[str, tuple[bytes, int]], patch: str) -> bool:
    """Whether ``git apply`` accepts ``patch`` in a repository holding ``files``."""
    repo = tmp / "git-reference"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    for name, (data, mode) in files.items():
        (repo / name).write_bytes(data)
        os.chmod(repo / name, mode)
    done = subprocess.run(
        ["git", "apply", "-"], cwd=repo, input=patch.encode(), capture_output=True, check=False
    )
    return done.returncode == 0


def test_a_lone_creation_hunk_on_a_file_with_lines_names_the_hunk_not_a_header(
    run_reply: Any, cmd: Any, workspace: Path, tmp_path: Path
) -> None:
    data = REAL_JS.read_bytes()
    (workspace / "context.js").write_bytes(data)
    patch = "@@ -0,0 +1 @@\n+'use strict'\n"
    result = expect_failure(
        run_reply,
        workspace,
        cmd("c1", "fs.patch", path="context.js", patch_b64=b64(patch)),
        "ERR_PATCH_CONTEXT_MISMATCH",
        "c1",
        "context.js",
    )
    assert "its only hunk '@@ -0,0 +1 @@' (patch line 1)" in result.summary
    assert "/dev/null" not in result.summary
    assert "already has 248 lines" in result.summary


def test_new_file_mode_without_a_hunk_creates_an_empty_file_as_git_does(
    run_reply: Any, cmd: Any, workspace: Path, tmp_path: Path
) -> None:
    patch = "diff --git a/empty.txt b/empty.txt\nnew file mode 100644\nindex 0000000..e69de29\n"
    assert _git_apply(tmp_path, {}, patch)
    assert (tmp_path / "git-reference" / "empty.txt").read_bytes() == b""
    (result,) = run_reply(cmd("e1", "fs.patch", path="empty.txt", patch_b64=b64(patch)))
    assert result.ok, result.summary
    assert (workspace / "empty.txt").read_bytes() == b""


def test_a_new_file_patch_onto_an_existing_executable_file_is_refused_as_git_does(
    run_reply: Any, cmd: Any, workspace: Path, tmp_path: Path
) -> None:
    data = REAL_SH.read_bytes()
    target = workspace / "utils.sh"
    target.write_bytes(data)
    os.chmod(target, 0o755)
    patch = "diff --git a/utils.sh b/utils.sh\nnew file mode 100755\nindex 0000000..e69de29\n"
    assert not _git_apply(tmp_path, {"utils.sh": (data, 0o755)}, patch)
    result = expect_failure(
        run_reply,
        workspace,
        cmd("x1", "fs.patch", path="utils.sh", patch_b64=b64(patch)),
        "ERR_PATCH_CONTEXT_MISMATCH",
        "x1",
        "utils.sh",
    )
    assert "'new file mode 100755' (patch line 2)" in result.summary
    assert os.stat(target).st_mode & 0o777 == 0o755


def test_a_hunk_running_past_the_end_is_shown_where_its_lines_are(
    run_reply: Any, cmd: Any, workspace: Path, tmp_path: Path
) -> None:
    data = REAL_JS.read_bytes()
    lines = data.decode("utf-8").split("\n")[:-1]
    (workspace / "context.js").write_bytes(data)
    last = len(lines)
    patch = f"@@ -{last - 1},3 +{last - 1},4 @@\n {lines[-2]}\n {lines[-1]}\n more()\n+added()\n"
    assert not _git_apply(tmp_path, {"context.js": (data, 0o644)}, patch)
    result = expect_failure(
        run_reply,
        workspace,
        cmd("p1", "fs.patch", path="context.js", patch_b64=b64(patch)),
        "ERR_PATCH_CONTEXT_MISMATCH",
        "p1",
        "context.js",
    )
    message = result.json()["message"]  # a summary is one line; the hunk is in the details
    assert f"nearest place, lines {last - 1}-{last} " in message
    assert f"The file ends after line {last}" in message
