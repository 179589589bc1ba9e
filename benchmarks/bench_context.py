"""A 300-file folder outline (fs.outline) against fs.searchTree over the same files.

The tree is 300 files copied from this repository's own Python sources (real code, cycled
when there are fewer), in 10 folders. fs.searchTree searches for a string found nowhere,
so it reads every file; fs.outline parses every file, at its default depth 2, in as many
calls as its line cap needs (each continuing with ``after:``), all timed together. Both run
in one process after a warm-up (grammars loaded, the page cache full); the figure is the
median of several runs. The outline is timed three ways:
- cold: nothing kept anywhere, so every file is parsed (the first outline ever made of a
  workspace);
- kept: the in-process cache cleared before each run but the workspace's state store
  holding the outlines an earlier run made (every later ``exec``, the window after its
  outline warmer ran or after a restart): each file is read, hashed and looked up, none
  parsed;
- warm: the in-process cache holds the unchanged files (the window's later outlines).
Target: the outline at most 3x the search.

Then the context pack on a real tree (a copy of this repository's src/ and tests/): three
files packed with the default outline budget (2000 tokens), its size against the files,
the primer and the whole unranked outline of the rest it replaces, and its time: the
first pack (every file parsed), a pack whose outlines are kept in the state store (as
after the window's warmer, or a second ``pack``), and ranking alone on an index already
made (what the window does on each change of ticks, task or budget).
"""

from __future__ import annotations

import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from llm_operator.core.actions import get_spec
from llm_operator.core.actions.base import ActionContext, FileSource
from llm_operator.core.actions.outline import clear_outline_cache
from llm_operator.core.outcome import Outcome
from llm_operator.core.store.database import StateStore
from llm_operator.core.store.outline_cache import StoredOutlines
from llm_operator.core.store.workspace import Workspace

TARGET_RATIO = 3.0
FILES = 300
RUNS = 7
SOURCES = Path(__file__).resolve().parents[1] / "src" / "llm_operator"


class _Disk(FileSource):
    def __init__(self, root: Path) -> None:
        self._root = root

    def read(self, rel: str) -> bytes | None:
        return (self._root / rel).read_bytes()


def build_tree(root: Path, count: int = FILES) -> None:
    sources = sorted(p for p in SOURCES.rglob("*.py") if p.stat().st_size > 200)
    for n in range(count):
        source = sources[n % len(sources)]
        target = root / "tree" / f"pkg{n % 10}" / f"m{n:03d}_{source.name}"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)


def _median_s(call: Callable[[], object], runs: int = RUNS) -> float:
    call()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _runner(ctx: ActionContext, action: str, **values: str) -> Callable[[], Outcome]:
    spec = get_spec(action)
    fields = spec.fields.model_validate({"path": "tree", **values})

    def run() -> Outcome:
        outcome = spec.execute(ctx, fields)
        assert isinstance(outcome, Outcome), outcome
        assert outcome.ok, outcome.summary
        return outcome

    return run


def run() -> list[str]:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        build_tree(root)
        ctx = ActionContext(Workspace(root), _Disk(root))
        store = StateStore(root / "state")
        kept_ctx = ActionContext(Workspace(root), _Disk(root), StoredOutlines(store))
        search = _runner(ctx, "fs.searchTree", query="no such text anywhere 1f2e3d")
        assert "files scanned: 300" in (search().details or "")
        calls: list[int] = []

        def outline(context: ActionContext = ctx) -> None:
            after: str | None = None
            files = 0
            calls.append(0)
            while True:
                values = {"after": after} if after else {}
                details = _runner(context, "fs.outline", **values)().details or ""
                calls[-1] += 1
                files += int(details.split("# files outlined: ", 1)[1].split(";", 1)[0])
                if "\n# more: after: " not in details:
                    break
                after = details.split("\n# more: after: ", 1)[1].split("\n", 1)[0]
            assert files == FILES, files

        def cold() -> None:
            clear_outline_cache()
            outline()

        def kept() -> None:
            clear_outline_cache()
            outline(kept_ctx)

        from llm_operator.core.engines.structure.source import parser_for

        parser = parser_for("python")
        datas = [path.read_bytes() for path in sorted((root / "tree").rglob("*.py"))]

        def parse_only() -> None:
            for data in datas:
                parser.parse(data)

        search_s = _median_s(search)
        cold_s = _median_s(cold)
        kept_s = _median_s(kept)  # its warm-up call fills the store
        warm_s = _median_s(outline)
        parse_s = _median_s(parse_only)
        store.close()
    lines = [f"fs.searchTree over {FILES} files: {search_s * 1000:.1f} ms (median of {RUNS})"]
    lines.append(
        f"tree-sitter parse alone of the same files (the floor of a cold outline): "
        f"{parse_s * 1000:.1f} ms, {parse_s / search_s:.2f}x searchTree"
    )
    for label, seconds in (
        ("cold, nothing kept", cold_s),
        ("kept in the state store (in-process cache cleared)", kept_s),
        ("warm, same process", warm_s),
    ):
        ratio = seconds / search_s
        verdict = "ok" if ratio <= TARGET_RATIO else "OVER TARGET"
        lines.append(
            f"fs.outline of the same files, {label}: {seconds * 1000:.1f} ms ({calls[-1]} calls "
            f"with after:); outline / searchTree {ratio:.2f}x (target <= {TARGET_RATIO}x) "
            f"{verdict}"
        )
    return lines


PACKED = (
    "src/llm_operator/core/plan/context.py",
    "src/llm_operator/core/protocol/context_pack.py",
    "src/llm_operator/cli.py",
)
ROOT = SOURCES.parents[1]


def pack_lines() -> list[str]:
    from llm_operator.core.actions.outline import outline_folder, render_folder
    from llm_operator.core.plan.context import build_context, read_for_context
    from llm_operator.core.plan.repo_map import DEFAULT_MAP_TOKENS, index_workspace, repo_map
    from llm_operator.core.protocol.context_pack import PackedFile, file_section
    from llm_operator.core.protocol.primer import primer_text

    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", ".pytest_cache")
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / "repo"
        for part in ("src", "tests"):
            shutil.copytree(ROOT / part, root / part, ignore=ignore)
        workspace = Workspace(root)
        task = "Explain how pack_message cuts a message into parts"
        store = StateStore(Path(folder) / "state")

        def pack(memo: StoredOutlines | None = None) -> object:
            return build_context(
                workspace, PACKED, task=task, map_tokens=DEFAULT_MAP_TOKENS, outlines=memo
            )

        clear_outline_cache()
        start = time.perf_counter()
        made = build_context(
            workspace, PACKED, task=task, map_tokens=DEFAULT_MAP_TOKENS, outlines=None
        )
        first_s = time.perf_counter() - start
        pack(StoredOutlines(store))  # fills the store

        def kept() -> None:
            clear_outline_cache()
            pack(StoredOutlines(store))

        kept_s = _median_s(kept, 3)
        index = index_workspace(workspace)
        files = [read_for_context(workspace, rel) for rel in PACKED]
        packed = [f for f in files if isinstance(f, PackedFile)]
        rank_s = _median_s(lambda: repo_map(index, packed, task, DEFAULT_MAP_TOKENS), 5)
        whole = render_folder(
            outline_folder(workspace, ".", 2, leave_out=frozenset(PACKED)), with_secrets=False
        )
        store.close()
    assert made.outline is not None
    raw = sum((ROOT / rel).stat().st_size for rel in PACKED)
    numbered = sum(len("\n".join(file_section(f))) + 1 for f in packed)
    primer = len(primer_text())
    size = made.message.chars
    return [
        f"pack of 3 files of a real tree ({len(index.files)} outlinable files), default "
        f"budget {DEFAULT_MAP_TOKENS} tokens: {size:,} characters = files {raw:,} + line "
        f"numbers and FILE lines {numbered - raw:,} + primer {primer:,} + "
        f"{size - numbered - primer:,} more (outline {len(made.outline.text):,}: "
        f"{made.outline.lines} of {made.outline.total_lines} lines); over files + primer: "
        f"{size - raw - primer:,} (target about 10,000)",
        f"the unranked outline of the rest it replaces: {len(whole):,} characters "
        f"(first folder-outline call only), {len(whole) / len(made.outline.text):.1f}x the map",
        f"pack time: first (every file parsed) {first_s * 1000:.0f} ms; outlines kept in the "
        f"state store {kept_s * 1000:.0f} ms (median of 3); ranking an index already made "
        f"{rank_s * 1000:.1f} ms (median of 5)",
    ]


if __name__ == "__main__":
    print("\n".join([*run(), *pack_lines()]))
