"""Run every benchmark side by side with its peer and print the ratios.

    python benchmarks/run_all.py [NAME ...]

Every ``bench_*.py`` beside this file is a benchmark: it exposes run() -> list[str], and a
module whose peer tool is missing says so. Names on the command line (``bench_core`` or
``core``) run only those.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

HERE = Path(__file__).parent


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(HERE))
    found = sorted(path.stem for path in HERE.glob("bench_*.py"))
    wanted = {name if name.startswith("bench_") else f"bench_{name}" for name in argv}
    unknown = sorted(wanted - set(found))
    if unknown:
        print(f"no such benchmark: {', '.join(unknown)}; found: {', '.join(found)}")
        return 2
    for name in found:
        if wanted and name not in wanted:
            continue
        print(f"== {name}", flush=True)
        module = importlib.import_module(name)
        for line in module.run():
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
