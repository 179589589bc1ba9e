"""The served interface spec and docs/actions.md are checked against the action table."""

from __future__ import annotations

import re

import pytest

from llm_operator.core import actions
from llm_operator.core.actions.operator import interface_spec
from llm_operator.core.actions.reference import render_reference
from support.paths import ROOT

# Lines of the spec that open an action's section: the action name alone on its line.
HEADING = re.compile(r"^((?:fs|operator|run)\.[A-Za-z]+)$", re.MULTILINE)


def spec_sections() -> dict[str, str]:
    text = interface_spec()
    found = list(HEADING.finditer(text))
    sections: dict[str, str] = {}
    for number, match in enumerate(found):
        end = found[number + 1].start() if number + 1 < len(found) else len(text)
        sections[match.group(1)] = text[match.end() : end]
    return sections


def test_docs_actions_md_is_rendered_from_the_table() -> None:
    on_disk = (ROOT / "docs" / "actions.md").read_text("utf-8")
    assert on_disk == render_reference(), (
        "docs/actions.md is out of date: python -m llm_operator.core.actions.reference "
        "> docs/actions.md"
    )


def test_the_spec_has_a_section_for_every_action_and_no_other() -> None:
    served = set(spec_sections()) - {"operator.error"}  # reserved: described, never run
    assert served == set(actions.action_names())


@pytest.mark.parametrize("name", actions.action_names())
def test_the_spec_names_every_field_of_an_action(name: str) -> None:
    section = spec_sections()[name]
    spec = actions.get_spec(name)
    fields = set(spec.fields.model_fields) | set(getattr(spec.fields, "ALIASES", {}))
    missing = sorted(f for f in fields if not re.search(rf"\b{re.escape(f)}\b", section))
    assert not missing, f"the spec's {name} section does not mention {missing}"


@pytest.mark.parametrize("name", actions.action_names())
def test_the_spec_says_which_actions_need_approval(name: str) -> None:
    section = spec_sections()[name]
    writes = actions.get_spec(name).kind is actions.get_spec(name).kind.WRITE
    assert ("Requires user confirmation" in section) == writes


def test_the_spec_is_plain_ascii() -> None:
    assert interface_spec().isascii()
