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
- The app's own state folder (``app_state``, when it lies inside the root) is never
  listed, searched, read or written, nor is a folder above it written, moved or deleted.
- ``resolve`` returns a name for display and for code outside the store; the store itself
  does its I/O through ``fsaccess`` descriptors, never through that name.
"""

from __future__ import annotations

import fnmatch
import itertools
import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..errors import OperatorError
from .copy_names import originals
from .fsaccess import Spot, locate
from .pathtext import (
    check_not_git,
    check_path_text,
    outside_error,
    protected_error,
    split_parts,
)

__all__ = [
    "DEFAULT_SECRET_ENVIRONMENT",
    "DEFAULT_SECRET_PATTERNS",
    "Workspace",
    "check_path_text",
    "outside_error",
]

_TRASH = re.compile(r"\.Trash(?:-[0-9]+)?\Z")


def is_trash_name(rel: str) -> bool:
    """Whether workspace-relative ``rel`` is or lies in a trash folder at the root
    (``.Trash``, ``.Trash-<uid>``: where a delete on a mount root lands)."""
    return _TRASH.match(rel.split("/", 1)[0]) is not None


def inside_root(root: Path, folder: str) -> str | None:
    """``folder`` (an absolute path) relative to ``root`` when it is ``root`` or lies in
    it, else None."""
    folder = os.path.normpath(folder)
    base = str(root)
    if folder == base or folder.startswith(base.rstrip("/") + "/"):
        return os.path.relpath(folder, base)
    return None


def home_trash() -> str:
    """The user's own trash folder, as the freedesktop spec places it:
    ``$XDG_DATA_HOME/Trash``, where an unset, empty or relative ``XDG_DATA_HOME`` means
    ``~/.local/share`` (send2trash would take an empty one for the current folder)."""
    data_home = os.environ.get("XDG_DATA_HOME", "")
    if not os.path.isabs(data_home):
        data_home = os.path.expanduser("~/.local/share")
    return os.path.join(data_home, "Trash")


# Matched case-insensitively against every component of a path (a pattern with a ``/``
# against that many trailing components): see ``Workspace.is_secret``.
# Environment variables whose names match one of these (any case) are removed from what a
# command the model asked for (run.command, run.check) sees, unless a check keeps them.
DEFAULT_SECRET_ENVIRONMENT: tuple[str, ...] = (
    "*_TOKEN",
    "*_SECRET*",
    "*_PASSWORD",
    "*_KEY",
    "AWS_*",
)
DEFAULT_SECRET_PATTERNS: tuple[str, ...] = (
    ".env",
    ".env.*",
    ".envrc",
    "?*.env",  # prod.env, docker.env: env files named by their purpose (not .env itself)
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
    "*.tfvars",  # Terraform variables: where its passwords and tokens are set
    "*.ppk",  # PuTTY private keys
    "secrets.*",
    "*.p8",  # Apple's and others' PKCS#8 private keys (AuthKey_XXXX.p8)
    ".my.cnf",  # MySQL client passwords
    "gh/hosts.yml",  # the GitHub CLI's tokens (~/.config/gh/hosts.yml)
    ".cargo/credentials*",
    ".gem/credentials",
    "application_default_credentials.json",  # gcloud's
    "service-account*.json",  # cloud service account keys
    "service_account*.json",
    "*-adminsdk-*.json",  # Firebase's
    "credentials.tfrc.json",  # Terraform Cloud's token
)


def _is_git_config(parts: list[str]) -> bool:
    """Whether ``parts`` name the config of a git folder (or a copy of one): ``.git/config``,
    a submodule's ``.git/modules/<name>/config``, a worktree's ``config.worktree``, a bare
    ``*.git``."""
    if len(parts) < 2 or not any(
        name.lower() in ("config", "config.worktree") for name in originals(parts[-1])
    ):
        return False
    return any(name.lower().endswith(".git") for part in parts[:-1] for name in originals(part))


def _enter(folder: Path) -> None:
    """Open ``folder`` and look up "." in it: what every command needs (read and search)."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.stat(".", dir_fd=fd)
    finally:
        os.close(fd)


def _blocked_folder(typed: Path) -> Path:
    """The first folder of ``typed`` (as typed) that this user may not enter or read."""
    current = Path(typed.anchor) if typed.is_absolute() else Path(".")
    for name in typed.parts[1:] if typed.is_absolute() else typed.parts:
        try:
            os.stat(current / name)
        except PermissionError:
            return current
        except OSError:
            break
        current = current / name
    return typed


def _not_enterable(typed: Path, exc: OSError) -> OperatorError:
    if isinstance(exc, PermissionError):
        blocked = _blocked_folder(typed)
        where = "it" if blocked == typed else f"the folder {blocked} on the way"
        return OperatorError(
            "ERR_WORKSPACE_INVALID",
            f"workspace {typed} cannot be opened: this user may not enter {where} "
            "(permission denied); run as a user who can, or change that folder's "
            "permissions",
        )
    reason = (exc.strerror or type(exc).__name__).lower()
    return OperatorError("ERR_WORKSPACE_INVALID", f"workspace {typed} cannot be opened ({reason})")


@dataclass(frozen=True)
class Workspace:
    """A workspace root and the rules for reaching files under it."""

    root: Path
    secret_patterns: tuple[str, ...] = field(default=DEFAULT_SECRET_PATTERNS)
    # Root-relative path of the app's own state folder (undo journal, memory of what ran)
    # when it lies inside the root; see ``with_app_state``.
    app_state: str | None = None
    # Names of environment variables a command run here does not see (a setting).
    secret_environment: tuple[str, ...] = field(default=DEFAULT_SECRET_ENVIRONMENT)
    # component count -> one compiled pattern for every secret pattern of that many parts
    _secret: dict[int, re.Pattern[str]] = field(init=False, repr=False, compare=False)
    # Root-relative path of the user's trash folder when it lies inside the root (a
    # workspace that is the home folder): what a delete put there is never read again.
    _home_trash: str | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        real = Path(os.path.realpath(self.root))
        try:
            is_dir = real.is_dir()
            if is_dir:
                _enter(real)
        except OSError as exc:
            raise _not_enterable(self.root, exc) from None
        if not is_dir:
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
        trash = inside_root(real, os.path.realpath(home_trash()))
        object.__setattr__(self, "_home_trash", None if trash == "." else trash)

    def with_app_state(self, state_dir: Path) -> Workspace:
        """This workspace with the app's state folder protected, if it lies inside the root.

        A state folder that is the root itself protects its ``workspaces`` folder (where
        the journals are), so the rest of the workspace stays usable.
        """
        real = Path(os.path.realpath(state_dir))
        if real == self.root:
            real = real / "workspaces"
        if self.root not in real.parents:
            return self if self.app_state is None else replace(self, app_state=None)
        return replace(self, app_state=real.relative_to(self.root).as_posix())

    def is_trash(self, rel: str) -> bool:
        """Whether root-relative ``rel`` is or lies in a trash folder deletes land in: one
        at the root (``.Trash``, ``.Trash-<uid>``) or the user's own (any case)."""
        if is_trash_name(rel):
            return True
        if self._home_trash is None:
            return False
        folded, trash = rel.casefold(), self._home_trash.casefold()
        return folded == trash or folded.startswith(trash + "/")

    def is_app_state(self, rel: str) -> bool:
        """Whether root-relative ``rel`` is the app's state folder or inside it (any case)."""
        if self.app_state is None:
            return False
        folded, state = rel.casefold(), self.app_state.casefold()
        return folded == state or folded.startswith(state + "/")

    def holds_app_state(self, rel: str) -> bool:
        """Whether root-relative ``rel`` is a folder above the app's state folder."""
        if self.app_state is None:
            return False
        return rel == "." or self.app_state.casefold().startswith(rel.casefold() + "/")

    def _check_not_app_state(self, path: str, rel: str) -> None:
        written = os.path.normpath(check_path_text(path))
        if self.is_app_state(written) or self.is_app_state(rel):
            raise protected_error(
                path,
                "is in the app's own state folder (its undo journal and the memory of what "
                "ran), which is never listed, searched, read or written",
            )

    # -- resolution --------------------------------------------------------------

    def locate(self, path: str, *, follow_last: bool = True) -> Spot:
        """The spot of ``path``, reached by descriptors (close it when done).

        A path into a trash folder at the root is ERR_PATH_PROTECTED: what was deleted
        there is never read, searched or written again through a command.
        """
        spot = locate(self.root, path, follow_last=follow_last)
        if spot.rel != "." and self.is_trash(spot.rel):
            spot.close()
            raise OperatorError(
                "ERR_PATH_PROTECTED",
                f"path {path!r} is in the workspace's trash folder, which is never listed, "
                "searched, read or written",
            )
        try:
            self._check_not_app_state(path, spot.rel)
        except OperatorError:
            spot.close()
            raise
        return spot

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
        self._check_not_in_git_dir(path, spot.rel)
        self._check_not_above_app_state(path, spot.rel)

    def _check_not_above_app_state(self, path: str, rel: str) -> None:
        written = os.path.normpath(check_path_text(path))
        if self.holds_app_state(rel) or self.holds_app_state(written):
            raise protected_error(
                path,
                "holds the app's own state folder (its undo journal and the memory of what "
                "ran); writing, moving or deleting it would lose them, so it is protected",
            )

    def _check_not_in_git_dir(self, path: str, rel: str) -> None:
        """ERR_PATH_PROTECTED inside a git folder that is not named .git: the target of a
        ``.git`` symlink (``app/.git -> ../.repo/projects/app.git``, as Google's repo tool
        lays it out) or a bare repository, written to by its own name. Its config and hooks
        run code at the next git command just as ``.git/`` does."""
        parts = split_parts(rel)
        for end in range(1, len(parts) + 1):
            folder = self.root.joinpath(*parts[:end])
            try:
                is_git_dir = (
                    (folder / "HEAD").is_file()
                    and (folder / "objects").is_dir()
                    and (folder / "refs").is_dir()
                )
            except OSError:
                is_git_dir = False
            if is_git_dir:
                raise protected_error(
                    path,
                    f"is inside {'/'.join(parts[:end])!r}, a git repository's own folder "
                    "(it holds HEAD, objects/ and refs/), which is protected from writes "
                    "and deletes like .git/",
                )

    def check_writable(self, path: str, real: Path) -> None:
        if real == self.root:
            raise OperatorError(
                "ERR_PATH_PROTECTED", "the workspace root itself cannot be written or deleted"
            )
        check_not_git(path, [*split_parts(check_path_text(path)), *self.relative(real).split("/")])
        self._check_not_in_git_dir(path, self.relative(real))
        self._check_not_app_state(path, self.relative(real))
        self._check_not_above_app_state(path, self.relative(real))

    def relative(self, real: Path) -> str:
        """The ``/``-separated path of ``real`` relative to the root ('.' for the root)."""
        if real == self.root:
            return "."
        return real.relative_to(self.root).as_posix()

    # -- policy ------------------------------------------------------------------

    def is_secret(self, rel: str) -> bool:
        """Whether a ``/``-separated path looks secret: some component (or, for a pattern
        with ``/``, some run of that many components) matches a pattern, in any case. A
        copy's name counts as its original's, whatever tool made it (``.env copy``,
        ``.env - Copy``, ``credentials (1).json``, ``.env~``, ``#.env#``, ``key.pem.bak``,
        ``.id_rsa.swp``: see copy_names), and a git repository's ``config`` is secret in
        any git folder (``.git/modules/lib/config``, a bare ``app.git/config``): remote
        URLs hold tokens."""
        parts = [p for p in rel.split("/") if p not in ("", ".")]
        if _is_git_config(parts):
            return True
        names = [originals(p) for p in parts]
        for count, pattern in self._secret.items():
            if count == 1:  # the common case, and searchTree asks for every file: plain loops
                for group in names:
                    for name in group:
                        if pattern.match(name):
                            return True
                continue
            for end in range(count, len(names) + 1):
                for run in itertools.product(*names[end - count : end]):
                    if pattern.match("/".join(run)):
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
