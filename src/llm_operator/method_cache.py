"""The methods ``dataclasses`` writes for each class, compiled once per installation and
Python version instead of at every start of the command line.

``@dataclass`` writes each class's ``__init__``, ``__repr__``, ``__eq__``... as source text
and compiles it while the class is created. A short ``exec`` run creates dozens of such
classes, and those compilations are a good part of its start-up. ``install`` gives the
``dataclasses`` module an ``exec`` that looks the text up in a table of code objects
first. The table is kept beside the package's bytecode (``__pycache__``, one file per
interpreter cache tag, bytecode magic number and optimization level) and written back at
exit when a run compiled new text, the way Python keeps ``.pyc`` files: never under
``PYTHONDONTWRITEBYTECODE``, and silently not where the folder cannot be written.

A code object is found by the exact text it was compiled from (with the same name and
flags as ``exec`` would use), so it is the very code ``exec`` would have made; a table that
cannot be read, or holds anything but text and code, is ignored as a whole.
"""

from __future__ import annotations

import atexit
import builtins
import dataclasses
import types
from typing import Any

from . import kept_tables

MAX_ENTRIES = 4000  # past this, the table keeps only what the last run used
_installed: list[_Methods] = []


def table_path() -> str | None:
    """Where this interpreter's table is kept (None: no bytecode cache tag)."""
    return kept_tables.table_path("dataclass-methods")


def _read(path: str) -> dict[str, types.CodeType]:
    table = kept_tables.load_table(path)
    if not isinstance(table, dict) or not all(
        isinstance(text, str) and isinstance(code, types.CodeType) for text, code in table.items()
    ):
        return {}
    return table


class _Methods:
    def __init__(self, path: str) -> None:
        self.path = path
        self.codes = _read(path)
        self.used: set[str] = set()
        self.compiled = False

    def exec(self, source: Any, globals: Any = None, locals: Any = None) -> None:
        """``exec`` as ``dataclasses`` calls it, with compiled text looked up first."""
        if globals is None:  # as exec would: the caller's globals, the dataclasses module's
            globals = vars(dataclasses)
        if isinstance(source, str):
            code = self.codes.get(source)
            if code is None:
                code = compile(source, "<string>", "exec", dont_inherit=True)
                self.codes[source] = code
                self.compiled = True
            self.used.add(source)
            source = code
        builtins.exec(source, globals, locals)

    def save(self) -> None:
        """Write the table back if this run compiled new text (never on any error)."""
        if self.compiled:
            kept_tables.save_table(self.path, self.codes, self.used, MAX_ENTRIES)


def install() -> None:
    """Use the table for every dataclass created from now on in this process (once)."""
    path = table_path()
    if _installed or path is None:
        return
    methods = _Methods(path)
    _installed.append(methods)
    dataclasses.exec = methods.exec  # type: ignore[attr-defined]  # shadows the builtin
    atexit.register(methods.save)
