"""A fault at every mutating system call: each run tells the truth and loses nothing.

The harness (scenarios, strace runs, the checks made after each trial) is
``support.fault_sweep``; its docstring says what each trial checks. The default run
tries every fifth call (EIO and SIGKILL taking turns); the ``slow`` run tries both faults
(and ENOSPC) at every call. SQLite's own files have their sweep in
``test_sqlite_file_faults``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support.actions import b64, temp_leftovers
from support.fault_sweep import (
    BATCH,
    BATCH_FILES,
    BATCH_IDS,
    CRASH_LEFT,
    FAULTS,
    MADE,
    NEW,
    OLD,
    SCENARIOS,
    STRACE,
    exec_traced,
    inject_all,
    one_world,
    report,
    undo_traced,
)
from support.fixtures import cmd, parse_results

pytestmark = pytest.mark.skipif(STRACE is None, reason="strace is not installed")


@pytest.mark.slow  # one of the slowest: run by .ci/run
def test_a_fault_at_every_fifth_mutating_call_tells_the_truth(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tally = inject_all(tmp_path, monkeypatch, FAULTS, step=5)
    print(f"fault trials: {tally.trials}, injection not reached: {tally.missed}")
    assert tally.trials > 40
    assert tally.missed < tally.trials / 4, "the dry run must predict the calls"
    assert not tally.failures, report(tally)


@pytest.mark.slow
@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_every_fault_at_every_mutating_call_tells_the_truth(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scenario: str
) -> None:
    tally = inject_all(tmp_path, monkeypatch, [*FAULTS, "error=ENOSPC"], 1, [scenario])
    print(f"fault trials ({scenario}): {tally.trials}, injection not reached: {tally.missed}")
    assert tally.trials > 100  # an undo after a crash makes about 46 calls
    assert tally.missed < tally.trials / 4, "the dry run must predict the calls"
    assert not tally.failures, report(tally)


# -- one fault each, named ---------------------------------------------------------------


@pytest.mark.slow
def test_a_run_that_cannot_take_a_crash_back_refuses_even_a_write_that_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    world, _ = one_world(tmp_path, monkeypatch, "after a crash")
    assert (world.workspace / "b.txt").read_bytes() == NEW  # the crashed batch's bytes
    same = cmd("same", "fs.write", path="b.txt", content_b64=b64(NEW))
    # Every rename fails: recovery cannot put the files back, at open nor under the lock.
    reply = same + "\n" + cmd("r1", "fs.read", path="a.txt")
    done = exec_traced(world, reply, "renameat:error=EIO:when=1+")
    assert "INJECTED" in (world.base / "one.log").read_text()
    assert "Traceback" not in done.stderr
    written, read = parse_results(done.stdout)
    assert written.code == "ERR_RECOVERY_FAILED", written.summary
    assert "could not be taken back" in written.summary
    # The files it could not put back are named; "nothing was written" would be untrue.
    assert CRASH_LEFT in written.summary
    assert "nothing was written" not in written.summary
    assert written.json()["details"]["still_changed"] == ["a.txt", "b.txt"]
    assert read.ok
    assert "writes are refused: ERR_RECOVERY_FAILED" in done.stderr
    assert done.returncode == 1
    # Nothing was remembered: once the disk works, recovery puts a.txt back and the same
    # paste writes it, once.
    done = exec_traced(world, same, None)
    (result,) = parse_results(done.stdout)
    assert result.ok, result.summary
    assert "already holds" not in result.summary
    assert not result.repeat
    assert (world.workspace / "b.txt").read_bytes() == NEW
    assert (world.workspace / "a.txt").read_bytes() == OLD
    assert not temp_leftovers(world.workspace)


def test_a_change_whose_folder_sync_failed_is_ok_with_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    world, _ = one_world(tmp_path, monkeypatch, "batch")
    # fsync 1 is the temp file's, 2 the folder's after the rename.
    done = exec_traced(
        world, cmd("w", "fs.write", path="e.txt", content_b64=b64(MADE)), "fsync:error=EIO:when=2"
    )
    assert "INJECTED" in (world.base / "one.log").read_text()
    (result,) = parse_results(done.stdout)
    assert result.ok, result.summary
    assert "may not survive a power loss" in (result.details or "")
    assert (world.workspace / "e.txt").read_bytes() == MADE


def test_an_undo_that_cannot_remove_a_folder_names_it_and_keeps_the_batch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    world, _ = one_world(tmp_path, monkeypatch, "undo")
    # unlinkat 1 removes new/sub/d.txt; 2 removes the folder new/sub.
    done = undo_traced(world, "unlinkat:error=EIO:when=2")
    assert "INJECTED" in (world.base / "undo.log").read_text()
    assert done.returncode == 1
    assert "new/sub" in done.stdout
    assert "did not finish" in done.stdout
    assert (world.workspace / "new" / "sub").is_dir()
    done = undo_traced(world, None)
    assert done.returncode == 0, done.stdout
    assert not (world.workspace / "new").exists()
    assert (world.workspace / "a.txt").read_bytes() == OLD


@pytest.mark.parametrize(
    "inject",
    [
        "unlinkat:error=EIO:when=2",  # every file is back; the folder new/sub stays
        "renameat:error=EIO:when=3",  # two files are back, the others are not
    ],
)
def test_an_undo_stopped_part_way_tells_the_chat_and_forgets_its_commands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, inject: str
) -> None:
    """The undo put files back before an OS error stopped it: the chat hears which files
    went back (a remembered "ok" for them would now be untrue), and the same reply pasted
    again is planned against the disk as it is, never answered from memory."""
    world, _ = one_world(tmp_path, monkeypatch, "undo")
    done = undo_traced(world, inject)
    assert "INJECTED" in (world.base / "undo.log").read_text()
    assert done.returncode == 1
    back = {
        rel
        for rel, (old, _) in BATCH_FILES.items()
        if ((world.workspace / rel).read_bytes() if (world.workspace / rel).exists() else None)
        == old
    }
    assert back, "the undo must have put some file back before it stopped"
    (notice,) = parse_results(done.stdout.partition("For the chat:")[2].strip())
    assert notice.id.startswith("undo-")
    told = json.loads(notice.details or "{}")
    assert set(told["files"]) >= back
    undone = {item["id"] for item in told["undone"]}
    assert undone == {command for command, rel in BATCH_IDS.items() if rel in back}
    assert {item["id"] for item in told["still_in_effect"]} == set(BATCH_IDS) - undone
    assert "stopped part way" in notice.summary
    # The same reply again: the commands whose file went back run again; the others are
    # repeats, and true ones (their file still holds their change).
    again = exec_traced(world, BATCH, None)
    results = {r.id: r for r in parse_results(again.stdout) if not r.id.startswith("undo-")}
    assert {r.id for r in results.values() if not r.repeat} == undone
    for command, rel in BATCH_IDS.items():
        assert results[command].ok, results[command].summary
        _old, new = BATCH_FILES[rel]
        assert (world.workspace / rel).read_bytes() == new, rel
    # The earlier notice led those results, once.
    assert "stopped part way" in again.stdout
    read_again = exec_traced(world, cmd("r", "fs.read", path="a.txt"), None)
    assert "stopped part way" not in read_again.stdout


def test_a_killed_undo_is_finished_by_the_next_run_temp_files_included(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    world, _ = one_world(tmp_path, monkeypatch, "undo")
    undo_traced(world, "renameat:signal=SIGKILL:when=2")
    assert temp_leftovers(world.workspace), "the kill must leave a temp file"
    done = exec_traced(world, cmd("r", "fs.read", path="a.txt"), None)
    assert "an undo that was stopped part way was finished" in done.stderr
    assert not temp_leftovers(world.workspace)
    for rel, (old, _) in BATCH_FILES.items():
        path = world.workspace / rel
        assert (path.read_bytes() if path.exists() else None) == old, rel
    assert not (world.workspace / "new").exists()
    # The finished undo is not undone twice, and its notice leads the next results.
    assert "Nothing to undo" in undo_traced(world, None).stdout
