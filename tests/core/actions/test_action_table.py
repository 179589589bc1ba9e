"""The action table: the name index and the family modules declare the same actions."""

from __future__ import annotations

import importlib
import pkgutil

import pytest
from pydantic import ValidationError

from llm_operator.core import actions
from llm_operator.core.actions.base import ActionSpec, Kind
from llm_operator.core.actions.fields import Fields

NOT_FAMILIES = {"base", "fields"}


def family_declarations() -> dict[str, str]:
    """action name -> family module, from every module of the package that declares ACTIONS."""
    declared: dict[str, str] = {}
    for info in pkgutil.iter_modules(actions.__path__):
        if info.name in NOT_FAMILIES:
            continue
        module = importlib.import_module(f"{actions.__name__}.{info.name}")
        for spec in getattr(module, "ACTIONS", ()):
            assert isinstance(spec, ActionSpec), f"{info.name}.ACTIONS holds {spec!r}"
            assert spec.name not in declared, f"{spec.name} is declared twice"
            declared[spec.name] = info.name
    return declared


def test_index_and_family_declarations_match() -> None:
    declared = family_declarations()
    assert declared == actions.ACTION_FAMILIES


def test_every_family_is_a_module_that_declares_actions() -> None:
    for family in actions.family_modules():
        module = importlib.import_module(f"{actions.__name__}.{family}")
        names = {spec.name for spec in module.ACTIONS}
        assert names == {n for n, f in actions.ACTION_FAMILIES.items() if f == family}


@pytest.mark.parametrize("name", actions.action_names())
def test_every_action_forbids_extra_keys(name: str) -> None:
    spec = actions.get_spec(name)
    assert spec.name == name
    assert issubclass(spec.fields, Fields)
    with pytest.raises(ValidationError) as refused:
        spec.fields.model_validate({"path": "x", "surely_not_a_field": "1"})
    assert {"loc": ("surely_not_a_field",), "type": "extra_forbidden"}.items() <= (
        refused.value.errors()[-1].items()
    )


@pytest.mark.parametrize("name", actions.action_names())
def test_declarations_are_complete(name: str) -> None:
    spec = actions.get_spec(name)
    assert spec.description.strip()
    assert callable(spec.execute)
    assert spec.needs_path == name.startswith("fs.")
    assert ("path" in spec.fields.model_fields) == spec.needs_path


def test_spec_read_actions_are_read_class() -> None:
    reads = {
        "fs.list",
        "fs.read",
        "fs.readSlice",
        "fs.search",
        "fs.stat",
        "fs.searchTree",
        "operator.getInterfaceSpec",
        "operator.getCommentStyle",
    }
    writes = {"fs.write", "fs.patch", "fs.applyEdits", "fs.delete"}
    assert reads | writes <= set(actions.action_names())
    for name in reads:
        assert actions.get_spec(name).kind is Kind.READ
    for name in writes:
        assert actions.get_spec(name).kind is Kind.WRITE


def test_reserved_actions_are_not_in_the_table() -> None:
    assert "operator.error" in actions.RESERVED_ACTIONS
    assert not actions.RESERVED_ACTIONS & set(actions.action_names())
    with pytest.raises(KeyError):
        actions.get_spec("operator.error")
