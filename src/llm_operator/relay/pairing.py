"""Pairing: a one-time code the person copies from the app into the extension, exchanged
once for a token the extension keeps and sends as every later connection's first word.

Invariants:
- The code is used once: pairing with it, or ``MAX_WRONG`` wrong codes in a row, replaces
  it with a new one (reported through ``on_code``, so the window or the terminal shows the
  code that now works). Guessing it is then as hard as guessing ``CODE_LENGTH`` symbols of
  an alphabet of 32 with five tries a code.
- Tokens are 256 random bits; their SHA-256 digests are compared in constant time and
  kept (``tokens.KeptTokens``), so a relay started again knows the browsers paired before.
- ``paired_at`` is when the last pairing happened: a message the extension saw on the page
  before it is never relayed (the extension sends only newer ones; the server refuses the
  ids a hello listed as already there).
"""

from __future__ import annotations

import hmac
import secrets
import time
from collections.abc import Callable

from .tokens import KeptTokens, digest

ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud or typed by hand
CODE_LENGTH = 8
MAX_WRONG = 5


def new_code() -> str:
    code = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
    return f"{code[:4]}-{code[4:]}"


def _plain(code: str) -> str:
    return code.replace("-", "").replace(" ", "").upper()


class Pairing:
    def __init__(
        self,
        on_code: Callable[[str], None] = lambda _code: None,
        kept: KeptTokens | None = None,
    ) -> None:
        self._on_code = on_code
        self._kept = kept or KeptTokens(None)
        self._wrong = 0
        self.paired_at: float | None = None
        self.code = new_code()
        on_code(self.code)

    def _renew(self) -> None:
        self.code = new_code()
        self._wrong = 0
        self._on_code(self.code)

    def pair(self, code: str) -> str | None:
        """A new token for the right code (which is then used up); None for a wrong one."""
        if hmac.compare_digest(_plain(code).encode(), _plain(self.code).encode()):
            token = secrets.token_urlsafe(32)
            self._kept.add(token)
            self.paired_at = time.time()
            self._renew()
            return token
        self._wrong += 1
        if self._wrong >= MAX_WRONG:
            self._renew()
        return None

    @property
    def kept_problem(self) -> str | None:
        """Why past pairings are not kept, if they are not."""
        return self._kept.problem

    def knows(self, token: str) -> bool:
        given = digest(token).encode()
        # Every digest is compared, so the time taken does not tell which one came close.
        found = False
        for kept in self._kept.digests:
            found |= hmac.compare_digest(given, kept.encode())
        return found
