"""A fault at every mutating system call: each run tells the truth and loses nothing.

``strace`` runs ``llm-operator exec`` (or ``undo``) and, in one trial per mutating call
of the run, makes that one call fail with EIO or kills the process with SIGKILL as it
makes it. The calls are those of a dry run (the run is deterministic: fixed hash seed,
no byte-code writing), numbered per system call as strace's ``when=N`` counts them; the
writes to stdout and stderr are left alone (they carry the report, not the state).
Scenarios: a 5-write batch on a store made earlier, the same batch as the first run on a
new store, deletes, an undo, the run that follows a crash (a kill at a rename left an
open batch and a temp file), and a batch and its undo on a file big enough for its undo
copy to be a file beside the store. After each trial:
- no traceback;
- every file holds wholly its old or its new bytes;
- every result the faulty run printed matches the disk (ok: true -> the new bytes);
- the next run (the reply pasted again) recovers, then applies each command exactly once,
  and leaves no temp file;
- undo, repeated until nothing is left, gives back the pre-batch tree exactly.

The default run tries every fifth call (EIO and SIGKILL taking turns); the ``slow`` run
tries both faults at every call.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from llm_operator.core.plan.session import Session
from llm_operator.core.store.workspace import Workspace
from support.actions import b64, edits_b64, redirect_trash, temp_leftovers, tree
from support.fixtures import Decoded, cmd, parse_results, run_session

STRACE = shutil.which("strace")
pytestmark = pytest.mark.skipif(STRACE is None, reason="strace is not installed")

MUTATING = (
    "write,pwrite64,pwritev,pwritev2,writev,rename,renameat,renameat2,unlink,unlinkat,"
    "mkdir,mkdirat,rmdir,fsync,fdatasync,fchmod,fchmodat,symlink,symlinkat,link,linkat,"
    "ftruncate,truncate"
)
_CALL = re.compile(r"^\d+\s+([a-z0-9_]+)\((\d*)")

OLD = b"first line\nlast line\n"
NEW = b"first line\ninserted\nlast line\n"
REPLACED = b"replaced wholly\n"
MADE = b"a new file in new folders\n"


def _insert(cmd_id: str, path: str) -> str:
    edit = {"op": "insertAfter", "anchor": "first line\n", "text": "inserted\n"}
    return cmd(cmd_id, "fs.applyEdits", path=path, edits_b64=edits_b64(edit))


BATCH = "\n".join(
    [
        _insert("e1", "a.txt"),
        _insert("e2", "b.txt"),
        _insert("e3", "deep/c.txt"),
        cmd("w4", "fs.write", path="new/sub/d.txt", content_b64=b64(MADE)),
        cmd("w5", "fs.write", path="e.txt", content_b64=b64(REPLACED)),
    ]
)
# path -> (old bytes or None for absent, new bytes or None for deleted)
BATCH_FILES: dict[str, tuple[bytes | None, bytes | None]] = {
    "a.txt": (OLD, NEW),
    "b.txt": (OLD, NEW),
    "deep/c.txt": (OLD, NEW),
    "new/sub/d.txt": (None, MADE),
    "e.txt": (OLD, REPLACED),
}
BATCH_IDS = {"e1": "a.txt", "e2": "b.txt", "e3": "deep/c.txt", "w4": "new/sub/d.txt", "w5": "e.txt"}

DELETES = "\n".join(
    [cmd("x1", "fs.delete", path="gone.txt"), cmd("x2", "fs.delete", path="folder")]
)
DELETE_FILES: dict[str, tuple[bytes | None, bytes | None]] = {
    "gone.txt": (OLD, None),
    "folder/inside.txt": (OLD, None),
}
DELETE_IDS = {"x1": "gone.txt", "x2": "folder/inside.txt"}

# A file whose undo copy is kept as a file beside the store (outside_copies), not in it.
BIG_OLD = OLD.replace(b"last", b"".join(b"filler %06d\n" % n for n in range(20_000)) + b"last")
BIG_NEW = BIG_OLD.replace(b"first line\n", b"first line\ninserted\n", 1)
BIG = "\n".join(
    [_insert("b1", "big.txt"), cmd("w2", "fs.write", path="e.txt", content_b64=b64(REPLACED))]
)
BIG_FILES: dict[str, tuple[bytes | None, bytes | None]] = {
    "big.txt": (BIG_OLD, BIG_NEW),
    "e.txt": (OLD, REPLACED),
}
BIG_IDS = {"b1": "big.txt", "w2": "e.txt"}


@dataclass
class World:
    """The fixed places every trial of a scenario runs in (the state folder is named
    after the workspace's real path, so trials reuse one path)."""

    base: Path
    workspace: Path = field(init=False)
    state: Path = field(init=False)
    template: Path = field(init=False)

    def __post_init__(self) -> None:
        self.workspace = self.base / "ws"
        self.state = self.base / "state"
        self.template = self.base / "template"

    def save(self) -> None:
        shutil.rmtree(self.template, ignore_errors=True)
        self.template.mkdir()
        shutil.copytree(self.workspace, self.template / "ws", symlinks=True)
        if self.state.exists():
            shutil.copytree(self.state, self.template / "state", symlinks=True)

    def reset(self) -> None:
        shutil.rmtree(self.workspace, ignore_errors=True)
        shutil.rmtree(self.state, ignore_errors=True)
        shutil.copytree(self.template / "ws", self.workspace, symlinks=True)
        if (self.template / "state").exists():
            shutil.copytree(self.template / "state", self.state, symlinks=True)

    def session(self) -> Session:
        return Session(Workspace(self.workspace), self.state)


@dataclass(frozen=True)
class Scenario:
    name: str
    argv: tuple[str, ...]  # after "llm-operator"
    reply: str
    files: dict[str, tuple[bytes | None, bytes | None]]
    ids: dict[str, str]
    prepare: Callable[[World], None]


def _seed(world: World, files: dict[str, tuple[bytes | None, bytes | None]]) -> None:
    world.workspace.mkdir(parents=True)
    for rel, (old, _) in files.items():
        if old is not None:
            (world.workspace / rel).parent.mkdir(parents=True, exist_ok=True)
            (world.workspace / rel).write_bytes(old)


def _env(world: World) -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONHASHSEED": "0",
        "PYTHONDONTWRITEBYTECODE": "1",
        "TMPDIR": str(world.base),
    }


def _argv(world: World, scenario: Scenario) -> list[str]:
    args = [sys.executable, "-m", "llm_operator.cli", *scenario.argv]
    args += ["--workspace", str(world.workspace), "--state-dir", str(world.state)]
    if scenario.argv[0] == "exec":
        args.append(str(world.base / "reply.txt"))
    return args


def _traced(
    world: World, scenario: Scenario, inject: str | None, log: Path
) -> subprocess.CompletedProcess[str]:
    argv = [STRACE or "strace", "-f", "-qq", "-o", str(log)]
    if inject is None or "signal=" not in inject:
        # Much faster (untraced calls do not stop the process), but strace 6.1 does not
        # deliver an injected signal with it.
        argv.append("--seccomp-bpf")
    argv += ["-e", f"trace={MUTATING}"]
    if inject is not None:
        argv += ["-e", f"inject={inject}"]
    return subprocess.run(
        [*argv, *_argv(world, scenario)],
        capture_output=True,
        text=True,
        env=_env(world),
        timeout=120,
        check=False,
    )


def _calls(log: Path) -> list[tuple[str, int]]:
    """(system call, its number among calls of that name) for each mutating call made,
    stdout and stderr writes left out."""
    seen: dict[str, int] = {}
    found: list[tuple[str, int]] = []
    for line in log.read_text(errors="replace").splitlines():
        match = _CALL.match(line)
        if match is None:
            continue
        name, first = match.group(1), match.group(2)
        seen[name] = seen.get(name, 0) + 1
        if name.startswith("write") and first in ("1", "2"):
            continue
        found.append((name, seen[name]))
    return found


# -- the checks --------------------------------------------------------------------------


def _state_of(world: World, files: dict[str, tuple[bytes | None, bytes | None]]) -> dict[str, str]:
    """'old' or 'new' for each file; anything else fails the trial."""
    states: dict[str, str] = {}
    for rel, (old, new) in files.items():
        path = world.workspace / rel
        held = path.read_bytes() if path.is_file() else None
        if held == new:
            states[rel] = "new"
        elif held == old:
            states[rel] = "old"
        else:
            raise AssertionError(f"{rel} holds neither its old nor its new bytes: {held!r}")
    return states


def _check_results(
    results: list[Decoded], ids: dict[str, str], states: dict[str, str], before: dict[str, str]
) -> None:
    """ok: the new bytes are there; failed: the file is old, or as the run found it
    (after a crash that the run could not take back, "nothing was written" is true)."""
    for result in results:
        if result.id not in ids:
            continue  # an undo notice
        path = ids[result.id]
        where = states[path]
        if result.ok:
            assert where == "new", f"{result.id} says ok but {path} is {where}"
        elif "except where that was not possible" not in result.summary:
            assert where in ("old", before[path]), f"{result.id} failed but {path} is {where}"


def _undo_all(world: World) -> None:
    session = world.session()
    for _ in range(5):
        report = session.undo_last()
        assert not report.refused, report.summary
        assert not report.problems, report.summary
        if report.batch is None:
            return
    raise AssertionError("undo never ran out of batches")


@dataclass
class Tally:
    trials: int = 0
    missed: int = 0  # the injected call was never reached (the run took another way)
    failures: list[str] = field(default_factory=list)


def _trial(world: World, scenario: Scenario, pristine: dict[str, Any], inject: str) -> bool:
    world.reset()
    before = _state_of(world, scenario.files)
    log = world.base / "trial.log"
    done = _traced(world, scenario, inject, log)
    text = log.read_text(errors="replace")
    hit = "INJECTED" in text or "killed by SIGKILL" in text or done.returncode in (-9, 137)
    assert "Traceback" not in done.stderr, done.stderr
    assert "Traceback" not in done.stdout, done.stdout
    states = _state_of(world, scenario.files)
    if scenario.argv[0] == "exec":
        _check_results(parse_results(done.stdout), scenario.ids, states, before)
    if scenario.name == "undo" and done.returncode == 1:
        _undo_all(world)  # the undo said it did not finish: the user runs it again
    # The next run: recovery (or the end of a killed undo), then the reply pasted again.
    results = run_session(world.session(), scenario.reply, True)
    for result in results:
        assert result.ok, f"after the fault, {result.id}: {result.summary}"
    assert not temp_leftovers(world.workspace), temp_leftovers(world.workspace)
    assert set(_state_of(world, scenario.files).values()) == {"new"}
    _undo_all(world)
    assert tree(world.workspace) == pristine
    assert not temp_leftovers(world.workspace)
    return hit


def _run_scenario(
    world: World, scenario: Scenario, kinds: list[str], step: int, tally: Tally
) -> None:
    world.base.mkdir(parents=True, exist_ok=True)
    (world.base / "reply.txt").write_text(scenario.reply, encoding="utf-8")
    scenario.prepare(world)
    world.save()
    pristine = _pristine(world, scenario)
    world.reset()
    dry = _traced(world, scenario, None, world.base / "dry.log")
    assert "Traceback" not in dry.stderr, dry.stderr
    calls = _calls(world.base / "dry.log")
    assert len(calls) > 10, calls
    for position, (name, number) in enumerate(calls):
        if position % step:
            continue
        chosen = kinds if step == 1 else [kinds[(position // step) % len(kinds)]]
        for kind in chosen:
            inject = f"{name}:{kind}:when={number}"
            tally.trials += 1
            try:
                if not _trial(world, scenario, pristine, inject):
                    tally.missed += 1
            except AssertionError as error:
                tally.failures.append(f"{scenario.name} {inject}: {error}")


def _pristine(world: World, scenario: Scenario) -> dict[str, Any]:
    """The tree before the scenario's batch (for undo: before the batch it undoes)."""
    probe = World(world.base / "probe")
    shutil.rmtree(probe.base, ignore_errors=True)
    probe.base.mkdir()
    _seed(probe, scenario.files)
    return tree(probe.workspace)


# -- the scenarios -----------------------------------------------------------------------


def _store_made(world: World) -> None:
    _seed(world, BATCH_FILES)
    run_session(world.session(), cmd("r0", "fs.read", path="a.txt"))  # makes the store


def _new_store(world: World) -> None:
    _seed(world, BATCH_FILES)


def _for_deletes(world: World) -> None:
    _seed(world, DELETE_FILES)
    run_session(world.session(), cmd("r0", "fs.read", path="gone.txt"))


def _batch_done(world: World) -> None:
    _seed(world, BATCH_FILES)
    results = run_session(world.session(), BATCH, True)
    assert all(r.ok for r in results), results


def _big_store_made(world: World) -> None:
    _seed(world, BIG_FILES)
    run_session(world.session(), cmd("r0", "fs.read", path="e.txt"))


def _big_batch_done(world: World) -> None:
    _seed(world, BIG_FILES)
    results = run_session(world.session(), BIG, True)
    assert all(r.ok for r in results), results


def _crashed(world: World) -> None:
    """A run killed as it renamed its third file into place: an open batch, a temp file."""
    _store_made(world)
    (world.base / "reply.txt").write_text(BATCH, encoding="utf-8")
    scenario = SCENARIOS["batch"]
    done = _traced(world, scenario, "renameat:signal=SIGKILL:when=3", world.base / "crash.log")
    assert done.returncode == -9 or "killed by SIGKILL" in (world.base / "crash.log").read_text()
    assert temp_leftovers(world.workspace), "the crash must leave a temp file"


def _scenarios() -> dict[str, Scenario]:
    exec_ = ("exec", "--yes")
    return {
        "batch": Scenario("batch", exec_, BATCH, BATCH_FILES, BATCH_IDS, _store_made),
        "first run": Scenario("first run", exec_, BATCH, BATCH_FILES, BATCH_IDS, _new_store),
        "deletes": Scenario("deletes", exec_, DELETES, DELETE_FILES, DELETE_IDS, _for_deletes),
        "undo": Scenario("undo", ("undo", "--yes"), BATCH, BATCH_FILES, {}, _batch_done),
        "after a crash": Scenario("after a crash", exec_, BATCH, BATCH_FILES, BATCH_IDS, _crashed),
        "big file": Scenario("big file", exec_, BIG, BIG_FILES, BIG_IDS, _big_store_made),
        "big undo": Scenario("big undo", ("undo", "--yes"), BIG, BIG_FILES, {}, _big_batch_done),
    }


SCENARIOS = _scenarios()


def _inject_all(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    kinds: list[str],
    step: int,
    names: list[str] | None = None,
) -> Tally:
    redirect_trash(tmp_path, monkeypatch)
    tally = Tally()
    for name in names or list(SCENARIOS):
        world = World(tmp_path / name.replace(" ", "-"))
        _run_scenario(world, SCENARIOS[name], kinds, step, tally)
    return tally


FAULTS = ["error=EIO", "signal=SIGKILL"]


def _report(tally: Tally) -> str:
    failures = os.environ.get("FAULT_TRIALS_REPORT")
    if failures:
        Path(failures).write_text("\n\n".join(tally.failures), encoding="utf-8")
    shown = "\n".join(tally.failures[:15])
    return f"{len(tally.failures)} of {tally.trials} trials failed:\n{shown}"


def test_a_fault_at_every_fifth_mutating_call_tells_the_truth(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tally = _inject_all(tmp_path, monkeypatch, FAULTS, step=5)
    print(f"fault trials: {tally.trials}, injection not reached: {tally.missed}")
    assert tally.trials > 40
    assert tally.missed < tally.trials / 4, "the dry run must predict the calls"
    assert not tally.failures, _report(tally)


@pytest.mark.slow
@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_every_fault_at_every_mutating_call_tells_the_truth(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scenario: str
) -> None:
    tally = _inject_all(tmp_path, monkeypatch, [*FAULTS, "error=ENOSPC"], 1, [scenario])
    print(f"fault trials ({scenario}): {tally.trials}, injection not reached: {tally.missed}")
    assert tally.trials > 150
    assert tally.missed < tally.trials / 4, "the dry run must predict the calls"
    assert not tally.failures, _report(tally)


# -- one fault each, named ---------------------------------------------------------------


def _one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> tuple[World, Scenario]:
    redirect_trash(tmp_path, monkeypatch)
    scenario = SCENARIOS[name]
    world = World(tmp_path / "one")
    world.base.mkdir()
    (world.base / "reply.txt").write_text(scenario.reply, encoding="utf-8")
    scenario.prepare(world)
    return world, scenario


def _exec(world: World, reply: str, inject: str | None) -> subprocess.CompletedProcess[str]:
    (world.base / "reply.txt").write_text(reply, encoding="utf-8")
    scenario = Scenario("one", ("exec", "--yes"), reply, {}, {}, _new_store)
    return _traced(world, scenario, inject, world.base / "one.log")


def test_a_run_that_cannot_take_a_crash_back_refuses_even_a_write_that_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    world, _ = _one(tmp_path, monkeypatch, "after a crash")
    assert (world.workspace / "b.txt").read_bytes() == NEW  # the crashed batch's bytes
    same = cmd("same", "fs.write", path="b.txt", content_b64=b64(NEW))
    # Every rename fails: recovery cannot put the files back, at open nor under the lock.
    reply = same + "\n" + cmd("r1", "fs.read", path="a.txt")
    done = _exec(world, reply, "renameat:error=EIO:when=1+")
    assert "INJECTED" in (world.base / "one.log").read_text()
    assert "Traceback" not in done.stderr
    written, read = parse_results(done.stdout)
    assert written.code == "ERR_RECOVERY_FAILED", written.summary
    assert "could not be taken back" in written.summary
    assert read.ok
    assert "writes are refused: ERR_RECOVERY_FAILED" in done.stderr
    assert done.returncode == 1
    # Nothing was remembered: once the disk works, recovery puts a.txt back and the same
    # paste writes it, once.
    done = _exec(world, same, None)
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
    world, _ = _one(tmp_path, monkeypatch, "batch")
    # fsync 1 is the temp file's, 2 the folder's after the rename.
    done = _exec(
        world, cmd("w", "fs.write", path="e.txt", content_b64=b64(MADE)), "fsync:error=EIO:when=2"
    )
    assert "INJECTED" in (world.base / "one.log").read_text()
    (result,) = parse_results(done.stdout)
    assert result.ok, result.summary
    assert "may not survive a power loss" in (result.details or "")
    assert (world.workspace / "e.txt").read_bytes() == MADE


def _undo(world: World, inject: str | None) -> subprocess.CompletedProcess[str]:
    return _traced(world, SCENARIOS["undo"], inject, world.base / "undo.log")


def test_an_undo_that_cannot_remove_a_folder_names_it_and_keeps_the_batch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    world, _ = _one(tmp_path, monkeypatch, "undo")
    # unlinkat 1 removes new/sub/d.txt; 2 removes the folder new/sub.
    done = _undo(world, "unlinkat:error=EIO:when=2")
    assert "INJECTED" in (world.base / "undo.log").read_text()
    assert done.returncode == 1
    assert "new/sub" in done.stdout
    assert "did not finish" in done.stdout
    assert (world.workspace / "new" / "sub").is_dir()
    done = _undo(world, None)
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
    world, _ = _one(tmp_path, monkeypatch, "undo")
    done = _undo(world, inject)
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
    again = _exec(world, BATCH, None)
    results = {r.id: r for r in parse_results(again.stdout) if not r.id.startswith("undo-")}
    assert {r.id for r in results.values() if not r.repeat} == undone
    for command, rel in BATCH_IDS.items():
        assert results[command].ok, results[command].summary
        _old, new = BATCH_FILES[rel]
        assert (world.workspace / rel).read_bytes() == new, rel
    # The earlier notice led those results, once.
    assert "stopped part way" in again.stdout
    assert "stopped part way" not in _exec(world, cmd("r", "fs.read", path="a.txt"), None).stdout


def test_a_killed_undo_is_finished_by_the_next_run_temp_files_included(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    world, _ = _one(tmp_path, monkeypatch, "undo")
    _undo(world, "renameat:signal=SIGKILL:when=2")
    assert temp_leftovers(world.workspace), "the kill must leave a temp file"
    done = _exec(world, cmd("r", "fs.read", path="a.txt"), None)
    assert "an undo that was stopped part way was finished" in done.stderr
    assert not temp_leftovers(world.workspace)
    for rel, (old, _) in BATCH_FILES.items():
        path = world.workspace / rel
        assert (path.read_bytes() if path.exists() else None) == old, rel
    assert not (world.workspace / "new").exists()
    # The finished undo is not undone twice, and its notice leads the next results.
    assert "Nothing to undo" in _undo(world, None).stdout
