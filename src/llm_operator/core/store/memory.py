"""Which command ids a workspace session has already carried out, and what they returned.

Only successful results are remembered: an id whose command failed or was rejected may be
sent again (fixed) without tripping ERR_DUPLICATE_ID. The memory lives in the state dir,
so pasting the same reply twice, even into two separate ``exec`` runs, writes once.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

from ..actions.base import Outcome
from .atomic import write_path_atomically

MAX_ENTRIES = 1000
# Details larger than this, and anything read from a secret-looking file, are not kept on
# disk: a repeat then says so instead of replaying them.
MAX_KEPT_DETAILS = 64_000
DROPPED_NOTE = " [details not kept; send the command again under a new id to get them]"
FILE_NAME = "session-memory.json"


@dataclass(frozen=True)
class Remembered:
    fingerprint: str
    outcome: Outcome
    at: float  # seconds since the epoch


class SessionMemory:
    def __init__(self, folder: Path | None) -> None:
        self._path = folder / FILE_NAME if folder is not None else None
        self._entries: dict[str, Remembered] = {}
        self._load()

    def _load(self) -> None:
        if self._path is None or not self._path.is_file():
            return
        try:
            raw = json.loads(self._path.read_text("utf-8"))
            for key, item in raw.get("ids", {}).items():
                outcome = Outcome(bool(item["ok"]), str(item["summary"]), item.get("details"))
                self._entries[key] = Remembered(item["fingerprint"], outcome, float(item["at"]))
        except (OSError, ValueError, KeyError, TypeError):
            # A damaged memory file must not stop the app; it only loses repeat detection.
            self._entries = {}

    def lookup(self, command_id: str) -> Remembered | None:
        return self._entries.get(command_id)

    def remember(
        self, command_id: str, fingerprint: str, outcome: Outcome, private: bool = False
    ) -> None:
        if not outcome.ok:
            return
        details = outcome.details
        if details is not None and (private or len(details) > MAX_KEPT_DETAILS):
            outcome = Outcome(outcome.ok, outcome.summary + DROPPED_NOTE, None)
        self._entries[command_id] = Remembered(fingerprint, outcome, time.time())

    def forget_all(self) -> None:
        self._entries.clear()
        self.save()

    def __len__(self) -> int:
        return len(self._entries)

    def save(self) -> None:
        if self._path is None:
            return
        newest = sorted(self._entries.items(), key=lambda kv: kv[1].at)[-MAX_ENTRIES:]
        self._entries = dict(newest)
        payload = {
            "version": 1,
            "ids": {
                key: {
                    "fingerprint": item.fingerprint,
                    "ok": item.outcome.ok,
                    "summary": item.outcome.summary,
                    "details": item.outcome.details,
                    "at": item.at,
                }
                for key, item in self._entries.items()
            },
        }
        self._path.parent.mkdir(parents=True, exist_ok=True)
        write_path_atomically(self._path, json.dumps(payload).encode("utf-8"))
