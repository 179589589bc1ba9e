"""The outline of the rest, ranked by relevance and cut to a token budget.

Real files: eleven modules of pallets/click (tests/data/pack_real), plus small made-up
trees where one fact is under test.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from llm_operator.core.plan.context import build_context, read_for_context
from llm_operator.core.plan.repo_map import (
    MapIndex,
    defined_name,
    index_workspace,
    pagerank,
    rank_lines,
    repo_map,
)
from llm_operator.core.protocol.context_pack import PackedFile
from llm_operator.core.store.workspace import Workspace
from support.paths import ROOT

CLICK = ROOT / "tests" / "data" / "pack_real" / "click"


@pytest.fixture(scope="module")
def click() -> tuple[Workspace, MapIndex]:
    workspace = Workspace(CLICK)
    return workspace, index_workspace(workspace)


def packed(workspace: Workspace, *rels: str) -> list[PackedFile]:
    found = [read_for_context(workspace, rel) for rel in rels]
    assert all(isinstance(f, PackedFile) for f in found)
    return [f for f in found if isinstance(f, PackedFile)]


def file_order(index: MapIndex, ticked: list[PackedFile], task: str) -> list[str]:
    """The files in the order of their best line."""
    order: list[str] = []
    for _score, rel, _at in rank_lines(index, ticked, task):
        if rel not in order:
            order.append(rel)
    return order


def test_a_file_the_ticked_file_uses_ranks_above_an_unrelated_one(
    click: tuple[Workspace, MapIndex],
) -> None:
    workspace, index = click
    # parser.py imports its errors from exceptions.py and nothing from _textwrap.py.
    order = file_order(index, packed(workspace, "src/click/parser.py"), "")
    assert order[0] == "src/click/exceptions.py"
    assert order.index("src/click/exceptions.py") < order.index("src/click/_textwrap.py")
    # formatting.py uses _textwrap.TextWrapper: now it is the other way round.
    order = file_order(index, packed(workspace, "src/click/formatting.py"), "")
    assert order[0] == "src/click/_textwrap.py"
    assert order.index("src/click/_textwrap.py") < order.index("src/click/exceptions.py")


def test_the_ticked_files_are_not_outlined_again(click: tuple[Workspace, MapIndex]) -> None:
    workspace, index = click
    shown = repo_map(index, packed(workspace, "src/click/parser.py"), "", 100_000)
    assert "src/click/parser.py (" not in shown.text
    assert "src/click/exceptions.py (python, " in shown.text


def test_a_task_naming_an_identifier_pulls_its_definition_in(
    click: tuple[Workspace, MapIndex],
) -> None:
    workspace, index = click
    ticked = packed(workspace, "src/click/formatting.py")
    without = repo_map(index, ticked, "Wrap long help lines better", 300)
    assert "def convert_type(" not in without.text
    named = repo_map(index, ticked, "Make convert_type accept a tuple of types", 300)
    assert "src/click/types.py (python, 1422 lines)\n" in named.text
    assert "  1341-1382: def convert_type(" in named.text
    assert len(named.text) <= 300 * 4


def test_a_task_naming_a_file_ranks_it_first(click: tuple[Workspace, MapIndex]) -> None:
    workspace, index = click
    order = file_order(index, packed(workspace, "src/click/parser.py"), "")
    assert order[0] != "src/click/globals.py"
    named = file_order(index, packed(workspace, "src/click/parser.py"), "see globals.py")
    assert named[0] == "src/click/globals.py"


def test_a_budget_too_small_for_one_line_gives_no_map(click: tuple[Workspace, MapIndex]) -> None:
    workspace, index = click
    shown = repo_map(index, packed(workspace, "src/click/parser.py"), "", 30)
    assert (shown.text, shown.lines) == ("", 0)


@pytest.mark.parametrize("tokens", [80, 120, 300, 700, 2000, 5000])
def test_the_map_fits_its_budget_and_grows_with_it(
    click: tuple[Workspace, MapIndex], tokens: int
) -> None:
    workspace, index = click
    ticked = packed(workspace, "src/click/parser.py")
    shown = repo_map(index, ticked, "", tokens)
    assert len(shown.text) <= tokens * 4
    assert shown.lines > 0
    bigger = repo_map(index, ticked, "", tokens * 2)
    assert bigger.lines >= shown.lines
    if shown.lines < shown.total_lines:
        # Cut as late as it can be: one more line would not have fitted... or the next
        # line's enclosing lines would not have.
        assert len(shown.text) > tokens * 4 - 400
    first = shown.text.split("\n", 1)[0]
    assert f"{shown.lines} of {shown.total_lines} lines" in first
    assert f"about {tokens} tokens (characters / 4)" in first


def test_a_large_budget_shows_the_whole_outline(click: tuple[Workspace, MapIndex]) -> None:
    from llm_operator.core.actions.outline import outline_folder, render_folder

    workspace, index = click
    ticked = packed(workspace, "src/click/parser.py")
    shown = repo_map(index, ticked, "", 1_000_000)
    assert shown.lines == shown.total_lines
    assert shown.files == shown.total_files == 10
    folder = render_folder(
        outline_folder(workspace, ".", 2, leave_out=frozenset({"src/click/parser.py"}))
    )
    # Every line of the folder outline is in the map, under the same file heading.
    expected = {line for line in folder.splitlines() if not line.startswith("#")}
    assert expected == {line for line in shown.text.splitlines() if not line.startswith("#")}


def test_a_method_is_shown_under_its_class(click: tuple[Workspace, MapIndex]) -> None:
    workspace, index = click
    shown = repo_map(index, packed(workspace, "src/click/formatting.py"), "", 300)
    # formatting.py calls wrapper.extra_indent(): the method comes with its class line.
    assert (
        "src/click/_textwrap.py (python, 188 lines)\n"
        "  38-188: class TextWrapper(textwrap.TextWrapper):\n"
        "    164-175: def extra_indent(self, indent: str) -> cabc.Iterator[None]:\n"
    ) in shown.text


def test_zero_tokens_and_an_empty_tree_give_no_map(tmp_path: Path) -> None:
    index = index_workspace(Workspace(tmp_path))
    assert repo_map(index, [], "anything", 2000).text == ""
    (tmp_path / "a.py").write_text("def f():\n    pass\n")
    index = index_workspace(Workspace(tmp_path))
    assert repo_map(index, [], "", 0).text == ""
    assert "a.py (python, 2 lines)\n  1-2: def f():" in repo_map(index, [], "", 2000).text


def test_secret_looking_files_never_enter_the_map(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text("from keys import load_api_token\nload_api_token()\n")
    (tmp_path / ".env.py").write_text("def load_api_token():\n    return 'never-send-this'\n")
    (tmp_path / "keys").mkdir()
    (tmp_path / "keys" / "server.pem").write_text("def load_api_token(): pass\n")
    (tmp_path / "link.py").symlink_to(".env.py")
    (tmp_path / "util.py").write_text("def harmless():\n    pass\n")
    workspace = Workspace(tmp_path)
    index = index_workspace(workspace)
    assert {f.rel for f in index.files} == {"app.py", "util.py"}
    assert index.withheld == 2  # .env.py and the link to it (a .pem has no grammar)
    ticked = packed(workspace, "app.py")
    shown = repo_map(index, ticked, "Call load_api_token twice", 100_000)
    assert "load_api_token" not in shown.text
    assert "never-send-this" not in shown.text
    assert ".env" not in shown.text
    assert "link.py" not in shown.text
    assert "2 secret-looking file(s) never outlined here" in shown.text
    assert "util.py (python, 2 lines)" in shown.text


def test_the_index_reads_kept_outlines_instead_of_parsing(tmp_path: Path) -> None:
    from llm_operator.core.actions.outline import clear_outline_cache

    (tmp_path / "a.py").write_text("def first():\n    pass\n")

    class Memo:
        def __init__(self) -> None:
            self.kept: dict[str, tuple[list[str], str]] = {}

        def get(self, key: str) -> tuple[list[str], str] | None:
            return self.kept.get(key)

        def put(self, key: str, made: tuple[list[str], str]) -> None:
            self.kept[key] = made

        def flush(self) -> None:
            pass

    memo = Memo()
    clear_outline_cache()
    index_workspace(Workspace(tmp_path), memo)
    ((key, _made),) = memo.kept.items()
    # What is kept is what the map shows: a kept outline is used, the file not parsed.
    memo.kept[key] = (["1-2: def kept_not_parsed():"], "python, 2 lines")
    clear_outline_cache()
    index = index_workspace(Workspace(tmp_path), memo)
    assert index.files[0].lines == ("1-2: def kept_not_parsed():",)
    assert index.files[0].names == ("kept_not_parsed",)


@pytest.mark.parametrize(
    ("line", "name"),
    [
        ("def load(path: str) -> Config:", "load"),
        ("async def fetch(url):", "fetch"),
        ("class Choice(ParamType[_ValueT_co], t.Generic[_ValueT_co]):", "Choice"),
        ("func (r *Router) Handle(pattern string, h Handler) {", "Handle"),
        ("func main() {", "main"),
        ("export default function* walk(tree) {", "walk"),
        ("export const parseArgs = (argv) => {", "parseArgs"),
        ("public static void main(String[] args) {", "main"),
        ("pub fn from_str(s: &str) -> Result<Self, Error> {", "from_str"),
        ("type Handler interface {", "Handler"),
        ("static int jv_dump_term(struct dtoa_context* C, jv x) {", "jv_dump_term"),
        ("if (x) {", ""),
    ],
)
def test_the_defined_name_is_read_from_the_definition_line(line: str, name: str) -> None:
    assert defined_name(line) == name


def test_pagerank_agrees_with_networkx_reference() -> None:
    pagerank_alg = pytest.importorskip("networkx.algorithms.link_analysis.pagerank_alg")
    import networkx as nx

    chance = random.Random(7)
    nodes = [f"f{i}" for i in range(40)]
    edges: dict[tuple[str, str], float] = {}
    for _ in range(160):
        a, b = chance.sample(nodes[:35], 2)  # f35..f39 stay unlinked, some are dangling
        edges[(a, b)] = edges.get((a, b), 0.0) + chance.uniform(0.1, 10)
    wanted = {"f3": 1.0, "f11": 2.0, "f38": 1.0}
    graph = nx.DiGraph()
    graph.add_nodes_from(nodes)
    for (a, b), weight in edges.items():
        graph.add_edge(a, b, weight=weight)
    for alpha in (0.85, 0.5):
        expected = pagerank_alg._pagerank_python(
            graph, alpha=alpha, personalization=wanted, dangling=wanted, tol=1e-10, max_iter=500
        )
        got = pagerank(edges, nodes, wanted, alpha=alpha, tolerance=1e-10, rounds=500)
        assert got.keys() == expected.keys()
        for node in nodes:
            assert got[node] == pytest.approx(expected[node], abs=1e-8)
    plain = pagerank_alg._pagerank_python(graph, tol=1e-10, max_iter=500)
    got = pagerank(edges, nodes, {}, tolerance=1e-10, rounds=500)
    for node in nodes:
        assert got[node] == pytest.approx(plain[node], abs=1e-8)


def test_pack_of_three_real_files_stays_near_their_size(tmp_path: Path) -> None:
    """The pack of 3 files with the default budget: the files as numbered, the primer and
    at most about 10,000 characters more (the outline of the rest, headings, the task)."""
    from llm_operator.core.protocol.context_pack import file_section
    from llm_operator.core.protocol.primer import primer_text

    root = tmp_path / "click"
    shutil.copytree(CLICK, root)
    workspace = Workspace(root)
    three = ["src/click/formatting.py", "src/click/parser.py", "src/click/exceptions.py"]
    pack = build_context(workspace, three, task="Fix the help wrapping", map_tokens=2000)
    assert pack.files == tuple(three)
    whole = pack.message.whole
    sections = sum(len("\n".join(file_section(f))) + 1 for f in packed(workspace, *three))
    raw = sum((root / rel).stat().st_size for rel in three)
    primer = len(primer_text())
    assert len(whole) <= sections + primer + 10_000, (len(whole), sections, raw, primer)
    assert pack.outline is not None
    assert 0 < len(pack.outline.text) <= 8000
    assert pack.outline.lines < pack.outline.total_lines  # cut: the whole outline is larger


def test_a_tree_past_the_file_limit_says_the_map_ranked_only_part_of_it(tmp_path: Path) -> None:
    for n in range(5):
        (tmp_path / f"m{n}.py").write_text(f"def function_{n}():\n    pass\n")
    index = index_workspace(Workspace(tmp_path), limit=3)
    assert [f.rel for f in index.files] == ["m0.py", "m1.py", "m2.py"]
    assert index.cut
    shown = repo_map(index, [], "", 2000)
    assert "# only the first 3 outlinable files were ranked" in shown.text
    assert "m3.py" not in shown.text


def test_a_plain_word_of_the_task_does_not_jump_the_queue(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text("from lib import parse_config\nparse_config()\n")
    (tmp_path / "lib.py").write_text("def parse_config():\n    pass\n")
    (tmp_path / "words.py").write_text("def help():\n    pass\n\ndef wrapping():\n    pass\n")
    workspace = Workspace(tmp_path)
    index = index_workspace(workspace)
    ticked = packed(workspace, "app.py")
    assert file_order(index, ticked, "Fix the help wrapping")[0] == "lib.py"
    assert file_order(index, ticked, "Fix `help` so it wraps")[0] == "words.py"
    assert file_order(index, ticked, "Fix help() so it wraps")[0] == "words.py"
