"""The workspace jail: every path a command names is checked here before any I/O.

Invariants:
- A command path is relative, ``/``-separated, and ``.`` is the root (see pathtext).
- Containment is decided by walking the path from a descriptor of the root, one component
  at a time (see fsaccess), never by string prefix: ``/ws-evil`` is not inside ``/ws``.
- A symlink whose target leaves the root, or dangles toward the outside, is refused.
- Writes resolve to the real file, so a write through an inner symlink edits its target
  instead of replacing the link; ``resolve_link`` (for deletes) does not follow the last
  component, so a delete removes a link and never its target.
- ``.git`` (any case) anywhere in the path as written, in a symlink on the way, or in the
  resolved path is protected from writes.
- ``resolve`` returns a name for display and for code outside the store; the store itself
  does its I/O through ``fsaccess`` descriptors, never through that name.
"""

from __future__ import annotations

import fnmatch
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import OperatorError
from .fsaccess import Spot, locate
from .pathtext import check_not_git, check_path_text, outside_error, split_parts

__all__ = ["DEFAULT_SECRET_PATTERNS", "Workspace", "check_path_text", "outside_error"]

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

    def locate(self, path: str, *, follow_last: bool = True) -> Spot:
        """The spot of ``path``, reached by descriptors (close it when done)."""
        return locate(self.root, path, follow_last=follow_last)

    def resolve(self, path: str) -> Path:
        """The absolute name of ``path`` with every symlink on the way resolved."""
        with self.locate(path) as spot:
            return self.root / spot.rel if spot.rel != "." else self.root

    def resolve_link(self, path: str) -> Path:
        """The absolute name of the entry itself: the parent is resolved, the last part is not."""
        with self.locate(path, follow_last=False) as spot:
            return self.root / spot.rel if spot.rel != "." else self.root

    def resolve_for_write(self, path: str) -> Path:
        """Like ``resolve`` but refuses ``.git`` and the root itself."""
        with self.locate(path) as spot:
            self.check_spot_writable(path, spot)
            return self.root / spot.rel if spot.rel != "." else self.root

    def check_spot_writable(self, path: str, spot: Spot) -> None:
        if spot.rel == ".":
            raise OperatorError(
                "ERR_PATH_PROTECTED", "the workspace root itself cannot be written or deleted"
            )
        check_not_git(path, [*spot.trail, *split_parts(spot.rel)])

    def check_writable(self, path: str, real: Path) -> None:
        if real == self.root:
            raise OperatorError(
                "ERR_PATH_PROTECTED", "the workspace root itself cannot be written or deleted"
            )
        check_not_git(path, [*split_parts(check_path_text(path)), *self.relative(real).split("/")])

    def relative(self, real: Path) -> str:
        """The ``/``-separated path of ``real`` relative to the root ('.' for the root)."""
        if real == self.root:
            return "."
        return real.relative_to(self.root).as_posix()

    # -- policy ------------------------------------------------------------------

    def is_secret(self, rel: str) -> bool:
        name = rel.rsplit("/", 1)[-1]
        return self._secret.match(name) is not None
