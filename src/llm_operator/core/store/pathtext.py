"""Path text rules, decided before the disk is touched.

A command path is relative, ``/``-separated, and ``.`` is the root. Absolute paths, drive
letters, ``~``, backslashes and NUL are refused; so is ``..`` that climbs above the root.
"""

from __future__ import annotations

import re

from ..errors import OperatorError

_DRIVE = re.compile(r"^[A-Za-z]:")
# Code points that HFS+ ignores in names and NTFS-style trailing dots and spaces: with
# them a name can look different and still open ``.git`` (git's CVE-2014-9390 cases).
_IGNORED = re.compile("[\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]")


def outside_error(path: str, why: str) -> OperatorError:
    return OperatorError(
        "ERR_PATH_OUTSIDE_WORKSPACE",
        f"path {path!r} {why}; use a path relative to the workspace root, such as src/main.py "
        "(. is the root)",
        {"path": path},
    )


def check_path_text(path: str) -> str:
    """Refuse path spellings that can never be inside the workspace; return the cleaned text."""
    if "\x00" in path:
        raise outside_error(path, "contains a NUL byte")
    if path.startswith(("/", "\\")) or _DRIVE.match(path):
        raise outside_error(path, "is absolute")
    if path.startswith("~"):
        raise outside_error(path, "starts with ~ (home folders are outside the workspace)")
    if "\\" in path:
        raise OperatorError(
            "ERR_INVALID_PATH",
            f"path {path!r} contains a backslash; separate folders with /",
        )
    parts = split_parts(path)
    depth = 0
    for part in parts:
        depth = depth - 1 if part == ".." else depth + 1
        if depth < 0:
            raise outside_error(path, "climbs above the workspace root with ..")
    return "/".join(parts) or "."


def split_parts(text: str) -> list[str]:
    return [part for part in text.split("/") if part not in ("", ".")]


def is_git_name(name: str) -> bool:
    """``.git`` in any case, with ignorable code points or trailing dots and spaces."""
    folded = _IGNORED.sub("", name).casefold().rstrip(". ")
    return folded in (".git", "git~1")


def protected_error(path: str, why: str) -> OperatorError:
    return OperatorError("ERR_PATH_PROTECTED", f"path {path!r} {why}", {"path": path})


def check_not_git(path: str, trail: tuple[str, ...] | list[str]) -> None:
    """ERR_PATH_PROTECTED if any component met on the way to ``path`` is a ``.git``."""
    if any(is_git_name(part) for part in trail):
        raise protected_error(
            path,
            "is inside .git/ (as written or through a symlink), which is protected from "
            "writes and deletes",
        )
