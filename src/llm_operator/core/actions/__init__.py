"""The action table.

Each family module declares its actions once (``ACTIONS: tuple[ActionSpec, ...]``). This
index only maps action names to family modules, so deciding that an action exists costs
no import; a family is imported the first time one of its actions runs.
A test checks that this index and the families' declarations name the same actions.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .base import ActionSpec

RESERVED_ACTIONS = frozenset({"operator.error"})

# name -> family module (under llm_operator.core.actions)
ACTION_FAMILIES: dict[str, str] = {
    "operator.getInterfaceSpec": "operator",
    "operator.getCommentStyle": "operator",
    "fs.list": "read",
    "fs.read": "read",
    "fs.readSlice": "read",
    "fs.search": "read",
    "fs.stat": "read",
    "fs.searchTree": "search_tree",
    "fs.outline": "outline",
    "fs.write": "write",
    "fs.patch": "write",
    "fs.applyEdits": "write",
    "fs.delete": "write",
    "fs.listRegions": "regions",
    "fs.readRegion": "regions",
    "fs.insertRegion": "regions",
    "fs.replaceRegion": "regions",
    "fs.deleteRegion": "regions",
    "fs.readStructure": "structure",
    "fs.replaceStructure": "structure",
    "fs.deleteStructure": "structure",
    "fs.replaceTextInStructure": "structure",
    "fs.replaceAllTextInStructure": "structure",
    "fs.insertBeforeStructure": "structure",
    "fs.insertAfterStructure": "structure",
    "fs.moveStructure": "structure",
    "run.command": "run",
    "run.check": "run",
}

_loaded: dict[str, ActionSpec] = {}


def action_names() -> tuple[str, ...]:
    return tuple(ACTION_FAMILIES)


def get_spec(name: str) -> ActionSpec:
    """The declaration of ``name``; KeyError if there is no such action."""
    spec = _loaded.get(name)
    if spec is None:
        family = ACTION_FAMILIES[name]
        module = importlib.import_module(f"{__name__}.{family}")
        for declared in module.ACTIONS:
            _loaded[declared.name] = declared
        spec = _loaded[name]
    return spec


def all_specs() -> tuple[ActionSpec, ...]:
    return tuple(get_spec(name) for name in ACTION_FAMILIES)


def family_modules() -> tuple[str, ...]:
    return tuple(dict.fromkeys(ACTION_FAMILIES.values()))
