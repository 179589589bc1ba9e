"""Run the structure round trip over every supported file of a git repository and print rates.

    python scripts/structure_roundtrip.py /path/to/repo.git [/other/repo.git ...]
        [--max-files N] [--language go] [--failures 20] [--data]

Per language it prints the files and definitions tried, the replace rate (byte-identical),
the move rate (parses no worse, text intact) and the agreement of the outline with the
reads (every outline entry read by its outline lines, and by its symbol), then the full
summary of every step. ``--data`` runs over tests/data/structure_real instead.

The repository may be bare: files are read from HEAD with ``git cat-file``. The trip is
the one the test suite runs on tests/data/structure_real (tests/support/structure_roundtrip.py).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from llm_operator.core.engines.structure import language_for_path
from support.structure_roundtrip import Rates, trip_file

MAX_BYTES = 200_000


def _files(repo: str) -> list[tuple[str, str, int]]:
    out = subprocess.run(
        ["git", "-C", repo, "ls-tree", "-r", "-l", "HEAD"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    found = []
    for line in out.splitlines():
        meta, path = line.split("\t", 1)
        _, kind, sha, size = meta.split()
        if kind == "blob" and size != "-" and language_for_path(path):
            found.append((path, sha, int(size)))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("repos", nargs="*")
    parser.add_argument("--data", action="store_true", help="tests/data/structure_real")
    parser.add_argument("--max-files", type=int, default=200, help="per language")
    parser.add_argument("--language", action="append")
    parser.add_argument("--failures", type=int, default=0, help="failures to list")
    args = parser.parse_args(argv)
    per_language: dict[str, Rates] = defaultdict(Rates)
    counts: dict[str, int] = defaultdict(int)
    for path, data in _sources(args):
        language = language_for_path(path) or ""
        if args.language and language not in args.language:
            continue
        if len(data) > MAX_BYTES or counts[language] >= args.max_files:
            continue
        counts[language] += 1
        try:
            per_language[language].add(trip_file(path, data))
        except Exception as exc:  # a crash in the engine is a finding, not a stop
            per_language[language].failures.append(f"{path}: crash {type(exc).__name__}: {exc}")
            per_language[language].outcomes["crash"] += 1
    total = Rates()
    print(
        f"{'language':10} {'files':>5} {'defs':>5} {'replace':>16} {'move':>16} "
        f"{'outline=read':>16} {'symbol=read':>16}"
    )
    for language, rates in sorted(per_language.items()):
        print(_row(language, rates))
        total.add(rates)
    print(_row("all", total))
    print()
    for language, rates in sorted(per_language.items()):
        print(f"{language:10} {rates.summary()}")
        for failure in rates.failures[: args.failures]:
            print(f"    {failure}")
    print(f"{'all':10} {total.summary()}")
    return 0


def _rate(rates: Rates, step: str) -> str:
    return f"{rates.rate(step):6.1%} of {rates.tried(step):<5}"


def _row(language: str, rates: Rates) -> str:
    return (
        f"{language:10} {rates.files:5} {rates.definitions:5} {_rate(rates, 'replace'):>16} "
        f"{_rate(rates, 'move'):>16} {_rate(rates, 'outline'):>16} {_rate(rates, 'symbol'):>16}"
    )


def _sources(args: argparse.Namespace) -> Iterator[tuple[str, bytes]]:
    if args.data:
        real = Path(__file__).resolve().parents[1] / "tests" / "data" / "structure_real"
        for file in sorted(real.rglob("*")):
            if file.is_file() and language_for_path(file.name):
                yield file.relative_to(real).as_posix(), file.read_bytes()
    for repo in args.repos:
        for path, sha, size in _files(repo):
            if size > MAX_BYTES:
                continue
            data = subprocess.run(
                ["git", "-C", repo, "cat-file", "blob", sha], check=True, capture_output=True
            ).stdout
            yield f"{Path(repo).parent.name}:{path}", data


if __name__ == "__main__":
    raise SystemExit(main())
