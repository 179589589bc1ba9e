"""The workspace jail: every path a command names is checked here before any I/O.

Invariants:
- A command path is relative, ``/``-separated, and ``.`` is the root. Absolute paths,
  drive letters, ``~``, backslashes and NUL are refused before the disk is touched.
- Containment is decided on real paths (symlinks followed), component by component,
  never by string prefix: ``/ws-evil`` is not inside ``/ws``.
- A symlink whose target leaves the root, or dangles toward the outside, is refused.
- Writes resolve to the real file, so a write through an inner symlink edits its target
  instead of replacing the link; ``resolve_link`` (for deletes) does not follow the last
  component, so a delete removes a link and never its target.
- ``.git`` anywhere in the real relative path is protected from writes.
"""

from __future__ import annotations

import fnmatch
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import OperatorError

_DRIVE = re.compile(r"^[A-Za-z]:")

DEFAULT_SECRET_PATTERNS: tuple[str, ...] = (
    ".env",
    ".env.*",
    "*.pem",
    "*.key",
    "*.p12",
    "*.pfx",
    "id_rsa*",
    "id_dsa*",
    "id_ecdsa*",
    "id_ed25519*",
    ".netrc",
    ".pypirc",
    ".npmrc",
    ".git-credentials",
    "credentials.json",
    "*.keystore",
    "secrets.*",
)


def _outside(path: str, why: str) -> OperatorError:
    return OperatorError(
        "ERR_PATH_OUTSIDE_WORKSPACE",
        f"path {path!r} {why}; use a path relative to the workspace root, such as src/main.py "
        "(. is the root)",
    )


def check_path_text(path: str) -> str:
    """Refuse path spellings that can never be inside the workspace; return the cleaned text."""
    if "\x00" in path:
        raise _outside(path, "contains a NUL byte")
    if path.startswith(("/", "\\")) or _DRIVE.match(path):
        raise _outside(path, "is absolute")
    if path.startswith("~"):
        raise _outside(path, "starts with ~ (home folders are outside the workspace)")
    if "\\" in path:
        raise OperatorError(
            "ERR_INVALID_PATH",
            f"path {path!r} contains a backslash; separate folders with /",
        )
    parts = [p for p in path.split("/") if p not in ("", ".")]
    depth = 0
    for part in parts:
        depth = depth - 1 if part == ".." else depth + 1
        if depth < 0:
            raise _outside(path, "climbs above the workspace root with ..")
    return "/".join(parts) or "."


@dataclass(frozen=True)
class Workspace:
    """A workspace root and the rules for reaching files under it."""

    root: Path
    secret_patterns: tuple[str, ...] = field(default=DEFAULT_SECRET_PATTERNS)
    _secret: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        real = Path(os.path.realpath(self.root))
        if not real.is_dir():
            raise OperatorError("ERR_WORKSPACE_INVALID", f"workspace {self.root} is not a folder")
        object.__setattr__(self, "root", real)
        # One compiled pattern: searchTree asks this for every file it meets.
        joined = "|".join(f"(?:{fnmatch.translate(p)})" for p in self.secret_patterns)
        object.__setattr__(self, "_secret", re.compile(joined or r"(?!)"))

    # -- resolution --------------------------------------------------------------

    def _contain(self, path: str, real: Path, what: str) -> Path:
        if real != self.root and self.root not in real.parents:
            raise _outside(path, what)
        return real

    def resolve(self, path: str) -> Path:
        """The real absolute path for a command path, following every symlink."""
        cleaned = check_path_text(path)
        real = Path(os.path.realpath(self.root / cleaned))
        return self._contain(path, real, "resolves (through a symlink) outside the workspace")

    def resolve_link(self, path: str) -> Path:
        """The absolute path of the entry itself: the parent is resolved, the last part is not."""
        cleaned = check_path_text(path)
        if cleaned == ".":
            return self.root
        parent, _, name = cleaned.rpartition("/")
        if name == "..":
            return self.resolve(path)
        real_parent = self.resolve(parent or ".")
        return real_parent / name

    def resolve_for_write(self, path: str) -> Path:
        """Like ``resolve`` but refuses ``.git`` and the root itself."""
        real = self.resolve(path)
        self.check_writable(path, real)
        return real

    def check_writable(self, path: str, real: Path) -> None:
        if real == self.root:
            raise OperatorError(
                "ERR_PATH_PROTECTED", "the workspace root itself cannot be written or deleted"
            )
        if any(part.casefold() == ".git" for part in self.relative(real).split("/")):
            raise OperatorError(
                "ERR_PATH_PROTECTED",
                f"path {path!r} is inside .git/, which is protected from writes and deletes",
            )

    def relative(self, real: Path) -> str:
        """The ``/``-separated path of ``real`` relative to the root ('.' for the root)."""
        if real == self.root:
            return "."
        return real.relative_to(self.root).as_posix()

    # -- policy ------------------------------------------------------------------

    def is_secret(self, rel: str) -> bool:
        name = rel.rsplit("/", 1)[-1]
        return self._secret.match(name) is not None
