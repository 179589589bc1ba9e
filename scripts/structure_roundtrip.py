"""Run the structure round trip over every supported file of a git repository and print rates.

    python scripts/structure_roundtrip.py /path/to/repo.git [--max-files N] [--language go]
        [--failures 20]

The repository may be bare: files are read from HEAD with ``git cat-file``. The trip is
the one the test suite runs on tests/data/structure_real (tests/support/structure_roundtrip.py).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections import defaultdict
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
    parser.add_argument("repo")
    parser.add_argument("--max-files", type=int, default=200, help="per language")
    parser.add_argument("--language", action="append")
    parser.add_argument("--failures", type=int, default=0, help="failures to list")
    args = parser.parse_args(argv)
    per_language: dict[str, Rates] = defaultdict(Rates)
    counts: dict[str, int] = defaultdict(int)
    for path, sha, size in _files(args.repo):
        language = language_for_path(path) or ""
        if args.language and language not in args.language:
            continue
        if size > MAX_BYTES or counts[language] >= args.max_files:
            continue
        data = subprocess.run(
            ["git", "-C", args.repo, "cat-file", "blob", sha], check=True, capture_output=True
        ).stdout
        counts[language] += 1
        try:
            per_language[language].add(trip_file(path, data))
        except Exception as exc:  # a crash in the engine is a finding, not a stop
            per_language[language].failures.append(f"{path}: crash {type(exc).__name__}: {exc}")
            per_language[language].outcomes["crash"] += 1
    total = Rates()
    for language, rates in sorted(per_language.items()):
        print(f"{language:10} {rates.summary()}")
        total.add(rates)
        for failure in rates.failures[: args.failures]:
            print(f"    {failure}")
    print(f"{'all':10} {total.summary()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
