"""The text after a Markdown file's front matter, before its first heading (koin's
viewmodel.md, tests/data/structure_real, sources in its README): its range starts at its
text, not at the blank line under the front matter, so replacing it by its own text gives
the file back byte for byte."""

from __future__ import annotations

from llm_operator.core.engines.structure import read_structure, replace_structure
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
