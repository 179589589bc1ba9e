"""One mapping from operating-system errors to named ERR_ codes.

Messages name the workspace-relative path only: ``OSError.filename`` (an absolute path)
and ``str(exc)`` never reach a result. ``strerror`` is the C library's fixed wording.
"""

from __future__ import annotations

import errno

from ..errors import OperatorError

# errno -> (code, what it means for the user, how to fix it)
_NAMED: dict[int, tuple[str, str, str]] = {
    errno.EACCES: (
        "ERR_PERMISSION_DENIED",
        "permission denied",
        "the user can change its permissions",
    ),
    errno.EPERM: (
        "ERR_PERMISSION_DENIED",
        "the operation is not permitted",
        "the user can change its permissions or attributes",
    ),
    errno.ENAMETOOLONG: (
        "ERR_NAME_TOO_LONG",
        "a file name in the path is too long for the file system",
        "use shorter names (usually at most 255 bytes each)",
    ),
    errno.ELOOP: (
        "ERR_SYMLINK_LOOP",
        "the path goes through too many symlinks (a symlink loop?)",
        "name the real file instead",
    ),
    errno.ENOTDIR: (
        "ERR_NOT_A_DIRECTORY",
        "a part of the path is a file, not a folder",
        "check the folders of the path with fs.list",
    ),
    errno.EISDIR: (
        "ERR_IS_A_DIRECTORY",
        "a folder now stands at that path",
        "name a file inside it",
    ),
    errno.ENOSPC: ("ERR_NO_SPACE", "the disk is full", "the user must free some space"),
    errno.EDQUOT: ("ERR_NO_SPACE", "the disk quota is used up", "the user must free some space"),
    errno.EFBIG: (
        "ERR_NO_SPACE",
        "the file is larger than the system allows",
        "write a smaller file",
    ),
    errno.EROFS: (
        "ERR_READ_ONLY_FS",
        "the file system is read-only",
        "the user must remount it writable",
    ),
    errno.ENOENT: (
        "ERR_FILE_NOT_FOUND",
        "it does not exist (any more)",
        "use fs.list or fs.searchTree to find the right path",
    ),
    errno.EEXIST: (
        "ERR_ALREADY_EXISTS",
        "something already stands at that path",
        "read the folder again with fs.list",
    ),
    errno.ENOTEMPTY: (
        "ERR_ALREADY_EXISTS",
        "a folder that is not empty stands at that path",
        "read the folder again with fs.list",
    ),
    errno.EBUSY: ("ERR_FILE_BUSY", "it is busy (in use or a mount point)", "try again later"),
    errno.ETXTBSY: ("ERR_FILE_BUSY", "it is a program that is running", "try again later"),
    errno.ENXIO: (
        "ERR_NOT_A_FILE",
        "it is a device or pipe with nothing behind it",
        "name a regular file",
    ),
    errno.EMFILE: ("ERR_TOO_MANY_OPEN_FILES", "too many files are open", "try again later"),
    errno.ENFILE: ("ERR_TOO_MANY_OPEN_FILES", "too many files are open", "try again later"),
    errno.EIO: (
        "ERR_IO_ERROR",
        "the disk reported an input/output error",
        "the user should check the disk",
    ),
}


def named_os_error(
    exc: OSError, path: str, doing: str, fallback: str = "ERR_IO_ERROR"
) -> OperatorError:
    """The OperatorError for ``exc`` met while ``doing`` (a verb) the relative ``path``.

    Errors without a named code get ``fallback`` (ERR_READ_FAILED, ERR_WRITE_FAILED...).
    """
    number = exc.errno if isinstance(exc.errno, int) else -1
    if number in _NAMED:
        code, meaning, fix = _NAMED[number]
    else:
        code = fallback
        meaning = (exc.strerror or type(exc).__name__).lower()
        fix = "the user can check the file by hand"
    shown = {"": "a file it needed", ".": "the workspace root"}.get(path, repr(path))
    return OperatorError(
        code,
        f"could not {doing} {shown}: {meaning}; {fix}",
        {"path": path, "errno": errno.errorcode.get(number, str(number))},
    )


def reason_of(exc: OSError) -> str:
    """A short reason for ``exc`` without any file name (for lists of problems)."""
    number = exc.errno if isinstance(exc.errno, int) else -1
    if number in _NAMED:
        return _NAMED[number][1]
    return (exc.strerror or type(exc).__name__).lower()


def code_of(exc: OSError, fallback: str) -> str:
    number = exc.errno if isinstance(exc.errno, int) else -1
    return _NAMED[number][0] if number in _NAMED else fallback
