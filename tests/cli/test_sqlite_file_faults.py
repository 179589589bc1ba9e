"""SQLite's own files fail: the answer still says what the disk holds.

Every mutating call on the store's log (``-wal``) and shared-memory file (``-shm``: its
``ftruncate``, the one-byte ``pwrite64`` per page SQLite makes before mapping a page, so
a full disk fails there rather than as a SIGBUS on the mapped write, and the ``mmap``)
fails with EIO or ENOSPC (harness: ``support.fault_sweep``). The default run tries every
``-shm`` call and every fifth ``-wal`` call of the run after a crash, an undo and an undo
after a crash; the ``slow`` run tries both faults at every one of them in every scenario.
A store that cannot be opened over a crashed batch must name the files that still hold
its changes, never say "nothing was written", and an undo must exit 1, not 2.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from support.actions import temp_leftovers
from support.fault_sweep import (
    BATCH,
    BATCH_FILES,
    BATCH_IDS,
    CRASH_LEFT,
    NEW,
    SCENARIOS,
    STRACE,
    World,
    exec_traced,
    inject_all,
    one_world,
    report,
    state_of,
    undo_traced,
)
from support.fixtures import cmd, parse_results

pytestmark = pytest.mark.skipif(STRACE is None, reason="strace is not installed")


SQLITE_FAULTS = ["error=EIO", "error=ENOSPC"]
# The runs that must recover a crashed batch or undo one, where a store that cannot be
# opened leaves the disk holding more than "nothing was written" would say.
RECOVERING = ["after a crash", "undo after a crash", "undo"]


@pytest.mark.slow  # one of the slowest: run by .ci/run
def test_a_fault_at_sqlites_own_files_tells_the_truth(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every call on -shm (its ftruncate, page writes and map) and every fifth on -wal,
    in the runs that recover or undo."""
    steps = {"-shm": 1, "-wal": 5}
    tally = inject_all(tmp_path, monkeypatch, SQLITE_FAULTS, 5, RECOVERING, steps)
    print(f"-shm/-wal fault trials: {tally.trials}, injection not reached: {tally.missed}")
    assert tally.trials > 30
    assert tally.missed < tally.trials / 4, "the dry run must predict the calls"
    assert not tally.failures, report(tally)


@pytest.mark.slow
@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_every_fault_at_every_call_on_sqlites_own_files_tells_the_truth(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scenario: str
) -> None:
    steps = {"-shm": 1, "-wal": 1}
    tally = inject_all(tmp_path, monkeypatch, SQLITE_FAULTS, 1, [scenario], steps)
    print(f"-shm/-wal fault trials ({scenario}): {tally.trials}, not reached: {tally.missed}")
    assert tally.missed < tally.trials / 4, "the dry run must predict the calls"
    assert not tally.failures, report(tally)


# -- the two cases, named ----------------------------------------------------------------


def _wal_of(world: World) -> Path:
    (store,) = world.state.rglob("state.sqlite3")
    return store.with_name("state.sqlite3-wal")


@pytest.mark.slow
def test_a_store_that_cannot_be_opened_over_a_crashed_batch_names_the_files_it_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The crashed run's batch is in the store's log; the recovering run cannot set up the
    store's shared-memory file (its ftruncate fails), so the store cannot be opened and
    the batch cannot be taken back. Each write says so and names the files that still
    hold the crashed run's changes, never "nothing was written"."""
    world, _ = one_world(tmp_path, monkeypatch, "after a crash")
    assert _wal_of(world).stat().st_size > 0  # the batch is on record in the log only
    reply = BATCH + "\n" + cmd("r1", "fs.read", path="a.txt")
    done = exec_traced(world, reply, "ftruncate:error=EIO:when=1+")
    assert "INJECTED" in (world.base / "one.log").read_text()
    assert "Traceback" not in done.stderr
    *writes, read = parse_results(done.stdout)
    assert read.ok
    assert read.details == NEW.decode()  # what the disk holds, as it holds it
    assert [w.id for w in writes] == list(BATCH_IDS)
    for result in writes:
        assert result.code == "ERR_STATE_STORE_UNAVAILABLE", result.summary
        assert "could not be opened" in result.summary
        assert "nothing was written" not in result.summary
        assert f"{CRASH_LEFT} (of commands e1, e2, never remembered as run)" in result.summary
        assert "takes them back before anything else" in result.summary
        assert result.json()["details"]["still_changed"] == ["a.txt", "b.txt"]
    assert "writes are refused: ERR_STATE_STORE_UNAVAILABLE" in done.stderr
    assert CRASH_LEFT in done.stderr
    assert done.returncode == 1
    assert state_of(world, BATCH_FILES) == {
        "a.txt": "new",
        "b.txt": "new",
        "deep/c.txt": "old",
        "new/sub/d.txt": "old",
        "e.txt": "old",
    }
    # Once the store opens, the crashed batch is taken back first and each command of
    # the same reply lands once (the inserted line is there once, not twice).
    done = exec_traced(world, BATCH, None)
    results = parse_results(done.stdout)
    assert [r.ok for r in results] == [True] * 5, [r.summary for r in results]
    assert not any(r.repeat for r in results)
    assert set(state_of(world, BATCH_FILES).values()) == {"new"}
    assert not temp_leftovers(world.workspace)


def test_an_undo_whose_store_cannot_be_opened_fails_and_names_the_crashed_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """exit 1 (the run failed), not 2 (a usage error), and what the disk holds."""
    world, _ = one_world(tmp_path, monkeypatch, "undo after a crash")
    done = undo_traced(world, "ftruncate:error=EIO:when=1+")
    assert "INJECTED" in (world.base / "undo.log").read_text()
    assert "Traceback" not in done.stderr
    assert done.returncode == 1, done.stderr
    assert "undo failed (ERR_STATE_STORE_UNAVAILABLE)" in done.stderr
    assert CRASH_LEFT in done.stderr
    assert "nothing was written" not in done.stderr
    assert (world.workspace / "a.txt").read_bytes() == NEW
    # The store opens again: the crashed batch is taken back, and there is nothing to undo.
    done = undo_traced(world, None)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Nothing to undo" in done.stdout
    assert "a run that stopped mid-batch was taken back" in done.stderr
    assert set(state_of(world, BATCH_FILES).values()) == {"old"}
