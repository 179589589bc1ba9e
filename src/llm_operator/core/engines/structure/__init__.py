"""Structure operations: read and edit code and documents by named structures.

Pure functions from a file's bytes and the operation's parameters to new bytes and the
result JSON of the structure-operations seed. A target is a list of levels, outermost
first; each level is the start of a structure's definition line (``class UserAuth``,
``def validate(self):``, ``## Install``). Failures raise ``OperatorError`` with an
``ERR_`` code and ``details["state"] == "FILE_UNCHANGED"``.

Importing this package does not import tree-sitter; the first parse does.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .languages import SUPPORTED_LANGUAGES, language_for_path
    from .moving import POSITIONS, move_structure
    from .operations import (
        delete_structure,
        insert_after_structure,
        insert_before_structure,
        read_structure,
        replace_all_text_in_structure,
        replace_structure,
        replace_text_in_structure,
    )
    from .outline import FileOutline, OutlineEntry, outline_structures
    from .reports import StructureEdit, StructureMove
    from .source import MAX_CONTENT_BYTES, MAX_FILE_BYTES
    from .targeting import Target, symbol_target

# Each name is imported from its module when first asked for: an outline does not load
# the editing and moving code, nor an edit the outline's.
_HOMES = {
    "SUPPORTED_LANGUAGES": "languages",
    "language_for_path": "languages",
    "POSITIONS": "moving",
    "move_structure": "moving",
    "delete_structure": "operations",
    "insert_after_structure": "operations",
    "insert_before_structure": "operations",
    "read_structure": "operations",
    "replace_all_text_in_structure": "operations",
    "replace_structure": "operations",
    "replace_text_in_structure": "operations",
    "FileOutline": "outline",
    "OutlineEntry": "outline",
    "outline_structures": "outline",
    "StructureEdit": "reports",
    "StructureMove": "reports",
    "MAX_CONTENT_BYTES": "source",
    "MAX_FILE_BYTES": "source",
    "Target": "targeting",
    "symbol_target": "targeting",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = f"{__name__}.{home}"
    __import__(module)  # as an import statement does (-X importtime lists it)
    value = getattr(sys.modules[module], name)
    globals()[name] = value
    return value


__all__ = [
    "MAX_CONTENT_BYTES",
    "MAX_FILE_BYTES",
    "POSITIONS",
    "SUPPORTED_LANGUAGES",
    "FileOutline",
    "OutlineEntry",
    "StructureEdit",
    "StructureMove",
    "Target",
    "delete_structure",
    "insert_after_structure",
    "insert_before_structure",
    "language_for_path",
    "move_structure",
    "outline_structures",
    "read_structure",
    "replace_all_text_in_structure",
    "replace_structure",
    "replace_text_in_structure",
    "symbol_target",
]
