"""exec start-up of every action family, and two whole-process marginals.

1. Start-up: ``llm-operator exec`` of one command of each family (read, searchTree, outline,
   write, patch, applyEdits, structure edit, delete) against ``python -c pass``, with the
   state folder kept between runs as the app keeps it (target <= 8x), and the first run on
   a new state folder (target <= 10x). Every run is a real command that succeeds: files are
   put back and ids are new before each run, outside the timing.
2. Where the time goes, per family: imports, store, action and the rest, from one run of
   ``startup_probe.py`` (see there), with the number of modules loaded; and for each
   marginal, how much more of each the command takes than the least run.
3. Whole-process marginals, each run minus a run of the same process that does the least,
   in the same round (the median of those differences over the rounds):
   fs.searchTree on 300 files x 80 KB minus fs.stat, against ``grep -rnF`` on the tree minus
   grep on an empty folder (target <= 2x); fs.patch of 3 hunks in a 100,000-line file (with
   the journal and fsync) minus fs.stat, against GNU ``patch`` in place minus
   ``patch --version`` (target <= 4x). Each marginal run starts with nothing left to
   flush to disk (``os.sync`` before it, untimed): the patched file was just written by the
   benchmark, and the run's own first fsync would otherwise flush that write too.

All runs take turns round by round so that a change in the machine's load falls on all of
them alike; medians of wall time and of the child's CPU time are printed (on a loaded
machine the CPU time is the steadier), with the load average before and after.
Run: python benchmarks/bench_startup.py [--family NAME | --marginals]  (--family: only that
family's row, e.g. --family "structure edit", and no marginals; --marginals: only those)
"""

from __future__ import annotations

import argparse
import base64
import functools
import json
import os
import resource
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bench_core import CHILD_ENV, PY, _command, _make_tree
from bench_patch import build_inputs

ROUNDS = 9
# A marginal is the difference of two runs of about the same length, so it is noisier than
# either: more rounds.
MARGINAL_ROUNDS = 31
PROBE = Path(__file__).with_name("startup_probe.py")
PY_TEXT = "".join(f"def f{n}(x):\n    return x * {n}\n\n\n" for n in range(200))
EDITS = {"version": 1, "edits": [{"op": "replaceFirst", "find": "x * 7\n", "text": "x * 70\n"}]}
SMALL_PATCH = (
    "--- a/notes.txt\n+++ b/notes.txt\n@@ -2,3 +2,3 @@\n line 2\n-line 3\n+line three\n line 4\n"
)


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


@dataclass
class Case:
    """One command: ``prepare(workspace, n)`` puts its files back and returns the reply
    (with id ``n``)."""

    name: str
    prepare: Callable[[Path, int], str]


def _read(ws: Path, n: int) -> str:
    return _command(n, "fs.readSlice", "src/m.py", "lines: 40\n")


def _search_tree(ws: Path, n: int) -> str:
    return _command(n, "fs.searchTree", "src", "query: return x * 1\n")


def _outline(ws: Path, n: int) -> str:
    return _command(n, "fs.outline", "src/m.py")


def _write(ws: Path, n: int) -> str:
    (ws / "out.txt").unlink(missing_ok=True)
    return _command(n, "fs.write", "out.txt", f"content: run {n}\n")


def _patch(ws: Path, n: int) -> str:
    (ws / "notes.txt").write_text("".join(f"line {k}\n" for k in range(1, 40)))
    return _command(n, "fs.patch", "notes.txt", f"patch_b64: {_b64(SMALL_PATCH)}\n")


def _apply_edits(ws: Path, n: int) -> str:
    (ws / "src" / "e.py").write_text(PY_TEXT)
    return _command(n, "fs.applyEdits", "src/e.py", f"edits_b64: {_b64(json.dumps(EDITS))}\n")


def _structure(ws: Path, n: int) -> str:
    (ws / "src" / "s.py").write_text(PY_TEXT)
    extra = "symbol: f7\nold_text: x * 7\nnew_text: x * 70\n"
    return _command(n, "fs.replaceTextInStructure", "src/s.py", extra)


def _delete(ws: Path, n: int) -> str:
    (ws / "gone.txt").write_text("bye\n")
    return _command(n, "fs.delete", "gone.txt")


CASES = [
    Case("read (fs.readSlice)", _read),
    Case("searchTree", _search_tree),
    Case("outline", _outline),
    Case("write", _write),
    Case("patch", _patch),
    Case("applyEdits", _apply_edits),
    Case("structure edit", _structure),
    Case("delete", _delete),
]


@dataclass(frozen=True)
class Stats:
    wall: float
    cpu: float


class Runs:
    """Timed child processes, sampled in turns. ``settled``: every file written so far is
    flushed to disk first (``os.sync``, untimed), so that a run which syncs its own writes
    does not also pay for the writes that set it up (see ``bench_marginals``)."""

    def __init__(self, settled: bool = False) -> None:
        self.wall: dict[str, list[float]] = {}
        self.cpu: dict[str, list[float]] = {}
        self.settled = settled

    def time(self, name: str, argv: list[str], stdin: str | None = None) -> str:
        if self.settled:
            os.sync()
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(
            argv, input=stdin, capture_output=True, text=True, env=CHILD_ENV, check=False
        )
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        self.wall.setdefault(name, []).append(wall)
        self.cpu.setdefault(name, []).append(cpu)
        return done.stdout

    def stats(self, name: str) -> Stats:
        return Stats(statistics.median(self.wall[name]), statistics.median(self.cpu[name]))


def _exec_argv(ws: Path, state: Path, *front: str) -> list[str]:
    return [PY, *front, "-m", "llm_operator.cli", "exec", "--yes", "--workspace", str(ws),
            "--state-dir", str(state), "-"]  # fmt: skip


def _checked(out: str, what: str) -> None:
    if "ok: true" not in out:
        raise SystemExit(f"{what} did not succeed:\n{out}")


def _make_workspace(ws: Path) -> None:
    (ws / "src").mkdir(parents=True)
    (ws / "src" / "m.py").write_text(PY_TEXT)
    for n in range(30):
        (ws / "src" / f"mod{n}.py").write_text(PY_TEXT)


def _ratio(run: Stats, base: Stats) -> str:
    return f"{run.wall / base.wall:4.1f}x wall, {run.cpu / base.cpu:4.1f}x CPU"


def bench_families(tmp: Path, cases: list[Case]) -> list[str]:
    ws, kept = tmp / "ws", tmp / "state"
    _make_workspace(ws)
    runs = Runs()
    counter = iter(range(1, 1_000_000))
    for case in cases:  # warm the bytecode caches and create the kept store
        _checked(
            runs.time("warm", _exec_argv(ws, kept), case.prepare(ws, next(counter))), case.name
        )
    for _ in range(ROUNDS):
        runs.time("python -c pass", [PY, "-c", "pass"])
        for case in cases:
            out = runs.time(case.name, _exec_argv(ws, kept), case.prepare(ws, next(counter)))
            _checked(out, case.name)
            fresh = Path(tempfile.mkdtemp(prefix="state-", dir=tmp))
            out = runs.time(f"{case.name} first", _exec_argv(ws, fresh), case.prepare(ws, 0))
            _checked(out, f"{case.name} (new state folder)")
            shutil.rmtree(fresh)
    base = runs.stats("python -c pass")
    lines = [
        f"python -c pass: {base.wall * 1000:.0f} ms wall, {base.cpu * 1000:.0f} ms CPU",
        "exec of one command, state folder kept (target <= 8x) | first run on a new state "
        "folder (target <= 10x) | where a kept-state run's time goes",
    ]
    for case in cases:
        kept_run, first = runs.stats(case.name), runs.stats(f"{case.name} first")
        reply = functools.partial(lambda prepare: prepare(ws, next(counter)), case.prepare)
        where = _breakdown(ws, kept, reply, tmp / "probe.json", kept_run, base)
        lines.append(
            f"  {case.name:20} {kept_run.wall * 1000:4.0f} ms: {_ratio(kept_run, base)} | "
            f"{first.wall * 1000:4.0f} ms: {_ratio(first, base)} | {where}"
        )
    return lines


def _breakdown(
    ws: Path, state: Path, reply: Callable[[], str], out: Path, run: Stats, base: Stats
) -> str:
    """The least of each ledger over a few probe runs; ``start`` is ``python -c pass``, and
    ``exit+rest`` what is left of the timed run's median: interpreter shutdown, and waiting
    for a CPU on a loaded machine (the ledgers and the timed runs are different processes)."""
    spent = _ledgers(ws, state, reply, out)
    keys = ("imports", "store", "action", "other")
    rest = run.wall - base.wall - sum(spent[key] for key in keys)
    parts = ", ".join(f"{key} {spent[key] * 1000:.0f}" for key in keys)
    return (
        f"start {base.wall * 1000:.0f}, {parts}, exit+rest {rest * 1000:.0f} ms; "
        f"{spent['modules']:.0f} modules"
    )


def _ledgers(ws: Path, state: Path, reply: Callable[[], str], out: Path) -> dict[str, float]:
    """Each of ``startup_probe.py``'s ledgers over five runs of ``reply``: the least of each
    (on a loaded machine, waiting for a CPU lands in any ledger; the least is the work)."""
    argv = [PY, str(PROBE), str(out), "exec", "--yes", "--workspace", str(ws),
            "--state-dir", str(state), "-"]  # fmt: skip
    ledgers: dict[str, list[float]] = {}
    for _ in range(5):
        done = subprocess.run(
            argv, input=reply(), capture_output=True, text=True, env=CHILD_ENV, check=True
        )
        _checked(done.stdout, "a probed run")
        for key, value in json.loads(out.read_text()).items():
            ledgers.setdefault(key, []).append(value)
    return {key: min(values) for key, values in ledgers.items()}


def _where_marginal(ours: dict[str, float], least: dict[str, float]) -> str:
    """Where a marginal goes: each ledger of the run minus the same of the least run."""
    keys = ("imports", "store", "action", "other")
    parts = ", ".join(f"{key} {(ours[key] - least[key]) * 1000:+.0f}" for key in keys)
    return f"    where it goes (ms, minus the least run): {parts}"


def bench_marginals(tmp: Path) -> list[str]:
    lines: list[str] = []
    # The file to patch is written afresh before each run; on ext4 (data=ordered) the first
    # fsync of the next process would flush it too, a cost of the set-up that GNU patch,
    # which never syncs, does not pay. A file a user asks to patch was saved a while ago:
    # every run starts with nothing left to flush.
    runs = Runs(settled=True)
    tree, empty, kept = tmp / "tree", tmp / "empty", tmp / "state-m"
    _make_tree(tree, 300, 80_000)
    empty.mkdir()
    before, patch = build_inputs()
    patch_ws = tmp / "patch-ws"
    patch_ws.mkdir()
    gnu_dir = tmp / "gnu"
    gnu_dir.mkdir()
    (gnu_dir / "p.diff").write_text(patch)
    grep, gnu = shutil.which("grep"), shutil.which("patch")
    counter = iter(range(1, 1_000_000))
    search = "query: needle_marker\n"

    def one_round() -> None:
        n = next(counter)
        out = runs.time(
            "searchTree", _exec_argv(tree, kept), _command(n, "fs.searchTree", ".", search)
        )
        _checked(out, "fs.searchTree")
        if "needle_marker" not in out:
            raise SystemExit("fs.searchTree found nothing: " + out)
        runs.time("stat tree", _exec_argv(tree, kept), _command(n, "fs.stat", "pkg0"))
        (patch_ws / "big.py").write_text(before)
        reply = _command(n, "fs.patch", "big.py", f"patch_b64: {_b64(patch)}\n")
        _checked(runs.time("patch", _exec_argv(patch_ws, kept), reply), "fs.patch")
        runs.time("stat big", _exec_argv(patch_ws, kept), _command(n, "fs.stat", "big.py"))
        if grep is not None:
            runs.time("grep tree", [grep, "-rnF", "needle_marker", str(tree)])
            runs.time("grep empty", [grep, "-rnF", "needle_marker", str(empty)])
        if gnu is not None:
            (gnu_dir / "big.py").write_text(before)
            cwd = str(gnu_dir)
            runs.time("gnu patch", [gnu, "-s", "-d", cwd, "big.py", str(gnu_dir / "p.diff")])
            runs.time("gnu version", [gnu, "--version"])

    one_round()  # warm
    runs.wall.clear()
    runs.cpu.clear()
    for _ in range(MARGINAL_ROUNDS):
        one_round()

    def marginal(run: str, base: str) -> Stats:
        """The median over rounds of each round's difference: the two runs of a round
        share the machine's load of the moment, which a difference of medians would not."""
        wall = [a - b for a, b in zip(runs.wall[run], runs.wall[base], strict=True)]
        cpu = [a - b for a, b in zip(runs.cpu[run], runs.cpu[base], strict=True)]
        return Stats(max(statistics.median(wall), 1e-6), max(statistics.median(cpu), 1e-6))

    def search_reply() -> str:
        return _command(next(counter), "fs.searchTree", ".", search)

    def patch_reply() -> str:
        (patch_ws / "big.py").write_text(before)
        return _command(next(counter), "fs.patch", "big.py", f"patch_b64: {_b64(patch)}\n")

    probe = tmp / "probe-m.json"
    search_where = _where_marginal(
        _ledgers(tree, kept, search_reply, probe),
        _ledgers(tree, kept, lambda: _command(next(counter), "fs.stat", "pkg0"), probe),
    )
    patch_where = _where_marginal(
        _ledgers(patch_ws, kept, patch_reply, probe),
        _ledgers(patch_ws, kept, lambda: _command(next(counter), "fs.stat", "big.py"), probe),
    )
    ours = marginal("searchTree", "stat tree")
    if grep is None:
        lines.append("searchTree marginal: grep not found, no comparison")
    else:
        peer = marginal("grep tree", "grep empty")
        lines.append(
            f"fs.searchTree 300 files x 80 KB, whole process minus fs.stat: "
            f"{ours.wall * 1000:.0f} ms vs grep -rnF minus grep of an empty folder "
            f"{peer.wall * 1000:.0f} ms -> {_ratio(ours, peer)} (target <= 2x)"
        )
    lines.append(search_where)
    ours = marginal("patch", "stat big")
    if gnu is None:
        lines.append("fs.patch marginal: GNU patch not found (apt-get install patch)")
    else:
        peer = marginal("gnu patch", "gnu version")
        lines.append(
            f"fs.patch 3 hunks in 100,000 lines, whole process with journal and fsync minus "
            f"fs.stat: {ours.wall * 1000:.0f} ms vs GNU patch in place minus patch --version "
            f"{peer.wall * 1000:.0f} ms -> {_ratio(ours, peer)} (target <= 4x)"
        )
    lines.append(patch_where)
    return lines


def _load() -> str:
    return "load average " + " ".join(f"{value:.2f}" for value in os.getloadavg())


def run(family: str | None = None, marginals_only: bool = False) -> list[str]:
    """Every family's row and the marginals; or only ``family``'s row; or only the
    marginals."""
    cases = [] if marginals_only else [case for case in CASES if family in (None, case.name)]
    if not cases and not marginals_only:
        raise SystemExit(f"no family {family!r}; the families: {[c.name for c in CASES]}")
    tmp = Path(tempfile.mkdtemp(prefix="bench-startup-"))
    try:
        lines = [f"before: {_load()} on {os.cpu_count()} CPUs"]
        if cases:
            lines += bench_families(tmp, cases)
        if family is None:
            lines += bench_marginals(tmp)
        lines.append(f"after: {_load()}")
        return lines
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    only = parser.add_mutually_exclusive_group()
    only.add_argument("--family", help="only this family's row, no marginals")
    only.add_argument("--marginals", action="store_true", help="only the two marginals")
    args = parser.parse_args()
    print("\n".join(run(args.family, args.marginals)))
