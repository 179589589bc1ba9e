"""Structure operations: read and edit code and documents by named structures.

Pure functions from a file's bytes and the operation's parameters to new bytes and the
result JSON of the structure-operations seed. A target is a list of levels, outermost
first; each level is the start of a structure's definition line (``class UserAuth``,
``def validate(self):``, ``## Install``). Failures raise ``OperatorError`` with an
``ERR_`` code and ``details["state"] == "FILE_UNCHANGED"``.

Importing this package does not import tree-sitter; the first parse does.
"""

from __future__ import annotations

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
