"""Digests without loading OpenSSL for small data.

``hashlib`` loads OpenSSL when it is imported (about 5 ms of every short ``exec``, a
configuration file read included), while the interpreter's own SHA-256 and BLAKE2 are
built in and load at once. SHA-256 is SHA-256 whichever code computes it; OpenSSL's is
faster on big data (it uses the processor's SHA instructions), so data of LARGE bytes or
more still goes to ``hashlib``. Where the built-in modules are missing (a build without
them), ``hashlib`` serves everything.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

LARGE = 256 * 1024


# The built-in SHA-256's module: its name changed in Python 3.12. Looked up once: a failed
# import searches the whole path each time.
_SHA256_MODULE = "_sha2" if sys.version_info >= (3, 12) else "_sha256"
_found: list[Callable[[bytes], Any] | None] = []


def _builtin_sha256() -> Callable[[bytes], Any] | None:
    if not _found:
        try:
            _found.append(__import__(_SHA256_MODULE).sha256)
        except (ImportError, AttributeError):
            _found.append(None)
    return _found[0]


def sha256_hex(data: bytes) -> str:
    """The SHA-256 of ``data`` in hexadecimal."""
    if len(data) < LARGE:
        small = _builtin_sha256()
        if small is not None:
            return str(small(data).hexdigest())
    try:  # OpenSSL's own module: ``hashlib`` would also load the built-in BLAKE2 and MD5
        from _hashlib import openssl_sha256 as sha256  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        from hashlib import sha256
    return str(sha256(data).hexdigest())


def blake2b_hex(data: bytes, digest_size: int) -> str:
    """The BLAKE2b of ``data`` (``digest_size`` bytes) in hexadecimal."""
    try:
        from _blake2 import blake2b  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        from hashlib import blake2b
    return str(blake2b(data, digest_size=digest_size).hexdigest())
