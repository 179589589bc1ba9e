"""YAML content keeps its own indentation levels (zustand's dependabot.yml, from
tests/data/structure_real, sources in its README): a mapping inside a list item aligns
with the text after its "- ", so converting 2-space levels to 4 breaks the file; and a
file with no indented line left says nothing about its unit."""

from __future__ import annotations

import textwrap

from llm_operator.core.engines.structure import (
    delete_structure,
    insert_after_structure,
    read_structure,
)
from llm_operator.core.engines.structure.source import load_source
from support.paths import DATA

NAME = "yaml/zustand-github-dependabot.yml"


def test_a_block_put_back_into_a_file_with_no_indented_line_keeps_its_levels() -> None:
    data = (DATA / "structure_real" / NAME).read_bytes()
    text = read_structure(data, NAME, ["updates:"])["matches"][0]["text"]
    emptied = delete_structure(data, NAME, ["updates:"]).new_source
    assert emptied == b"version: 2\n"
    back = insert_after_structure(emptied, NAME, ["version: 2"], textwrap.dedent(text))
    assert not load_source(back.new_source, NAME).errors
    assert not back.result["warnings"]
    assert back.new_source.decode("utf-8") == "version: 2\n\n" + text + "\n"


def test_two_space_content_in_a_four_space_file_is_not_converted() -> None:
    data = b"a:\n    b: 1\n    c:\n        - x: 1\n          y: 2\n"
    content = "d:\n  - p: 1\n    q: 2\n"
    done = insert_after_structure(data, "x.yml", ["a:", "b: 1"], content).new_source
    assert not load_source(done, "x.yml").errors
    assert b"    b: 1\n    d:\n      - p: 1\n        q: 2\n    c:\n" in done
