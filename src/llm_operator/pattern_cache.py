"""The regular expressions written in the program's own source, compiled once per
installation and Python version instead of at every start of the command line.

A short ``exec`` run compiles a few dozen patterns (the standard library's and ours, most
of them while modules load), and parsing each into the regex engine's code is a good part
of its start-up (about 8 ms of a structure edit). ``install`` gives ``re``'s compiler a
step that looks the pattern up in a table of that code first and hands it to the engine
(``_sre.compile``), as ``re`` itself would after parsing. The table is kept beside the
package's bytecode (``__pycache__``, one file per interpreter cache tag, bytecode magic
number, regex engine version and optimization level) and written back at exit when a run
compiled a new pattern, as ``method_cache`` keeps the dataclass methods: never under
``PYTHONDONTWRITEBYTECODE``, and silently not where the folder cannot be written.

Only what the program itself writes is kept: a pattern that is a literal of the code that
compiles it (a constant of its code object, such as ``re.compile(r"...")`` in a module or
a function), and a pattern built while the run sets itself up, before anything of a reply
or a file is read (``literals_only`` marks that moment: the secret-looking file patterns
of the settings are joined into one pattern then). A pattern built afterwards (from a
reply, a file, a glob) is compiled as usual and never written anywhere.

The engine checks the code it is given as it checks any compiled pattern; a table that
cannot be read, or holds anything but the expected values, is ignored as a whole, and an
entry the engine refuses is compiled afresh.
"""

from __future__ import annotations

import atexit
import re
import sys
import types
from typing import Any

from . import kept_tables

MAX_ENTRIES = 2000  # past this, the table keeps only what the last run used
MAX_PATTERN = 4096  # characters: a longer pattern is compiled as usual, never kept
_RE_MODULES = frozenset({"re", "re._compiler", "sre_compile"})

# (pattern, flags) -> what the engine takes after the pattern: (flags, code, groups,
# groupindex, indexgroup), as re's compiler passes them to _sre.compile.
Entry = tuple[int, list[int], int, dict[str, int], tuple[str | None, ...]]
Table = dict[tuple[str | bytes, int], Entry]
_installed: list[_Patterns] = []


def _compiler() -> types.ModuleType | None:
    """The module whose ``compile`` turns a pattern into the engine's code."""
    return getattr(re, "_compiler", None) or sys.modules.get("sre_compile")


def table_path() -> str | None:
    """Where this interpreter's table is kept (None: no bytecode cache tag)."""
    import _sre  # type: ignore[import-not-found]  # re's engine: no stubs

    # The engine's code changes with its version (MAGIC) and code unit size.
    return kept_tables.table_path("regex-code", f".sre{_sre.MAGIC}.{_sre.CODESIZE}")


def _is_entry(key: object, value: object) -> bool:
    if not (isinstance(key, tuple) and len(key) == 2):
        return False
    pattern, flags = key
    if not (isinstance(pattern, (str, bytes)) and type(flags) is int):
        return False
    if not (isinstance(value, tuple) and len(value) == 5):
        return False
    final, code, groups, groupindex, indexgroup = value
    return (
        type(final) is int
        and isinstance(code, list)
        and all(type(unit) is int for unit in code)
        and type(groups) is int
        and isinstance(groupindex, dict)
        and all(isinstance(k, str) and type(v) is int for k, v in groupindex.items())
        and isinstance(indexgroup, tuple)
        and all(name is None or isinstance(name, str) for name in indexgroup)
    )


def _read(path: str) -> Table:
    table = kept_tables.load_table(path)
    if not isinstance(table, dict) or not all(_is_entry(k, v) for k, v in table.items()):
        return {}
    return table


class _Engine:
    """Stands in for the ``_sre`` module inside re's compiler: passes everything through,
    and notes what ``compile`` was given, so that a pattern compiled afresh can be kept."""

    def __init__(self, real: types.ModuleType) -> None:
        self.real = real
        self.given: list[tuple[Any, ...]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)

    def compile(self, *args: Any) -> Any:
        self.given.append(args)
        return self.real.compile(*args)


class _Patterns:
    def __init__(self, path: str, compiler: types.ModuleType) -> None:
        self.path = path
        self.table = _read(path)
        self.used: set[tuple[str | bytes, int]] = set()
        self.compiled = False
        self.built_too = True  # until literals_only()
        self.original = compiler.compile
        # Module attributes set through the module's namespace: neither has stubs.
        self.engine = _Engine(vars(compiler)["_sre"])
        vars(compiler)["_sre"] = self.engine

    def compile(self, pattern: Any, flags: int = 0) -> Any:
        """re's compiler step, with the parsed code of a literal pattern looked up first."""
        if not _keepable(pattern, flags, self.built_too):
            return self.original(pattern, flags)
        key = (pattern, flags)
        entry = self.table.get(key)
        if entry is not None:
            try:
                compiled = self.engine.real.compile(pattern, *entry)
            except (RuntimeError, TypeError, ValueError, OverflowError):
                del self.table[key]  # refused by the engine: made again below
            else:
                self.used.add(key)
                return compiled
        del self.engine.given[:]
        compiled = self.original(pattern, flags)
        if len(self.engine.given) == 1:
            given = self.engine.given[0]
            if len(given) == 6 and given[0] is pattern:
                # The code's opcodes are named int constants: kept as the plain ints they are.
                _, final, code, groups, groupindex, indexgroup = given
                self.table[key] = (
                    int(final),
                    [int(unit) for unit in code],
                    int(groups),
                    dict(groupindex),
                    tuple(indexgroup),
                )
                self.used.add(key)
                self.compiled = True
        del self.engine.given[:]
        return compiled

    def save(self) -> None:
        """Write the table back if this run compiled a new pattern (never on any error)."""
        if self.compiled:
            kept_tables.save_table(self.path, self.table, self.used, MAX_ENTRIES)


def _keepable(pattern: object, flags: int, built_too: bool) -> bool:
    """Whether ``pattern`` may be kept: a literal of the code that asked ``re`` to compile
    it, or (``built_too``, while the run sets itself up) any pattern."""
    if not isinstance(pattern, (str, bytes)) or len(pattern) > MAX_PATTERN:
        return False
    if flags & re.DEBUG:
        return False  # the compiler prints the code: let it
    if built_too:
        return True
    frame: types.FrameType | None = sys._getframe(2)  # past this step and re's _compile
    while frame is not None and frame.f_globals.get("__name__") in _RE_MODULES:
        frame = frame.f_back  # re.compile, re.match, re.sub...
    if frame is None:
        return False
    return pattern in frame.f_code.co_consts


def install() -> None:
    """Use the table for every literal pattern compiled from now on in this process (once).

    For the short runs of the command line only (``exec``, ``undo``): it replaces a step of
    ``re``'s compiler for the whole process."""
    path = table_path()
    compiler = _compiler()
    if _installed or path is None or compiler is None:
        return
    patterns = _Patterns(path, compiler)
    _installed.append(patterns)
    vars(compiler)["compile"] = patterns.compile
    atexit.register(patterns.save)


def literals_only() -> None:
    """From now on keep only literal patterns: call it before anything of a reply, a file or
    the store is read."""
    for patterns in _installed:
        patterns.built_too = False
