"""Parsing off the main thread: the text goes to tree-sitter in pieces through a read
callback that lets other threads run (the window's thread stays responsive), and each
thread has parsers of its own. The trees must be exactly those of a plain parse, also
when a piece ends inside a multi-byte character, and two threads parsing at once with
one grammar must each get their own file's tree."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from llm_operator.core.engines.structure import source
from llm_operator.core.engines.structure.languages import language_for_path
from llm_operator.core.engines.structure.source import YIELD_CHUNK, parse, parser_for
from support.examples import everyday_share
from support.paths import ROOT

REAL = ROOT / "tests" / "data" / "structure_real"


def _in_thread(call: Callable[[], str]) -> str:
    out: list[str] = []
    worker = threading.Thread(target=lambda: out.append(call()))
    worker.start()
    worker.join(120)
    (text,) = out
    return text


def _plain(language: str, data: bytes) -> str:
    return str(parser_for(language).parse(data).root_node)


def _big_real_files() -> list[Path]:
    """Real files, repeated until each is several pieces long."""
    files = sorted(p for p in REAL.rglob("*") if p.is_file() and language_for_path(p.name))
    assert len(files) >= 20
    return files


@pytest.mark.parametrize(
    "path", everyday_share(_big_real_files(), lambda p: p.name, group=lambda p: p.suffix)
)
def test_a_worker_thread_gets_the_tree_of_a_plain_parse(path: Path) -> None:
    language = language_for_path(path.name)
    assert language is not None
    data = path.read_bytes()
    data = data * (1 + 3 * YIELD_CHUNK // max(len(data), 1))
    assert len(data) > 3 * YIELD_CHUNK
    assert _in_thread(lambda: str(parse(language, data).root_node)) == _plain(language, data)


@pytest.mark.parametrize("shift", range(4))
def test_pieces_ending_inside_a_multibyte_character_change_nothing(shift: int) -> None:
    # Four-, three- and two-byte characters, shifted so piece ends fall inside each.
    line = "x" * shift + "name = '\U0001f600 \u20ac \u00e9 \u4e2d\u6587'\n"
    data = ("def f():\n" + "    " + line * 4000).encode("utf-8")
    assert len(data) > 4 * YIELD_CHUNK
    ends = {data[k * YIELD_CHUNK - 1] for k in range(1, len(data) // YIELD_CHUNK)}
    assert any(byte >= 0x80 for byte in ends)  # some piece really ends inside a character
    assert _in_thread(lambda: str(parse("python", data).root_node)) == _plain("python", data)


def test_the_main_thread_parses_in_one_go(monkeypatch: pytest.MonkeyPatch) -> None:
    sleeps: list[None] = []
    real = source.let_others_run
    monkeypatch.setattr(source, "let_others_run", lambda: sleeps.append(real()))
    data = b"x = 1\n" * (2 * YIELD_CHUNK)
    parse("python", data)
    assert sleeps == []  # nothing else to let run in exec or the warmer
    _in_thread(lambda: str(parse("python", data).root_node))
    assert len(sleeps) >= len(data) // YIELD_CHUNK  # a worker lets others run piece by piece


def test_two_threads_parsing_with_one_grammar_get_their_own_trees() -> None:
    first = b"def alpha():\n    return 1\n" * 4000
    second = b"class Beta:\n    x = 2\n" * 4000
    expected = {first: _plain("python", first), second: _plain("python", second)}
    got: dict[bytes, list[str]] = {first: [], second: []}
    start = threading.Barrier(2)

    def work(data: bytes) -> None:
        start.wait()
        for _ in range(5):
            got[data].append(str(parse("python", data).root_node))

    workers = [threading.Thread(target=work, args=(data,)) for data in (first, second)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(120)
    for data, trees in got.items():
        assert trees == [expected[data]] * 5


@pytest.mark.parametrize("in_thread", [False, True], ids=["main", "worker"])
def test_a_nodes_text_is_its_bytes_however_it_is_read_back(in_thread: bool) -> None:
    # tree-sitter reads a node's text back through the parse's read callback, which then
    # hands out short pieces: long nodes and pieces ending inside a character still read
    # back as the very bytes of the file.
    line = "    name = '\U0001f600 \u20ac \u00e9 \u4e2d\u6587' + " + "x" * 300 + "\n"
    data = ("class A:\n" + "".join(f"  def f{n}(self):\n  {line}" for n in range(300))).encode()
    assert len(data) > 4 * YIELD_CHUNK

    def texts() -> str:
        tree = parse("python", data)
        nodes, stack = [], [tree.root_node]
        while stack:
            node = stack.pop()
            nodes.append(node)
            stack += node.children
        wrong = [n for n in nodes if n.text != data[n.start_byte : n.end_byte]]
        return f"{len(nodes)} nodes, {len(wrong)} wrong"

    found = _in_thread(texts) if in_thread else texts()
    assert found.endswith(" 0 wrong")
    assert int(found.split()[0]) > 3000
