"""Empty Python bodies are found by a walk through the nodes that can hold a block, not by
a tree-sitter query (compiling one is a good part of a structure command's start). The
walk must find every block the query ``(block) @block`` finds: this holds the two to each
other over every compound statement with an empty body, broken code around them, and real
files with their bodies cut out.
"""

from __future__ import annotations

import re
import sysconfig
from collections import Counter
from pathlib import Path

import pytest
from tree_sitter import Node, Query, QueryCursor

import llm_operator
from llm_operator.core.engines.structure import replace_text_in_structure
from llm_operator.core.engines.structure.source import (
    empty_python_blocks,
    grammar_of,
    load_source,
    parse,
    python_blocks,
)
from llm_operator.core.errors import OperatorError

HEADS = [
    "def f():",
    "async def f():",
    "class A:",
    "class A(B, metaclass=M):",
    "if x:",
    "while x:",
    "for a in b:",
    "async for a in b:",
    "with open(p) as h:",
    "async with a as b, c:",
    "try:",
    "@deco\ndef f():",
    "@deco\nclass A:",
]
# Clauses that follow a body: "head:\n    pass\nclause:" leaves the clause's body empty.
CLAUSES = {
    "if x:": ["elif y:", "else:"],
    "for a in b:": ["else:"],
    "while x:": ["else:"],
    "try:": ["except E:", "except E as e:", "except* E:", "except:", "else:", "finally:"],
}
BROKEN = [
    "def f(:\n",
    "def f(:\n    pass\ndef g():\n",
    "x = (\ndef g():\n",
    "class A:\n    def f(self:\n    def g(self):\n",
    "if x\n    pass\nelse:\n",
    "for in:\nwhile:\n",
    "lambda: (\nclass A:\n",
    "match x:\n    case 1:\n    case 2:\n        pass\n",
    "try:\nexcept:\nfinally:\n",
    "def f():\n    return [\n        x for x in y if\n    ]\ndef g():\n",
    "@\ndef f():\n",
    "def f():\n\tif x:\n  \telse:\n",
    "class A:\n    '''doc\n",
    'x = f"""{\ndef g():\n',
    "foo(\nif a:\n",
    "def f():\n    x = {\n    if a:\n",
    "class A:\n    def f(self):\n        return (\n    def g(self):\n",
    ") \nif a:\n",
    "for x in y z:\n",
    "with a as:\n",
    "def f(x) -> :\n",
    "}\ndef f():\n",
    "def f():\n    pass\n  ]\n    def g():\n",
    "@a b\ndef f():\n",
    "try:\n    if a:\n        pass\n        except E:\n",
    # An except clause indented as the try's body: the empty body lands in an ERROR node.
    "try:\n        except E:\n",
    "if a:\n    pass\n    else:\n",
    "def f():\n    yield from\n    if a:\n",
]


def _by_query(root: Node) -> list[Node]:
    query = Query(grammar_of("python"), "(block) @block")
    return list(QueryCursor(query).captures(root).get("block", []))


def _spans(nodes: list[Node]) -> list[tuple[int, int, str]]:
    """Where each block is and what holds it; in order, as the query's order is its own
    (the errors found are sorted by line in the end)."""
    return sorted((n.start_byte, n.end_byte, n.parent.type if n.parent else "") for n in nodes)


def _indented(text: str, levels: int) -> str:
    return "\n".join("    " * levels + line for line in text.split("\n"))


def _snippets() -> list[str]:
    texts: list[str] = []
    for head in HEADS:
        texts += [f"{head}\n", f"{head}\n\nx = 1\n", f"{head}  # note\n", f"{head} pass\n"]
        texts.append(f"def outer():\n    {head.replace(chr(10), chr(10) + '    ')}\n    \n")
        texts.append(
            f"class C:\n    if y:\n        {head.replace(chr(10), chr(10) + '        ')}\n"
        )
        for clause in CLAUSES.get(head, []):
            texts += [f"{head}\n    pass\n{clause}\n", f"{head}\n{clause}\n    pass\n"]
    texts += [
        "match x:\n    case 1:\n",
        "match x:\n    case 1:\n        pass\n    case _:\n",
        "match x:\n",
        "def f(): ...\nclass A: x = 1\n",
        "if a: pass\nelif b: pass\nelse: pass\n",
    ]
    return texts + BROKEN


def _real_files() -> list[str]:
    """The package's own modules and a sample of the standard library."""
    ours = sorted(Path(llm_operator.__file__).parent.rglob("*.py"))
    stdlib = sorted(Path(sysconfig.get_paths()["stdlib"]).glob("*.py"))[::10]
    return [path.read_text("utf-8", errors="replace") for path in [*ours, *stdlib]]


def _hollowed(text: str) -> str:
    """``text`` without the first line of every indented body: bodies of one line go empty."""
    lines = text.split("\n")
    kept = [
        line
        for n, line in enumerate(lines)
        if not (n and re.search(r":\s*(#.*)?$", lines[n - 1]) and line[:1] in " \t")
    ]
    return "\n".join(kept)


def _cut(text: str) -> list[str]:
    """``text`` cut off after a few of its lines that open a body."""
    ends = [m.end() for m in re.finditer(r":[ \t]*\n", text)]
    return [text[:end] for end in ends[:: max(1, len(ends) // 4)]]


@pytest.mark.slow  # one of the slowest: run by .ci/run
def test_the_walk_finds_every_block_the_query_finds() -> None:
    texts = _snippets()
    for real in _real_files():
        texts += [real, _hollowed(real), *_cut(real)]
    empty_parents: Counter[str] = Counter()
    errors = 0
    for text in texts:
        tree = parse("python", text.encode("utf-8"))
        expected = _spans(_by_query(tree.root_node))
        assert _spans(python_blocks(tree.root_node)) == expected, text[:200]
        empty_parents.update(parent for start, end, parent in expected if start == end)
        errors += tree.root_node.has_error
    # The corpus is not idle: empty bodies of every kind, and broken code around them.
    kinds = {
        "function_definition",
        "class_definition",
        "if_statement",
        "elif_clause",
        "else_clause",
        "for_statement",
        "while_statement",
        "try_statement",
        "except_clause",
        "finally_clause",
        "with_statement",
        "case_clause",
        "ERROR",
    }
    assert kinds <= set(empty_parents), empty_parents
    assert errors > 100


def test_empty_bodies_are_named_where_python_would_refuse_them() -> None:
    text = "class A:\n    def f(self):\n\n    def g(self):\n        if x:\n        return 1\n"
    source = load_source(text.encode(), "m.py")
    assert list(empty_python_blocks(source)) == [
        {"line": 2, "column": 1, "kind": "empty block", "snippet": "def f(self):"},
        {"line": 5, "column": 1, "kind": "empty block", "snippet": "if x:"},
    ]
    assert source.errors == tuple(empty_python_blocks(source))


def test_an_edit_that_empties_a_body_is_named_syntax_broken() -> None:
    data = b"def f(x):\n    if x:\n        return 1\n    return 2\n"
    edit = replace_text_in_structure(data, "m.py", ["def f"], "        return 1\n", "")
    [broken] = edit.result["warnings"]
    assert broken["type"] == "SYNTAX_BROKEN"
    assert broken["details"]["errors"] == [
        {"line": 2, "column": 1, "kind": "empty block", "snippet": "if x:"}
    ]


def test_an_empty_body_inside_the_target_refuses_the_edit() -> None:
    data = b"def f(x):\n    if x:\n    return 2\n"
    with pytest.raises(OperatorError) as refused:
        replace_text_in_structure(data, "m.py", ["def f"], "return 2", "return 3")
    assert refused.value.code == "ERR_PARSER_FAILED"
    assert refused.value.details["parse_errors"] == [
        {"line": 2, "column": 1, "kind": "empty block", "snippet": "if x:"}
    ]
