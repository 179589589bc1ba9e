"""A fields class reads its own annotations without ``typing.get_type_hints`` (which
evaluates every base class's again for each class made): for every fields class of every
action, the hints and the fields are those get_type_hints gives."""

from __future__ import annotations

import inspect
import typing
from typing import ClassVar

import pytest

from llm_operator.core import actions
from llm_operator.core.actions.fields import Count, FieldsModel, PathFields, own_hints

Shadowed = str  # a module name that a class attribute of the same name does not replace


def _every_fields_class() -> list[type[FieldsModel]]:
    actions.all_specs()  # every family imported, so every fields class exists
    found: list[type[FieldsModel]] = []
    todo = [FieldsModel]
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo += cls.__subclasses__()
    return found


def _by_get_type_hints(cls: type) -> dict[str, object]:
    hints = typing.get_type_hints(cls, include_extras=True)
    return {name: hints[name] for name in inspect.get_annotations(cls)}


def test_every_fields_class_is_found() -> None:
    classes = _every_fields_class()
    assert {spec.fields for spec in actions.all_specs()} <= set(classes)
    assert len(classes) > 20


@pytest.mark.parametrize("cls", _every_fields_class(), ids=lambda cls: cls.__qualname__)
def test_own_hints_are_the_type_hints(cls: type[FieldsModel]) -> None:
    assert own_hints(cls) == _by_get_type_hints(cls)


def test_names_resolve_as_get_type_hints_resolves_them() -> None:
    class Odd(PathFields):
        # get_type_hints looks in the module first, so a field annotated Shadowed is a str
        # field (an int field would be refused: no parser for it).
        Shadowed = int
        count: Count | None = None
        name: Shadowed | None = None
        LIMITS: ClassVar[dict[str, int]] = {}

    hints = own_hints(Odd)
    assert hints == _by_get_type_hints(Odd)
    assert hints["name"] == str | None
    assert set(Odd.model_fields) == {"path", "count", "name"}
    assert Odd.model_validate({"path": "a", "name": "b"}).model_dump()["name"] == "b"
    for unsupported in ("list[int]", "typing.Annotated[str, 'note']", "int"):
        with pytest.raises(TypeError, match="unsupported field type"):
            type("Bad", (Odd,), {"__annotations__": {"other": unsupported}})
