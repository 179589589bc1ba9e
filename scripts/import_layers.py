"""Print the core's floors and the imports between them, so a reader sees none run back up.

    python scripts/import_layers.py [--modules]

The core is built in floors, lowest first (the same order as the layers contract of
``pyproject.toml``):

    ground    the modules directly in core/: errors, error codes, the visible rendering,
              file names, outcomes, work budgets...
    engines   text to text
    changes   core/changes.py: the change set, decoded and diffed by the engines
    store     everything that touches disk
    actions   the action table
    protocol  text in, values out
    plan      the session

Every import from one floor to another is counted (imports inside functions and under
``TYPE_CHECKING`` included, as grimp sees them) and printed as ``from -> to  count``, with
``UP`` beside any that runs from a lower floor to a higher one. ``--modules`` lists the
importing and imported modules of each upward edge. The exit status is 1 when any import
runs up, so the script can stand in a check.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict

import grimp

CORE = "llm_operator.core"
FLOORS = ("ground", "engines", "changes", "store", "actions", "protocol", "plan")
# core/changes.py is a module, not a folder, but it sits on a floor of its own.
_OWN_FLOOR = {"changes"}


def floor_of(module: str) -> str | None:
    """The floor of ``module``, or None when it is outside the core or the core itself."""
    parts = module.split(".")
    if parts[:2] != CORE.split(".") or len(parts) == 2:
        return None
    name = parts[2]
    if name in FLOORS or name in _OWN_FLOOR:
        return name
    return "ground" if len(parts) == 3 else None


def edges(graph: grimp.ImportGraph) -> dict[tuple[str, str], list[tuple[str, str]]]:
    """Each pair of different floors, with the (importer, imported) modules between them."""
    found: dict[tuple[str, str], list[tuple[str, str]]] = defaultdict(list)
    for module in sorted(graph.modules):
        source = floor_of(module)
        if source is None:
            continue
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            target = floor_of(imported)
            if target is not None and target != source:
                found[(source, target)].append((module, imported))
    return found


def upward(found: dict[tuple[str, str], list[tuple[str, str]]]) -> int:
    """How many of ``found``'s imports run from a lower floor to a higher one."""
    rank = {name: n for n, name in enumerate(FLOORS)}
    return sum(
        len(pairs) for (source, target), pairs in found.items() if rank[target] > rank[source]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--modules", action="store_true", help="list the modules of each UP")
    args = parser.parse_args(argv)
    found = edges(grimp.build_graph("llm_operator", cache_dir=None))
    rank = {name: n for n, name in enumerate(FLOORS)}
    print("floors, lowest first: " + " < ".join(FLOORS))
    for (source, target), pairs in sorted(
        found.items(), key=lambda item: (-rank[item[0][0]], -rank[item[0][1]])
    ):
        upward_edge = rank[target] > rank[source]
        print(f"  {source:>8} -> {target:<8} {len(pairs):3}{'  UP' if upward_edge else ''}")
        if upward_edge and args.modules:
            for importer, imported in pairs:
                print(f"      {importer} -> {imported}")
    up = upward(found)
    total = sum(len(pairs) for pairs in found.values())
    print(f"imports between floors: {total}; running up: {up}")
    return 1 if up else 0


if __name__ == "__main__":
    sys.exit(main())
