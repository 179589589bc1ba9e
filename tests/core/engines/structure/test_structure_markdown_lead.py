"""The text after a Markdown file's front matter, before its first heading (koin's
viewmodel.md, tests/data/structure_real, sources in its README): its range starts at its
text, not at the blank line under the front matter, so replacing it by its own text gives
the file back byte for byte. Without it, the blank line left under the front matter is no
section of its own."""

from __future__ import annotations

from llm_operator.core.engines.structure import (
    delete_structure,
    outline_structures,
    read_structure,
    replace_structure,
)
from llm_operator.core.engines.structure.source import load_source
from llm_operator.core.engines.structure.targeting import children
from support.paths import DATA

NAME = "markdown/koin-koin-core-viewmodel.md"


def test_the_lead_paragraph_is_read_from_its_text_and_replaced_byte_for_byte() -> None:
    data = (DATA / "structure_real" / NAME).read_bytes()
    (match,) = read_structure(data, NAME, ["Koin provides multiplatform ViewModel"])["matches"]
    assert match["line_range_inclusive"][0] == 5
    assert match["text"].startswith("Koin provides multiplatform ViewModel support")
    assert (
        replace_structure(
            data, NAME, ["Koin provides multiplatform ViewModel"], match["text"]
        ).new_source
        == data
    )


def test_without_its_lead_paragraph_the_file_lists_no_blank_section() -> None:
    data = (DATA / "structure_real" / NAME).read_bytes()
    emptied = delete_structure(data, NAME, ["Koin provides multiplatform ViewModel"]).new_source
    assert emptied.startswith(b"---\ntitle: ViewModel\n---\n\n## Setup\n")
    entries = outline_structures(emptied, NAME, depth=1).entries
    assert [entry.line for entry in entries][:2] == ["## Setup", "## Declaring ViewModels"]
    src = load_source(emptied, NAME)
    assert [kid.first_line for kid in children(src, src.root)][:1] == ["## Setup"]
