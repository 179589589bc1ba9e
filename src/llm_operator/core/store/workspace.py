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
_TRASH = re.compile(r"\.Trash(?:-[0-9]+)?\Z")


def is_trash_name(rel: str) -> bool:
    """Whether workspace-relative ``rel`` is or lies in a trash folder at the root
    (``.Trash``, ``.Trash-<uid>``: where a delete on a mount root lands)."""
    return _TRASH.match(rel.split("/", 1)[0]) is not None


# Matched case-insensitively against every component of a path (a pattern with a ``/``
# against that many trailing components): see ``Workspace.is_secret``.
DEFAULT_SECRET_PATTERNS: tuple[str, ...] = (
    ".env",
    ".env.*",
    ".envrc",
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
    ".git/config",
    ".pgpass",
    ".htpasswd",
    ".vault-token",
    ".s3cfg",
    ".aws/credentials",
    ".docker/config.json",
    ".kube/config",
    "credentials.json",
    "client_secret*.json",
    "*.keystore",
    "*.jks",
    "*.kdbx",
    "*.tfstate",
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
    # component count -> one compiled pattern for every secret pattern of that many parts
    _secret: dict[int, re.Pattern[str]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        real = Path(os.path.realpath(self.root))
        if not real.is_dir():
            raise OperatorError("ERR_WORKSPACE_INVALID", f"workspace {self.root} is not a folder")
        object.__setattr__(self, "root", real)
        # One compiled pattern per component count: searchTree asks for every file it meets.
        by_parts: dict[int, list[str]] = {}
        for pattern in self.secret_patterns:
            cleaned = pattern.strip().strip("/")
            if cleaned:
                by_parts.setdefault(cleaned.count("/") + 1, []).append(fnmatch.translate(cleaned))
        compiled = {
            parts: re.compile("|".join(f"(?:{p})" for p in group), re.IGNORECASE)
            for parts, group in by_parts.items()
        }
        object.__setattr__(self, "_secret", compiled)

    # -- resolution --------------------------------------------------------------

    def _contain(self, path: str, real: Path, what: str) -> Path:
        if real != self.root and self.root not in real.parents:
            raise _outside(path, what)
        return real

    def resolve(self, path: str) -> Path:
        """The real absolute path for a command path, following every symlink."""
        cleaned = check_path_text(path)
        real = Path(os.path.realpath(self.root / cleaned))
        self._contain(path, real, "resolves (through a symlink) outside the workspace")
        if real != self.root and is_trash_name(self.relative(real)):
            raise OperatorError(
                "ERR_PATH_PROTECTED",
                f"path {path!r} is in the workspace's trash folder, which is never listed, "
                "searched, read or written",
            )
        return real

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
        """Whether a ``/``-separated path looks secret: some component (or, for a pattern
        with ``/``, some run of that many components) matches a pattern, in any case."""
        parts = [p for p in rel.split("/") if p not in ("", ".")]
        for count, pattern in self._secret.items():
            for end in range(count, len(parts) + 1):
                if pattern.match("/".join(parts[end - count : end])):
                    return True
        return False

    def secret_match(self, path: str) -> str | None:
        """The secret-looking path that ``path`` (as a command writes it) reaches, if any.

        Checked: the path as written, every symlink met on the way (its own path and where
        it leads) and the final target. None when nothing looks secret, or when the path
        cannot be resolved at all (the action then fails on its own, quoting nothing).
        """
        try:
            cleaned = check_path_text(path)
        except OperatorError:
            return None
        if self.is_secret(cleaned):
            return cleaned
        try:
            return self._secret_on_the_way(cleaned)
        except OSError:
            # The path changed while it was being looked at (a link swapped mid-check):
            # treat it as secret, so the user decides rather than a race.
            return cleaned

    def _secret_on_the_way(self, cleaned: str) -> str | None:
        current = self.root
        for part in cleaned.split("/"):
            if part == ".":
                continue
            step = current.parent if part == ".." else current / part
            hops = 0
            # Each link of a chain (notes.txt -> .env -> envs/prod.txt) is checked.
            while os.path.islink(step) and hops < 40:
                hops += 1
                folder = Path(os.path.realpath(step.parent))
                step = Path(os.path.normpath(folder / os.readlink(step)))
                if step != self.root and self.root not in step.parents:
                    return None
                reached = self.relative(step)
                if self.is_secret(reached):
                    return reached
            current = Path(os.path.realpath(step))
        try:
            final = self.relative(self.resolve(cleaned))
        except OperatorError:
            return None
        return final if self.is_secret(final) else None
