"""Characters a person pastes into the chat for a whole task: before the model channel's
second round of changes and now.

Each task is replayed through the real command line (``llm-operator pack`` for the first
message, ``llm-operator exec --yes`` for each reply of the model, whose OPERATOR_RESULT
blocks are what the person pastes back) twice: with the code of a baseline commit (from a
``git worktree`` of it) and with this checkout's. The replies are the model's, fixed in
advance; a reply the app refuses is followed by the reply a model sends to recover from
that refusal, so a version that refuses more costs its extra turn. Counted: characters of
the context message and of each turn's results, as a chat box counts them.

Tasks (files from tests/data, unmodified upstream sources):
- gin-recorded: tests/data/turns/gin_lastchar, its four recorded replies (explore, read,
  edit, verify) after a context message naming utils.go and utils_test.go.
- gin-from-pack: the same task answered from the context message alone: the edit reply
  (turn 3) and the verify reply (turn 4); the message holds the lines the edit needs at
  either commit (whole files then; the definition the task names now).
- click-nested: click's formatting.py, "write_usage should strip the program name": the
  model edits the method by its one-line definition line, as the primer teaches; before
  the one-line target reached nested definitions that was refused, and the model resent
  it with symbol: HelpFormatter/write_usage. Then a verify read.

Run: python benchmarks/bench_pasted_back.py [--base COMMIT]. The baseline defaults to
4946bf6, the last merge before the channel's round-2 work (nested one-line targets,
readable structure results, outline symbol paths, patch recount, the pack's parts).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
GO = DATA / "structure_real" / "go"
CLICK = DATA / "pack_real" / "click" / "src" / "click"
TURNS = DATA / "turns" / "gin_lastchar"
BASE = "4946bf6"
GIN_TASK = (
    "lastChar panics on an empty string; make it return 0 instead, update its test, and add "
    "a test for a one-byte string."
)
CLICK_TASK = "write_usage should strip spaces around the program name before it is shown."


def units(text: str) -> int:
    """Characters as a browser's chat box counts them (UTF-16 code units)."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


@dataclass
class Replay:
    """One task replayed with one version of the code."""

    src: Path
    root: Path
    state: Path
    steps: list[tuple[str, int]] = field(default_factory=list)

    def cli(self, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        env = dict(os.environ, PYTHONPATH=str(self.src), LLM_OPERATOR_CONFIG_DIR=str(self.state))
        return subprocess.run(
            [sys.executable, "-m", "llm_operator.cli", *args],
            input=stdin,
            capture_output=True,
            text=True,
            env=env,
            timeout=300,
            check=False,
        )

    def pack(self, task: str, *paths: str) -> None:
        done = self.cli(
            "pack", "--workspace", str(self.root), "--state-dir", str(self.state),
            "--task", task, *paths,
        )  # fmt: skip
        if done.returncode != 0:
            raise SystemExit(f"pack failed: {done.stderr}")
        self.steps.append(("context message", units(done.stdout)))

    def reply(self, name: str, text: str) -> str:
        done = self.cli(
            "exec", "--workspace", str(self.root), "--state-dir", str(self.state), "--yes",
            stdin=text,
        )  # fmt: skip
        self.steps.append((name, units(done.stdout)))
        return done.stdout

    @property
    def total(self) -> int:
        return sum(chars for _, chars in self.steps)

    @property
    def results(self) -> int:
        return sum(chars for name, chars in self.steps if name != "context message")


def _gin(root: Path) -> None:
    shutil.copyfile(GO / "gin-utils.go", root / "utils.go")
    shutil.copyfile(GO / "gin-utils_test.go", root / "utils_test.go")


def gin_recorded(replay: Replay) -> None:
    _gin(replay.root)
    replay.pack(GIN_TASK, "utils.go", "utils_test.go")
    for turn in sorted(TURNS.glob("turn-*.txt")):
        replay.reply(turn.stem, turn.read_text("utf-8"))


def gin_from_pack(replay: Replay) -> None:
    _gin(replay.root)
    replay.pack(GIN_TASK, "utils.go", "utils_test.go")
    for turn in ("turn-3", "turn-4"):
        replay.reply(turn, (TURNS / f"{turn}.txt").read_text("utf-8"))


def _block(cmd_id: str, action: str, **fields: str) -> str:
    lines = ["OPERATOR_CMD", "version: 1", f"id: {cmd_id}", f"action: {action}"]
    return "\n".join([*lines, *(f"{k}: {v}" for k, v in fields.items()), "END_OPERATOR_CMD"])


EDIT = {
    "path": "formatting.py",
    "old_text": 'usage_prefix = f"{prefix:>{self.current_indent}}{prog} "',
    "new_text": 'usage_prefix = f"{prefix:>{self.current_indent}}{prog.strip()} "',
}


def click_nested(replay: Replay) -> None:
    shutil.copyfile(CLICK / "formatting.py", replay.root / "formatting.py")
    replay.pack(CLICK_TASK, "formatting.py")
    target = 'def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:'
    first = _block("edit-1", "fs.replaceTextInStructure", target=target, **EDIT)
    answer = replay.reply("edit by its definition line", "Here is the edit.\n\n" + first)
    if "ERR_TARGET_NOT_FOUND" in answer:
        again = _block(
            "edit-2", "fs.replaceTextInStructure", symbol="HelpFormatter/write_usage", **EDIT
        )
        replay.reply("edit again by symbol", "The target needs its class.\n\n" + again)
    check = _block("read-3", "fs.search", path="formatting.py", query="usage_prefix = ")
    replay.reply("verify", "Checking what landed.\n\n" + check)


TASKS: dict[str, Callable[[Replay], None]] = {
    "gin-recorded": gin_recorded,
    "gin-from-pack": gin_from_pack,
    "click-nested": click_nested,
}


def baseline_src(commit: str, into: Path) -> Path:
    """The baseline's src/ from a throwaway worktree (removed at exit by the caller)."""
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(into), commit],
        check=True,
        capture_output=True,
    )
    return into / "src"


def run(commit: str = BASE) -> list[str]:
    """The report's lines (``run_all.py`` prints them)."""
    scratch = Path(tempfile.mkdtemp(prefix="bench-pasted-"))
    worktree = scratch / "base"
    try:
        sources = {f"base {commit}": baseline_src(commit, worktree), "now": ROOT / "src"}
        totals: dict[str, dict[str, Replay]] = {}
        for task, play in TASKS.items():
            for label, src in sources.items():
                where = scratch / f"{task}-{label.split()[0]}"
                (where / "ws").mkdir(parents=True)
                replay = Replay(src, where / "ws", where / "state")
                play(replay)
                totals.setdefault(task, {})[label] = replay
        return report(totals, list(sources))
    finally:
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(worktree)],
            check=False,
            capture_output=True,
        )
        shutil.rmtree(scratch, ignore_errors=True)


def _files(root: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(root.iterdir()) if p.is_file()}


def report(totals: dict[str, dict[str, Replay]], labels: list[str]) -> list[str]:
    base, now = labels
    lines: list[str] = []
    all_base = all_now = results_base = results_now = 0
    for task, by_label in totals.items():
        lines.append(f"{task}")
        for label in labels:
            replay = by_label[label]
            shown = ", ".join(f"{name} {chars:,}" for name, chars in replay.steps)
            lines.append(f"  {label:>14}: {replay.total:>7,} characters ({shown})")
        before, after = by_label[base], by_label[now]
        # Fewer characters count only if the task was done: both end with the same files.
        same = _files(before.root) == _files(after.root)
        lines.append(f"  {'same files':>14}: {'yes' if same else 'NO: the runs differ'}")
        lines.append(f"  {'now / base':>14}: {after.total / before.total:.2f} of the characters; "
                     f"results alone {after.results / before.results:.2f}")  # fmt: skip
        all_base += before.total
        all_now += after.total
        results_base += before.results
        results_now += after.results
    lines.append(
        f"all tasks: {all_base:,} -> {all_now:,} characters pasted "
        f"({all_now / all_base:.2f}; a fall of {1 - all_now / all_base:.0%}); results pasted "
        f"back alone {results_base:,} -> {results_now:,} ({1 - results_now / results_base:.0%} "
        "fewer)"
    )
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default=BASE, help="the baseline commit (default %(default)s)")
    for line in run(parser.parse_args().base):
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
