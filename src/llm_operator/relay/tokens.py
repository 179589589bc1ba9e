"""The paired browsers' tokens, kept so a relay started again knows them.

Invariants:
- Only SHA-256 digests of tokens are kept, never a token: the file gives nobody a way in.
- The file lives beside the app's settings (``relay-tokens.json``), mode 0600, written
  whole through a temporary file and a rename; one per user, so one pairing serves every
  workspace.
- A file that cannot be read or written costs the memory of past pairings only (the
  extension is paired again), never the relay: the problem is said once, in ``problem``.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from pathlib import Path

NAME = "relay-tokens.json"
MAX_KEPT = 50  # pairings remembered (the oldest are forgotten first)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class KeptTokens:
    def __init__(self, path: Path | None) -> None:
        self._path = path
        self.problem: str | None = None
        self.digests: list[str] = self._load()

    def _load(self) -> list[str]:
        if self._path is None:
            return []
        try:
            found = json.loads(self._path.read_text("utf-8"))
        except FileNotFoundError:
            return []
        except (OSError, ValueError) as error:
            self.problem = f"the paired browsers could not be read ({type(error).__name__})"
            return []
        kept = found.get("sha256") if isinstance(found, dict) else None
        if not isinstance(kept, list):
            return []
        return [item for item in kept if isinstance(item, str) and len(item) == 64]

    def add(self, token: str) -> None:
        self.digests = [*self.digests, digest(token)][-MAX_KEPT:]
        if self._path is None:
            return
        temporary = self._path.with_name(f".{NAME}.{os.getpid()}.tmp")
        try:
            self._path.parent.mkdir(parents=True, exist_ok=True)
            descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(descriptor, "w", encoding="utf-8") as out:
                json.dump({"sha256": self.digests}, out)
                out.flush()
                os.fsync(out.fileno())
            os.replace(temporary, self._path)
        except OSError as error:
            self.problem = f"the pairing could not be kept ({error.strerror or error})"
            with contextlib.suppress(OSError):
                temporary.unlink()
