"""JSON with comments and a lone top-level member, from zod (tests/data/structure_real,
sources in its README): a member commented out (``// "customizations": {},``) is no
member, so the commas are still fixed after a move; the one member of a file's object is
already at its end and is not moved out of the object."""

from __future__ import annotations

import pytest

from llm_operator.core.engines.structure import move_structure
from llm_operator.core.engines.structure.commas import fix_commas
from llm_operator.core.engines.structure.source import load_source
from llm_operator.core.errors import OperatorError
from support.paths import DATA

REAL = DATA / "structure_real" / "json"


def test_a_commented_out_member_does_not_stop_the_comma_fix() -> None:
    name = "zod-devcontainer-devcontainer.json"
    data = (REAL / name).read_bytes()
    assert fix_commas(data.decode("utf-8")) == data.decode("utf-8")
    moved = move_structure(data, name, ['"name": "Node.js & TypeScript",'], "end", dest_target=[])
    after = moved.new_source.decode("utf-8")
    assert not load_source(moved.new_source, name).errors
    assert not moved.result["warnings"]
    assert '  "postCreateCommand": "pnpm i",\n' in after
    assert '  "name": "Node.js & TypeScript"\n\n  // Configure' in after
    # The comments stay as they were, their commas too.
    assert '  // "customizations": {},\n' in after


def test_the_only_member_of_the_files_object_is_already_at_its_end() -> None:
    name = "zod-.mcp.json"
    data = (REAL / name).read_bytes()
    with pytest.raises(OperatorError) as caught:
        move_structure(data, name, ['"mcpServers": {'], "end", dest_target=[])
    assert caught.value.code == "ERR_INVALID_POSITION"
    assert "already at its end" in str(caught.value)
