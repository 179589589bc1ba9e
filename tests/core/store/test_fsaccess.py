"""The descriptor walk itself: how paths, symlinks and ``..`` resolve, and the send2trash
name check that refuses a path whose folder was swapped after the descriptor check."""

from __future__ import annotations

import contextlib
import itertools
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from llm_operator.core.errors import OperatorError
from llm_operator.core.store.atomic import write_path_atomically
from llm_operator.core.store.fsaccess import MAX_HOPS, locate
from llm_operator.core.store.settings import Settings
from llm_operator.core.store.trashing import move_to_trash, verify_name
from support.tmpfs import mounted_tmpfs

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX descriptors")


@pytest.fixture
def root(workspace: Path) -> Path:
    return Path(os.path.realpath(workspace))


def rel_of(root: Path, path: str, follow_last: bool = True) -> str:
    with locate(root, path, follow_last=follow_last) as spot:
        return spot.rel


def test_plain_paths_and_missing_parts(root: Path) -> None:
    assert rel_of(root, ".") == "."
    assert rel_of(root, "src/./pkg//util.py") == "src/pkg/util.py"
    with locate(root, "src/new/deeper/x.txt") as spot:
        assert spot.dir_parts == ("src",)
        assert spot.missing == ("new", "deeper")
        assert spot.name == "x.txt"
        assert not spot.exists
    with locate(root, "src/pkg") as spot:
        assert spot.is_dir
    assert rel_of(root, "src/pkg/..") == "src"


def test_symlinks_resolve_like_the_kernel_but_by_text(root: Path) -> None:
    os.symlink("src/pkg", root / "p")
    os.symlink(str(root / "src"), root / "abs")
    # link/.. is the parent of the link's target, as POSIX has it, not the link's folder.
    assert rel_of(root, "p/../main.py") == "src/main.py"
    assert rel_of(root, "abs/pkg/util.py") == "src/pkg/util.py"
    assert rel_of(root, "p", follow_last=False) == "p"
    with locate(root, "p/util.py") as spot:
        assert "p" in spot.trail
        assert "pkg" in spot.trail


def test_link_climbing_out_or_pointing_away_is_outside(root: Path, tmp_path: Path) -> None:
    os.symlink("../..", root / "src" / "up")
    os.symlink("/etc", root / "etc")
    for path in ("src/up/x", "etc/passwd", "etc"):
        with pytest.raises(OperatorError) as raised:
            locate(root, path).close()
        assert raised.value.code == "ERR_PATH_OUTSIDE_WORKSPACE"


def test_loops_stop_with_a_named_code(root: Path) -> None:
    chain = [f"l{n}" for n in range(MAX_HOPS + 2)]
    for here, there in itertools.pairwise(chain):
        os.symlink(there, root / here)
    (root / chain[-1]).write_text("end\n")
    with pytest.raises(OperatorError) as raised:
        locate(root, chain[0]).close()
    assert raised.value.code == "ERR_SYMLINK_LOOP"
    assert str(root) not in raised.value.message
    assert rel_of(root, chain[-5]) == chain[-1]  # a short chain is fine


def test_a_file_in_the_middle_is_not_a_folder(root: Path) -> None:
    with pytest.raises(OperatorError) as raised:
        locate(root, "README.md/x/y").close()
    assert raised.value.code == "ERR_NOT_A_DIRECTORY"
    assert "README.md" in raised.value.message


def test_the_trash_name_check_refuses_a_swapped_folder(
    root: Path, tmp_path: Path, trash: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "a.txt").write_text("outside\n")
    (root / "sub").mkdir()
    (root / "sub" / "a.txt").write_text("inside\n")
    with locate(root, "sub/a.txt", follow_last=False) as spot:
        assert verify_name(root, spot) == str(root / "sub" / "a.txt")
        # Between the descriptor check and send2trash, sub/ becomes a link to the outside.
        os.rename(root / "sub", root / "sub.moved")
        os.symlink(outside, root / "sub")
        with pytest.raises(OperatorError) as raised:
            move_to_trash(root, spot, "sub/a.txt")
    assert raised.value.code == "ERR_STALE_FILE"
    assert (outside / "a.txt").read_text() == "outside\n"
    assert (root / "sub.moved" / "a.txt").read_text() == "inside\n"
    assert not trash.exists() or not any(trash.iterdir())


def test_app_files_are_written_whole_and_private(tmp_path: Path) -> None:
    target = tmp_path / "state" / "x.json"
    target.parent.mkdir()
    write_path_atomically(target, b"{}")
    assert target.read_bytes() == b"{}"
    assert (target.stat().st_mode & 0o777) == 0o600
    assert sorted(p.name for p in target.parent.iterdir()) == ["x.json"]


def test_settings_save_on_a_full_disk_keeps_the_old_file(tmp_path: Path) -> None:
    with mounted_tmpfs(tmp_path / "config", "16k") as folder:
        settings = Settings(path=folder / "settings.json")
        settings.save()
        saved = (folder / "settings.json").read_bytes()
        settings.recent_workspaces = ["/x" * 20_000]
        with pytest.raises(OSError, match="No space left"):
            settings.save()
        assert (folder / "settings.json").read_bytes() == saved
        assert sorted(p.name for p in folder.iterdir()) == ["settings.json"]
        assert Settings.load(folder / "settings.json") == Settings(path=folder / "settings.json")


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts /proc/self/fd")
def test_no_descriptor_is_left_open(workspace: Path, make_session: Any, cmd: Any) -> None:
    from llm_operator.core.plan.run import APPROVE

    os.symlink("loop", workspace / "loop")
    os.mkfifo(workspace / "pipe")
    os.symlink("/etc", workspace / "etc")
    session = make_session()

    def one_round(i: int) -> None:
        blocks = [
            cmd(f"a{i}", "fs.read", path="src/main.py"),
            cmd(f"b{i}", "fs.read", path="loop"),
            cmd(f"c{i}", "fs.read", path="pipe"),
            cmd(f"d{i}", "fs.list", path="src"),
            cmd(f"e{i}", "fs.stat", path="etc/passwd"),
            cmd(f"f{i}", "fs.write", path=f"new/x{i}.txt", content="x"),
            cmd(f"g{i}", "fs.delete", path=f"new/x{i}.txt"),
            cmd(f"h{i}", "fs.write", path="README.md/x", content="x"),
            cmd(f"k{i}", "fs.readStructure", path="src/main.py", target="main"),
            cmd(f"m{i}", "fs.write", path="src/pkg/util.py", content="VALUE = 1"),
        ]
        run = session.prepare("\n".join(blocks))
        results = session.execute(run, {pending.index: APPROVE for pending in run.pending})
        assert any(not r.outcome.ok for r in results)
        assert any(r.outcome.ok for r in results)
        if i % 3 == 0:
            session.undo_last()

    def open_here() -> list[str]:
        """Descriptors of this process that point into the workspace (another test's
        leftovers, closed or not by the garbage collector meanwhile, do not count)."""
        found = []
        for fd in os.listdir("/proc/self/fd"):
            with contextlib.suppress(OSError):
                target = os.readlink(f"/proc/self/fd/{fd}")
                if target.startswith(str(workspace)):
                    found.append(target)
        return found

    for i in range(3):
        one_round(i)
    before = open_here()
    for i in range(3, 30):
        one_round(i)
    assert open_here() == before
