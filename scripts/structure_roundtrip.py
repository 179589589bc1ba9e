"""Run the structure round trip over real files and print rates per language.

    python scripts/structure_roundtrip.py SOURCE [SOURCE ...] [--data]
        [--max-files N] [--max-definitions N] [--seed S] [--timeout SECONDS]
        [--language go] [--failures 20] [--quiet]

A SOURCE is a git repository (bare or not; files are read from HEAD with ``git cat-file``),
a plain folder of files or one file. ``--data`` adds tests/data/structure_real.

Per file it prints one line as soon as the file is done (language, definitions tried,
failures, seconds, or the timeout), so a long run shows its progress and keeps what it
found if stopped. At the end, per language: files, definitions, then the rate of each
step: read (the target gives exactly the definition), text round trip (a word renamed
and back, byte-identical), insert (deleted then inserted back beside a neighbour, parses
no worse), replace (with its own text, byte-identical), move (to the end of its parent,
parses no worse, text intact) and outline (every outline entry read back by its outline
lines, and by its symbol, with the same range).

``--max-files`` picks that many files per language at random (seeded by ``--seed``, so a
run can be repeated); ``--max-definitions`` samples that many definitions per file, the
same way. A file that takes longer than ``--timeout`` seconds is counted as timed out and
skipped. The trip is the one the test suite runs on tests/data/structure_real
(tests/support/structure_roundtrip.py).
"""

from __future__ import annotations

import argparse
import random
import signal
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from llm_operator.core.engines.structure import language_for_path
from support.structure_roundtrip import Rates, trip_file

MAX_BYTES = 200_000
COLUMNS = (
    ("read", "read"),
    ("text", "replace_text"),
    ("insert", "delete_insert"),
    ("replace", "replace"),
    ("move", "move"),
    ("outline", "outline"),
    ("symbol", "symbol"),
)


class _TimedOut(Exception):
    pass


def _on_alarm(signum: int, frame: FrameType | None) -> None:
    raise _TimedOut


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("sources", nargs="*", help="git repositories or folders")
    parser.add_argument("--data", action="store_true", help="add tests/data/structure_real")
    parser.add_argument("--max-files", type=int, default=200, help="per language (sampled)")
    parser.add_argument("--max-definitions", type=int, default=None, help="per file (sampled)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=int, default=120, help="seconds per file")
    parser.add_argument("--language", action="append")
    parser.add_argument("--failures", type=int, default=0, help="failures to list")
    parser.add_argument("--quiet", action="store_true", help="no line per file")
    args = parser.parse_args(argv)
    per_language: dict[str, Rates] = defaultdict(Rates)
    timed_out: dict[str, int] = defaultdict(int)
    signal.signal(signal.SIGALRM, _on_alarm)
    for path, load in _sample(args):
        language = language_for_path(path) or ""
        data = load()
        started = time.monotonic()
        signal.alarm(args.timeout)
        try:
            rates = trip_file(path, data, sample=_sampler(args, path))
        except _TimedOut:
            timed_out[language] += 1
            _progress(args, f"{language:10} {path}: timed out after {args.timeout} s")
            continue
        except Exception as exc:  # a crash in the engine is a finding, not a stop
            rates = Rates(files=1)
            rates.failures.append(f"{path}: crash {type(exc).__name__}: {exc}")
            rates.outcomes["crash"] += 1
        finally:
            signal.alarm(0)
        per_language[language].add(rates)
        _progress(
            args,
            f"{language:10} {path}: {rates.definitions} defs, {len(rates.failures)} failures, "
            f"{time.monotonic() - started:.1f} s",
        )
    _report(args, per_language, timed_out)
    return 0


def _progress(args: argparse.Namespace, line: str) -> None:
    if not args.quiet:
        print(line, flush=True)


def _sampler(args: argparse.Namespace, path: str) -> Callable[[list[object]], list[object]] | None:
    if args.max_definitions is None:
        return None
    count: int = args.max_definitions
    chooser = random.Random(f"{args.seed}:{path}")

    def sample(definitions: list[object]) -> list[object]:
        if len(definitions) <= count:
            return definitions
        picked = sorted(chooser.sample(range(len(definitions)), count))
        return [definitions[i] for i in picked]

    return sample


def _report(
    args: argparse.Namespace, per_language: dict[str, Rates], timed_out: dict[str, int]
) -> None:
    total = Rates()
    header = f"{'language':10} {'files':>5} {'defs':>5}" + "".join(
        f" {title:>15}" for title, _ in COLUMNS
    )
    print()
    print(header)
    for language, rates in sorted(per_language.items()):
        print(_row(language, rates))
        total.add(rates)
    print(_row("all", total))
    if timed_out:
        print("timed out: " + ", ".join(f"{k} {v}" for k, v in sorted(timed_out.items())))
    print()
    for language, rates in sorted(per_language.items()):
        print(f"{language:10} {rates.summary()}")
        for failure in rates.failures[: args.failures]:
            print(f"    {failure}")
    print(f"{'all':10} {total.summary()}")


def _rate(rates: Rates, step: str) -> str:
    return f"{rates.rate(step):6.1%} of {rates.tried(step):<5}"


def _row(language: str, rates: Rates) -> str:
    cells = "".join(f" {_rate(rates, step):>15}" for _, step in COLUMNS)
    return f"{language:10} {rates.files:5} {rates.definitions:5}{cells}"


def _sample(args: argparse.Namespace) -> Iterator[tuple[str, Callable[[], bytes]]]:
    """(name, loader) of the files to trip: per language at most --max-files, seeded."""
    by_language: dict[str, list[tuple[str, Callable[[], bytes]]]] = defaultdict(list)
    for name, size, load in _candidates(args):
        language = language_for_path(name)
        if not language or size > MAX_BYTES:
            continue
        if args.language and language not in args.language:
            continue
        by_language[language].append((name, load))
    chooser = random.Random(args.seed)
    for language in sorted(by_language):
        files = sorted(by_language[language], key=lambda item: item[0])
        if len(files) > args.max_files:
            files = sorted(chooser.sample(files, args.max_files), key=lambda item: item[0])
        yield from files


def _candidates(args: argparse.Namespace) -> Iterator[tuple[str, int, Callable[[], bytes]]]:
    folders: list[Path] = []
    if args.data:
        folders.append(Path(__file__).resolve().parents[1] / "tests" / "data" / "structure_real")
    for source in args.sources:
        if _is_git(source):
            yield from _git_files(source)
        elif Path(source).is_file():
            file = Path(source)
            yield file.name, file.stat().st_size, file.read_bytes
        else:
            folders.append(Path(source))
    for folder in folders:
        for file in sorted(folder.rglob("*")):
            if file.is_file() and not file.is_symlink():
                yield file.relative_to(folder).as_posix(), file.stat().st_size, file.read_bytes


def _is_git(source: str) -> bool:
    """A bare repository, or a work tree's top (a folder inside one is a folder)."""
    root = Path(source)
    return (root / ".git").exists() or ((root / "HEAD").is_file() and (root / "objects").is_dir())


def _git_files(repo: str) -> Iterator[tuple[str, int, Callable[[], bytes]]]:
    out = subprocess.run(
        ["git", "-C", repo, "ls-tree", "-r", "-l", "HEAD"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    label = Path(repo).resolve().parent.name if Path(repo).name in ("repo", ".git") else repo
    for line in out.splitlines():
        meta, path = line.split("\t", 1)
        _, kind, sha, size = meta.split()
        if kind == "blob" and size != "-":
            yield f"{Path(label).name}:{path}", int(size), _blob(repo, sha)


def _blob(repo: str, sha: str) -> Callable[[], bytes]:
    def load() -> bytes:
        return subprocess.run(
            ["git", "-C", repo, "cat-file", "blob", sha], check=True, capture_output=True
        ).stdout

    return load


if __name__ == "__main__":
    raise SystemExit(main())
