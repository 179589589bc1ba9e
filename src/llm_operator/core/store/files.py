"""Reading workspace files for actions: existence, kind and size checks with clear errors."""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass
from pathlib import Path

from ..errors import OperatorError
from .workspace import Workspace


@dataclass(frozen=True)
class FoundFile:
    rel: str  # canonical workspace-relative path of the real file
    real: Path
    size: int


def not_found(workspace: Workspace, path: str) -> OperatorError:
    """ERR_FILE_NOT_FOUND, naming the nearest existing names so the LLM can correct it."""
    parent_text, _, name = path.strip("/").rpartition("/")
    try:
        parent = workspace.resolve(parent_text or ".")
        names = sorted(os.listdir(parent)) if parent.is_dir() else []
    except OperatorError:
        names = []
    except OSError:
        names = []
    if not names and parent_text:
        return OperatorError(
            "ERR_FILE_NOT_FOUND",
            f"nothing at {path!r}: the folder {parent_text!r} does not exist either; "
            "use fs.list or fs.searchTree to find the right path",
        )
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.5)
    prefix = f"{parent_text}/" if parent_text else ""
    hint = (
        "; did you mean " + " or ".join(repr(prefix + c) for c in close) + "?"
        if close
        else "; use fs.list on its folder to see what is there"
    )
    return OperatorError("ERR_FILE_NOT_FOUND", f"nothing at {path!r}{hint}")


def find_file(workspace: Workspace, path: str) -> FoundFile:
    """The regular file at ``path`` (symlinks inside the workspace followed)."""
    real = workspace.resolve(path)
    try:
        info = real.stat()
    except FileNotFoundError:
        raise not_found(workspace, path) from None
    except OSError as exc:
        raise OperatorError("ERR_READ_FAILED", f"cannot open {path!r}: {exc.strerror}") from None
    if real.is_dir():
        raise OperatorError(
            "ERR_IS_A_DIRECTORY",
            f"{path!r} is a folder; use fs.list to see its entries or fs.searchTree to search it",
        )
    if not real.is_file():
        raise OperatorError("ERR_NOT_A_FILE", f"{path!r} is not a regular file")
    return FoundFile(workspace.relative(real), real, info.st_size)


def find_dir(workspace: Workspace, path: str) -> tuple[str, Path]:
    real = workspace.resolve(path)
    if not real.exists():
        raise not_found(workspace, path)
    if not real.is_dir():
        raise OperatorError(
            "ERR_NOT_A_DIRECTORY", f"{path!r} is a file; use fs.read or fs.readSlice to read it"
        )
    return workspace.relative(real), real


def read_bytes(found: FoundFile) -> bytes:
    try:
        return found.real.read_bytes()
    except OSError as exc:
        raise OperatorError(
            "ERR_READ_FAILED", f"cannot read {found.rel!r}: {exc.strerror}"
        ) from None


def read_text(found: FoundFile) -> tuple[str, str]:
    """(text with LF line breaks and no BOM, a short note on the file's encoding style)."""
    from ..engines.textfile import TextFile

    decoded = TextFile.decode(read_bytes(found), found.rel)
    notes = []
    if decoded.newline == "\r\n":
        notes.append("CRLF line endings")
    elif decoded.mixed_newlines:
        notes.append("mixed line endings")
    if decoded.bom:
        notes.append("UTF-8 BOM")
    return decoded.text, ", ".join(notes)


def line_count(text: str) -> int:
    if not text:
        return 0
    return text.count("\n") + (0 if text.endswith("\n") else 1)
