"""The shape every action is declared in, and what running one produces.

An action is declared once, as an ``ActionSpec``: its name, its class (read or write),
its fields (a ``fields.Fields`` class), a one-line description and its executor. The validator,
the served interface spec and the docs all read from these declarations.

Executors are plain functions ``(ActionContext, Fields) -> Outcome | Reveal | Plan``:
- a read returns an ``Outcome`` at once, or a ``Reveal`` when what it read needs the
  user's consent before it may leave the machine (secret-looking files);
- a write returns a ``Plan``: the file changes it wants and the outcome to report if
  the user approves. Nothing touches disk until the applier runs the approved plans.
Failures are raised as ``OperatorError``.
"""

from __future__ import annotations

import enum
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from ..outcome import Outcome

if TYPE_CHECKING:
    from ..changes import ChangeSet  # loaded by the actions that plan writes

    class FieldValues(Protocol):
        """A command's field values: a fields model, or the values a quick check made."""

        def model_dump(self) -> dict[str, Any]: ...

    from ..store.checks import Check
    from ..store.workspace import Workspace
    from .fields import Fields


class Kind(enum.Enum):
    READ = "read"
    WRITE = "write"


class Secrecy(enum.Enum):
    """What an action can reveal of a secret-looking file it is pointed at.

    CONTENT: what it answers depends on the file's bytes, so the session asks the user
    before it runs (reads, structure and region reads) or is planned (every edit).
    NAMES: it shows names, sizes and times only (fs.list, fs.stat): nothing to ask.
    PER_FILE: it walks folders and passes over secret-looking files unread (fs.searchTree);
    its failures are still guarded like CONTENT.
    """

    CONTENT = "content"
    NAMES = "names"
    PER_FILE = "per-file"


@dataclass(frozen=True)
class Reveal:
    """A read whose result needs consent: ``approved`` if the user agrees, else ``rejected``.

    ``rejected`` None means a refusal is reported as a rejected command.
    """

    approved: Outcome
    paths: tuple[str, ...]
    reason: str
    rejected: Outcome | None = None
    # What the person is shown of the file before deciding (its size and first lines,
    # already rendered; store.secret_preview): for their eyes only, never in an answer.
    preview: tuple[str, ...] = ()
    # Not a file to reveal but a process to run once approved (run.command): ``reason``
    # says what will run, where and for how long.
    runs: bool = False


@dataclass(frozen=True)
class Plan:
    """A write-class command, planned: the changes and the outcome reported once applied."""

    changes: ChangeSet
    outcome: Outcome
    notes: tuple[str, ...] = ()


Result = Outcome | Reveal | Plan


class FileSource:
    """How executors read files: the bytes as this message's earlier approved-pending
    writes would leave them (so two edits of one file in one reply build on each other)."""

    def read(self, rel: str) -> bytes | None:  # pragma: no cover - interface
        raise NotImplementedError

    def plans_folder(self, rel: str) -> bool:
        """Whether earlier writes of this reply create files inside folder ``rel``."""
        return False


class OutlineMemo(Protocol):
    """Outlines kept beyond one process, by ``actions.outline.outline_key`` (a seam: the
    session gives one kept in the workspace's state store; None keeps nothing)."""

    def get(self, key: str) -> tuple[list[str], str] | None: ...

    def put(self, key: str, made: tuple[list[str], str]) -> None: ...

    def flush(self) -> None: ...


@dataclass
class ActionContext:
    """What an executor is given: the workspace, its files as this message's earlier writes
    would leave them, and where outlines are kept (None: nowhere)."""

    workspace: Workspace
    files: FileSource
    outlines: OutlineMemo | None = None
    # The workspace's checks (run.check), read from its state store when asked; raises
    # StoreError when they cannot be read. None: the session keeps no store.
    checks: Callable[[], tuple[Check, ...]] | None = None


Executor = Callable[[ActionContext, Any], Result]


@dataclass(frozen=True)
class LazyModel:
    """A fields model named by module and class: importing it waits for use."""

    module: str
    name: str

    def load(self) -> type[Fields]:
        model: type[Fields] = getattr(importlib.import_module(self.module), self.name)
        return model


@dataclass(frozen=True)
class QuickCheck:
    """A check of simple commands without building the fields model (for start-up time).

    ``check`` returns the field values of a command simple enough to decide without the
    model, or None to leave it to the model. ``keys`` are all the keys the model takes,
    aliases included, so the validator can word key errors without loading the model.
    """

    keys: frozenset[str]
    check: Callable[[Mapping[str, str]], FieldValues | None]


@dataclass(frozen=True)
class ActionSpec:
    """An action as declared once: name, class (read or write), fields, executor, description."""

    name: str
    kind: Kind
    model: type[Fields] | LazyModel
    execute: Executor
    description: str
    secrecy: Secrecy = Secrecy.CONTENT
    # Must accept only what ``fields`` accepts, with the same values (a test compares them).
    quick: QuickCheck | None = None
    # An action asked of the person every time, before it runs (run.command): what the
    # review says it will do, from its fields. It runs only once approved.
    review: Callable[[Any], str] | None = None
    # It runs a process (run.command, run.check): it runs in execute, after the reply's
    # writes before it, under the workspace's write lock, never while planning.
    runs: bool = False

    @property
    def fields(self) -> type[Fields]:
        """The model of the action's fields (imported on first use)."""
        return self.model.load() if isinstance(self.model, LazyModel) else self.model

    @property
    def needs_path(self) -> bool:
        return self.name.startswith("fs.")
