"""Run every benchmark side by side with its peer and print the ratios.

    python benchmarks/run_all.py

Each module exposes run() -> list[str]; a module whose peer tool is missing says so.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

MODULES = ("bench_core", "bench_patch", "bench_structure", "bench_context", "bench_gui")


def main() -> int:
    sys.path.insert(0, str(Path(__file__).parent))
    for name in MODULES:
        print(f"== {name}", flush=True)
        module = importlib.import_module(name)
        for line in module.run():
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
