"""Validation throughput: a reply of 200 commands scanned and validated, this tree against
another (the code before a change).

The reply mixes what an LLM sends: simple reads (checked without a model), base64 and
JSON texts, structure edits, edit lists, region edits, and a few refusals. Each tree runs
in its own process (``PYTHONPATH`` set to its ``src``), after one untimed warm-up pass
(models built, modules imported), and the median time per reply is printed with the ratio.
Run: python benchmarks/bench_validate.py [--against OTHER/src]
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import subprocess
import sys
from pathlib import Path

ROUNDS = 41
SRC = Path(__file__).resolve().parent.parent / "src"


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def _reply() -> str:
    edits = {"version": 1, "edits": [{"op": "replaceFirst", "find": "x * 7", "text": "x * 70"}]}
    kinds = [
        "action: fs.readSlice\npath: src/m{n}.py\nstart: 3\nlines: 40",
        "action: fs.search\npath: src/m{n}.py\nquery_b64: " + _b64("print(") + "",
        "action: fs.write\npath: out/f{n}.txt\ncontent_b64: " + _b64("line one\nline two\n"),
        'action: fs.write\npath: out/g{n}.txt\ncontent_json: "a\\nb\\n"',
        "action: fs.replaceTextInStructure\npath: m{n}.py\nsymbol: f7\nold_text: x * 7\n"
        "new_text: x * 70",
        "action: fs.applyEdits\npath: m{n}.py\nedits_b64: " + _b64(json.dumps(edits)),
        "action: fs.replaceRegion\npath: m{n}.py\nmarker_id: block-{n}\ncontent_b64: "
        + _b64("x = 1\n"),
        "action: fs.outline\npath: src\ndepth: 3",
        "action: fs.searchTree\npath: .\nquery: TODO\nregex: false\nglob: *.py",
        "action: fs.readSlice\npath: src/m{n}.py\nlines: 9000",  # refused: too many lines
    ]
    blocks = []
    for n in range(200):
        body = kinds[n % len(kinds)].format(n=n)
        blocks.append(f"OPERATOR_CMD\nversion: 1\nid: c{n}\n{body}\nEND_OPERATOR_CMD\n")
    return "".join(blocks)


CHILD = """
import statistics, sys, time
from llm_operator.core.protocol.scanner import scan
from llm_operator.core.protocol.validator import Command, validate

reply = sys.stdin.read()

def once():
    checked = [validate(item) for item in scan(reply).items if hasattr(item, "fields")]
    assert len(checked) == 200, len(checked)
    return sum(isinstance(c, Command) for c in checked)

valid = once()
times = []
for _ in range(int(sys.argv[1])):
    start = time.perf_counter()
    once()
    times.append(time.perf_counter() - start)
print(statistics.median(times) * 1000, valid)
"""


def _run(src: Path, reply: str) -> tuple[float, int]:
    env = dict(os.environ, PYTHONPATH=str(src))
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(ROUNDS)],
        input=reply,
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    ms, valid = done.stdout.split()
    return float(ms), int(valid)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--against", type=Path, help="the src folder of the tree to compare")
    args = parser.parse_args()
    reply = _reply()
    ms, valid = _run(SRC, reply)
    print(f"this tree: {ms:.2f} ms per reply of 200 commands ({valid} valid)")
    if args.against is not None:
        other, other_valid = _run(args.against, reply)
        print(f"other tree: {other:.2f} ms per reply ({other_valid} valid)")
        print(f"ratio this/other: {ms / other:.2f}")


if __name__ == "__main__":
    main()
