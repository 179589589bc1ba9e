"""Result size of the same reads in both forms: readable (details_lines) against strict v3
(details_b64).

The reads are the ones a model makes most: fs.read, fs.readSlice, fs.search, fs.outline
and fs.searchTree, over the real files under tests/data/structure_real (21 languages)
and this repository's own Python sources. Each figure is characters of OPERATOR_RESULT
text, all blocks of a kind together; base64 also costs two to three times the tokens of
the same text, which the character ratio does not show.
Target: readable at most 1.1x the raw text for fs.read of ordinary code, and smaller than
strict v3 for every kind.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from llm_operator.core.plan.session import Session
from llm_operator.core.protocol.encoder import ResultForm, encode_results
from llm_operator.core.store.workspace import Workspace

ROOT = Path(__file__).resolve().parents[1]
SOURCES = (ROOT / "tests" / "data" / "structure_real", ROOT / "src" / "llm_operator")
SUFFIXES = (".py", ".go", ".rs", ".java", ".ts", ".js", ".c", ".h", ".cc", ".rb", ".php")


def _copy(tmp: Path) -> list[str]:
    names: list[str] = []
    for number, source in enumerate(SOURCES):
        for path in sorted(source.rglob("*")):
            if path.is_file() and path.suffix in SUFFIXES and path.stat().st_size < 150_000:
                rel = f"s{number}/{path.relative_to(source).as_posix()}"
                (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, tmp / rel)
                names.append(rel)
    return names


def _block(cmd_id: str, action: str, **fields: str) -> str:
    lines = ["OPERATOR_CMD", "version: 1", f"id: {cmd_id}", f"action: {action}"]
    lines += [f"{key}: {value}" for key, value in fields.items()]
    return "\n".join([*lines, "END_OPERATOR_CMD"])


def _sizes(tmp: Path, blocks: list[str]) -> tuple[int, int]:
    session = Session(Workspace(tmp), tmp.parent / f"state-{len(blocks)}-{len(blocks[0])}")
    results = session.execute(session.prepare("\n\n".join(blocks)), {})
    bad = [r.outcome.summary for r in results if not r.ok]
    assert not bad, bad[:3]
    readable = len(encode_results(results, ResultForm.READABLE))
    strict = len(encode_results(results, ResultForm.BASE64))
    return readable, strict


def run() -> list[str]:
    base = Path(tempfile.mkdtemp(prefix="bench-forms-"))
    tmp = base / "ws"
    tmp.mkdir()
    try:
        names = _copy(tmp)
        raw = sum((tmp / name).stat().st_size for name in names)
        kinds = {
            "fs.read": [_block(f"r{n}", "fs.read", path=name) for n, name in enumerate(names)],
            "fs.readSlice": [
                _block(f"s{n}", "fs.readSlice", path=name, lines="400")
                for n, name in enumerate(names)
            ],
            "fs.search": [
                _block(f"q{n}", "fs.search", path=name, query="return")
                for n, name in enumerate(names)
            ],
            "fs.outline": [
                _block(f"o{n}", "fs.outline", path=name) for n, name in enumerate(names)
            ],
            "fs.searchTree": [
                _block("t1", "fs.searchTree", path=".", query="def "),
                _block("t2", "fs.searchTree", path=".", query="func "),
            ],
        }
        lines = []
        for kind, blocks in kinds.items():
            readable, strict = _sizes(tmp, blocks)
            lines.append(
                f"{kind} x{len(blocks)}: readable {readable:,} chars, strict v3 {strict:,} chars "
                f"-> readable/strict {readable / strict:.2f}"
            )
            if kind == "fs.read":
                lines.append(
                    f"fs.read of {len(names)} code files ({raw:,} bytes raw): readable "
                    f"{readable / raw:.3f}x raw, strict v3 {strict / raw:.3f}x raw "
                    "(target readable <= 1.1x)"
                )
        return lines
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    print("\n".join(run()))
