"""Conversations: one chat's run of messages with a workspace.

Invariants:
- A conversation is a number in the state store. Command ids are remembered per
  conversation (``memory``), so a new chat may reuse ``read-1``; within one conversation
  a write sent again is a repeat, and the same id for other content is ERR_DUPLICATE_ID.
- The paste channel (the window and ``exec``) continues the newest paste conversation.
  "Copy LLM primer", the context builder's copy, ``llm-operator primer --workspace`` and
  ``pack`` (unless ``--continue``) start a new one. Conversation 0 is the paste channel's
  conversation of a store where none was ever started (and of stores made before
  conversations were recorded: their memory, batches and notices belong to it).
- Each MCP session has a conversation of its own, started at its first call; it ends
  with the session and is never continued. A session whose conversation the store could
  not start is UNKNOWN for that call, never conversation 0 (the paste channel's: its
  batches and notices would be the web chat's): its writes are refused, its reads run.
- Each chat the browser extension relays (a site and its conversation) has a
  conversation of its own on the RELAY channel, started at its first reply while the
  relay runs; like an MCP session's, its notices lead its own next results.
- A batch records its conversation; an undo's notice belongs to that conversation and
  leads that conversation's next results only (``notices``).
"""

from __future__ import annotations

import time

from .database import StateStore, StoreError, guarded

PASTE = "paste"  # the window and exec: a web chat the user pastes into
MCP = "mcp"  # one MCP client session
RELAY = "relay"  # one chat relayed by the browser extension (a tab's conversation)
FIRST = 0  # the paste conversation of a store that never started one
UNKNOWN = -1  # an MCP session's call whose conversation could not be started


def start_conversation(store: StateStore | None, channel: str) -> int:
    """Start a new conversation on ``channel``; its number. Raises StoreError."""
    if store is None:
        return FIRST
    with guarded("start a new conversation"), store.transaction() as db:
        cursor = db.execute(
            "INSERT INTO conversations (channel, started) VALUES (?, ?)", (channel, time.time())
        )
    assert cursor.lastrowid is not None
    return cursor.lastrowid


def current_conversation(store: StateStore | None) -> int:
    """The paste channel's conversation: the newest one started on it. Raises StoreError."""
    if store is None:
        return FIRST
    with guarded("read the conversation"), store.reading() as db:
        row = db.execute("SELECT max(n) FROM conversations WHERE channel = ?", (PASTE,)).fetchone()
    return FIRST if row is None or row[0] is None else int(row[0])


def channel_of(store: StateStore | None, conversation: int) -> str:
    """Which channel ``conversation`` belongs to (conversation 0: the paste channel)."""
    if store is None or conversation == FIRST:
        return PASTE
    with guarded("read the conversation"), store.reading() as db:
        row = db.execute(
            "SELECT channel FROM conversations WHERE n = ?", (conversation,)
        ).fetchone()
    return PASTE if row is None else str(row[0])


def unknown() -> StoreError:
    """Why a run whose conversation could not be read writes nothing."""
    return StoreError(
        "ERR_STATE_STORE_UNAVAILABLE",
        "the app's state store could not say which conversation this reply belongs to, so "
        "it cannot tell a repeat from a new command; nothing was written. Send the "
        "command again once the state store works.",
    )


def pasting(store: StateStore | None, notes: list[str], asked: int | None = None) -> int | None:
    """The conversation of a run: ``asked`` (an MCP session's) or, when None, the paste
    channel's current one; None when it is not known (said in ``notes``: a run without
    its conversation writes nothing, see ``unknown``)."""
    if asked == UNKNOWN:
        error = unknown()
        notes.append(f"writes are refused: {error.code}: {error.message}")
        return None
    if asked is not None:
        return asked
    try:
        return current_conversation(store)
    except StoreError as error:
        notes.append(f"writes are refused: {error.code}: {error.message}")
        return None


def notice_destination(store: StateStore | None, conversation: int) -> tuple[str, str]:
    """Who an undo notice of ``conversation`` goes to: (PASTE or MCP, a note for the
    undo's report; "" when it goes to the current chat, the next pasted results)."""
    try:
        channel = channel_of(store, conversation)
        if channel == RELAY:
            return RELAY, (
                "The notice is for the chat the browser extension relays these commands "
                "from, not for the pasted chat: it leads that chat's next relayed results."
            )
        if channel == MCP:
            return MCP, (
                "The notice is for the MCP session that sent these commands, not for the web "
                "chat: it leads that session's next result. If that client has disconnected, "
                "no chat is told; the notice stays on record here."
            )
        if conversation == current_conversation(store):
            return PASTE, ""
    except StoreError:
        return PASTE, ""  # unknown: as before conversations, the pasted chat's
    return PASTE, (
        "The notice is for an earlier chat (a new one has started since): the current "
        "chat's results do not carry it. Paste it into the chat that sent these commands "
        "if it is still open."
    )
