"""The fault sweep's harness: a fault at every mutating system call, and the checks
that each run told the truth and lost nothing.

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

SQLite's own files get a sweep of their own: every mutating call on the log (``-wal``)
and the shared-memory file (``-shm``: its ``ftruncate``, the one-byte ``pwrite64`` per page
that SQLite makes before it maps a page, so a full disk fails there and not as a SIGBUS
on the mapped write, and the ``mmap`` itself) fails with EIO or ENOSPC, in the run that
recovers a crashed batch and in the undos. Those files are known by name from the dry
run (``strace -y``). The default run tries every call on ``-shm`` and every fifth on
``-wal`` in the recovering run and both undos; the ``slow`` run tries both faults at
every one of them, in every scenario. An answer that says a command failed while its
path holds the app's change must name that path and never say "nothing was written";
an undo is never a usage error (exit 2) and says what it did.
"""

from __future__ import annotations

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

STRACE = shutil.which("strace")  # the tests that use this skip without it

MUTATING = (
    "write,pwrite64,pwritev,pwritev2,writev,rename,renameat,renameat2,unlink,unlinkat,"
    "mkdir,mkdirat,rmdir,fsync,fdatasync,fchmod,fchmodat,symlink,symlinkat,link,linkat,"
    "ftruncate,truncate"
)
# A call's name, its first argument (a descriptor) and, with -y, the file behind it.
_CALL = re.compile(r"^\d+\s+([a-z0-9_]+)\((\d*)(?:<([^>]*)>)?")
# mmap names its file in the fifth argument.
_MAPPED = re.compile(r"^\d+\s+mmap\(.*, \d+<([^>]*)>, ")
SQLITE_FILES = ("-shm", "-wal")

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
# What a refusal says of the crashed batch's files (a.txt and b.txt hold its change).
CRASH_LEFT = "a.txt, b.txt still hold the changes of a run that stopped mid-batch"

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
    crashed: bool = False  # the run finds a batch a killed run left open


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


def traced(
    world: World, scenario: Scenario, inject: str | None, log: Path
) -> subprocess.CompletedProcess[str]:
    argv = [STRACE or "strace", "-f", "-qq", "-y", "-o", str(log)]
    if inject is None or "signal=" not in inject:
        # Much faster (untraced calls do not stop the process), but strace 6.1 does not
        # deliver an injected signal with it.
        argv.append("--seccomp-bpf")
    # mmap is traced too (so its calls are numbered alike in every run), but only its
    # maps of -shm are faulted.
    argv += ["-e", f"trace={MUTATING},mmap"]
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


def _calls(log: Path) -> list[tuple[str, int, str]]:
    """(system call, its number among calls of that name, the file it is about: -shm,
    -wal or "") for each mutating call made, stdout and stderr writes left out, and each
    mmap of -shm."""
    seen: dict[str, int] = {}
    found: list[tuple[str, int, str]] = []
    for line in log.read_text(errors="replace").splitlines():
        match = _CALL.match(line)
        if match is None:
            continue
        name, first, file = match.group(1), match.group(2), match.group(3) or ""
        seen[name] = seen.get(name, 0) + 1
        if name == "mmap":
            mapped = _MAPPED.match(line)
            if mapped is not None and mapped.group(1).endswith("-shm"):
                found.append((name, seen[name], "-shm"))
            continue
        if name.startswith("write") and first in ("1", "2"):
            continue
        found.append((name, seen[name], next((f for f in SQLITE_FILES if file.endswith(f)), "")))
    return found


# -- the checks --------------------------------------------------------------------------


def state_of(world: World, files: dict[str, tuple[bytes | None, bytes | None]]) -> dict[str, str]:
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
    """ok: the new bytes are there; failed: the file is old, or as the run found it, and
    when it holds the app's change (a crashed batch the run could not take back), the
    answer names it and does not say "nothing was written"."""
    for result in results:
        if result.id not in ids:
            continue  # an undo notice
        path = ids[result.id]
        where = states[path]
        if result.ok:
            assert where == "new", f"{result.id} says ok but {path} is {where}"
        elif "except where that was not possible" not in result.summary:
            assert where in ("old", before[path]), f"{result.id} failed but {path} is {where}"
            if where == "new":
                _tells_changed(path, result.summary, f"{result.id} failed")


def _tells_changed(path: str, said: str, what: str) -> None:
    assert "nothing was written" not in said, f"{what}, {path} holds the change: {said}"
    assert path in said, f"{what}, {path} holds the change and is not named: {said}"
    assert "still hold" in said, f"{what}, {path} holds the change, not said: {said}"


def _check_undo(
    done: subprocess.CompletedProcess[str],
    states: dict[str, str],
    before: dict[str, str],
    crashed: bool,
) -> None:
    """What ``llm-operator undo`` said matches the disk: exit 0, every file back; an undo
    that did nothing, every file as it found it (or taken back by recovery, its crashed
    batch's files named while they still hold its changes); never a usage error."""
    if done.returncode in (-9, 137):
        return  # killed: it said nothing
    said = done.stdout + done.stderr
    assert done.returncode != 2, f"a failed undo is no usage error: {said}"
    if done.returncode == 0:
        assert set(states.values()) <= {"old"}, f"undo said done, files are {states}: {said}"
        return
    if "Nothing was undone" not in said and "undo failed" not in said:
        return  # stopped part way: it names what it did
    for path, where in states.items():
        assert where in ("old", before[path]), f"undo did nothing, but {path} is {where}"
        if crashed and where == "new":  # the crashed batch's change, still there
            _tells_changed(path, said, "the undo failed")


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
    before = state_of(world, scenario.files)
    log = world.base / "trial.log"
    done = traced(world, scenario, inject, log)
    text = log.read_text(errors="replace")
    hit = "INJECTED" in text or "killed by SIGKILL" in text or done.returncode in (-9, 137)
    assert "Traceback" not in done.stderr, done.stderr
    assert "Traceback" not in done.stdout, done.stdout
    states = state_of(world, scenario.files)
    if scenario.argv[0] == "exec":
        _check_results(parse_results(done.stdout), scenario.ids, states, before)
    else:
        _check_undo(done, states, before, scenario.crashed)
    if scenario.argv[0] == "undo" and done.returncode == 1:
        _undo_all(world)  # the undo said it did not finish: the user runs it again
    # The next run: recovery (or the end of a killed undo), then the reply pasted again.
    results = run_session(world.session(), scenario.reply, True)
    for result in results:
        assert result.ok, f"after the fault, {result.id}: {result.summary}"
    assert not temp_leftovers(world.workspace), temp_leftovers(world.workspace)
    assert set(state_of(world, scenario.files).values()) == {"new"}
    _undo_all(world)
    assert tree(world.workspace) == pristine
    assert not temp_leftovers(world.workspace)
    return hit


def _run_scenario(
    world: World,
    scenario: Scenario,
    kinds: list[str],
    step: int,
    tally: Tally,
    sqlite_steps: dict[str, int] | None = None,
) -> None:
    """Fault every ``step``-th mutating call of the scenario's run; with ``sqlite_steps``
    ({"-shm": 1, "-wal": 5}), instead every n-th call on each of SQLite's files."""
    world.base.mkdir(parents=True, exist_ok=True)
    (world.base / "reply.txt").write_text(scenario.reply, encoding="utf-8")
    scenario.prepare(world)
    world.save()
    pristine = _pristine(world, scenario)
    world.reset()
    dry = traced(world, scenario, None, world.base / "dry.log")
    assert "Traceback" not in dry.stderr, dry.stderr
    calls = _calls(world.base / "dry.log")
    if sqlite_steps is None:
        chosen = [(name, number) for name, number, _ in calls if name != "mmap"]
        assert len(chosen) > 10, calls
        picked = [(call, p) for p, call in enumerate(chosen) if p % step == 0]
        faults = [
            (call, kinds if step == 1 else [kinds[(p // step) % len(kinds)]]) for call, p in picked
        ]
    else:
        # step 1: every fault at each chosen call; otherwise the faults take turns.
        faults = []
        for file, file_step in sqlite_steps.items():
            on_file = [(name, number) for name, number, f in calls if f == file]
            assert on_file, f"no call on {file}: {calls}"
            for p, call in enumerate(on_file[::file_step]):
                faults.append((call, kinds if step == 1 else [kinds[p % len(kinds)]]))
    for (name, number), chosen_kinds in faults:
        for kind in chosen_kinds:
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


def _closed_run(world: World, reply: str, approve: bool | None = None) -> list[Decoded]:
    """``reply`` run in this process, its store closed after (as a finished ``exec``
    closes it): what the template keeps is what a run leaves, never a connection of this
    process that checkpoints a later crashed run's log whenever it is collected."""
    session = world.session()
    try:
        return run_session(session, reply, approve)
    finally:
        if session.state is not None and session.state.store is not None:
            session.state.store.close()


def _store_made(world: World) -> None:
    _seed(world, BATCH_FILES)
    _closed_run(world, cmd("r0", "fs.read", path="a.txt"))  # makes the store


def _new_store(world: World) -> None:
    _seed(world, BATCH_FILES)


def _for_deletes(world: World) -> None:
    _seed(world, DELETE_FILES)
    _closed_run(world, cmd("r0", "fs.read", path="gone.txt"))


def _batch_done(world: World) -> None:
    _seed(world, BATCH_FILES)
    results = _closed_run(world, BATCH, True)
    assert all(r.ok for r in results), results


def _big_store_made(world: World) -> None:
    _seed(world, BIG_FILES)
    _closed_run(world, cmd("r0", "fs.read", path="e.txt"))


def _big_batch_done(world: World) -> None:
    _seed(world, BIG_FILES)
    results = _closed_run(world, BIG, True)
    assert all(r.ok for r in results), results


def _crashed(world: World) -> None:
    """A run killed as it renamed its third file into place: an open batch, a temp file."""
    _store_made(world)
    (world.base / "reply.txt").write_text(BATCH, encoding="utf-8")
    scenario = SCENARIOS["batch"]
    done = traced(world, scenario, "renameat:signal=SIGKILL:when=3", world.base / "crash.log")
    assert done.returncode == -9 or "killed by SIGKILL" in (world.base / "crash.log").read_text()
    assert temp_leftovers(world.workspace), "the crash must leave a temp file"


def _scenarios() -> dict[str, Scenario]:
    exec_ = ("exec", "--yes")
    return {
        "batch": Scenario("batch", exec_, BATCH, BATCH_FILES, BATCH_IDS, _store_made),
        "first run": Scenario("first run", exec_, BATCH, BATCH_FILES, BATCH_IDS, _new_store),
        "deletes": Scenario("deletes", exec_, DELETES, DELETE_FILES, DELETE_IDS, _for_deletes),
        "undo": Scenario("undo", ("undo", "--yes"), BATCH, BATCH_FILES, {}, _batch_done),
        "after a crash": Scenario(
            "after a crash", exec_, BATCH, BATCH_FILES, BATCH_IDS, _crashed, crashed=True
        ),
        "undo after a crash": Scenario(
            "undo after a crash", ("undo", "--yes"), BATCH, BATCH_FILES, {}, _crashed, crashed=True
        ),
        "big file": Scenario("big file", exec_, BIG, BIG_FILES, BIG_IDS, _big_store_made),
        "big undo": Scenario("big undo", ("undo", "--yes"), BIG, BIG_FILES, {}, _big_batch_done),
    }


SCENARIOS = _scenarios()


def inject_all(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    kinds: list[str],
    step: int,
    names: list[str] | None = None,
    sqlite_steps: dict[str, int] | None = None,
) -> Tally:
    redirect_trash(tmp_path, monkeypatch)
    tally = Tally()
    for name in names or list(SCENARIOS):
        world = World(tmp_path / name.replace(" ", "-"))
        _run_scenario(world, SCENARIOS[name], kinds, step, tally, sqlite_steps)
    return tally


FAULTS = ["error=EIO", "signal=SIGKILL"]


def report(tally: Tally) -> str:
    failures = os.environ.get("FAULT_TRIALS_REPORT")
    if failures:
        Path(failures).write_text("\n\n".join(tally.failures), encoding="utf-8")
    shown = "\n".join(tally.failures[:15])
    return f"{len(tally.failures)} of {tally.trials} trials failed:\n{shown}"


def one_world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> tuple[World, Scenario]:
    redirect_trash(tmp_path, monkeypatch)
    scenario = SCENARIOS[name]
    world = World(tmp_path / "one")
    world.base.mkdir()
    (world.base / "reply.txt").write_text(scenario.reply, encoding="utf-8")
    scenario.prepare(world)
    return world, scenario


def exec_traced(world: World, reply: str, inject: str | None) -> subprocess.CompletedProcess[str]:
    (world.base / "reply.txt").write_text(reply, encoding="utf-8")
    scenario = Scenario("one", ("exec", "--yes"), reply, {}, {}, _new_store)
    return traced(world, scenario, inject, world.base / "one.log")


def undo_traced(world: World, inject: str | None) -> subprocess.CompletedProcess[str]:
    return traced(world, SCENARIOS["undo"], inject, world.base / "undo.log")
