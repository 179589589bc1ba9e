"""Part sizes for the main web chats: how many characters one pasted part may hold.

A part is what the person pastes as one chat message (a context message's part, a
results part). Each preset is no smaller than the app's default before presets existed
(30,000 characters), which every chat below has taken as one message; ``custom`` is the
person's own size (the ``part_size`` setting).

What each chat takes in one pasted message, from what is public (none of them publishes a
per-message character limit for its web app; sizes count UTF-16 units, see chat_units):
- ChatGPT: the web app's context window is 32K tokens for Plus in its default (Instant)
  mode, 16K for Free, 128K for Pro (help-center figures as quoted by
  https://chatai.guide/limits/chatgpt-context-window/); a longer message is refused
  ("The message you submitted was too long"). 30,000 characters is about 7,500 tokens,
  a quarter of the Plus window, leaving room for the primer and the replies.
- Claude: a 200K-token context on the paid plans (https://toolchase.com/blog/claude-long-
  document-guide/); claude.ai turns a long paste into a "Pasted content" attachment that
  still reaches the model. 60,000 characters (about 15,000 tokens) keeps a task of a few
  parts well inside the window.
- Gemini: the web app takes about 30,000 characters per message
  (https://discover.oreateai.com/discover/how-the-gemini-character-limit-actually-works-across-different-models).
"""

from __future__ import annotations

from dataclasses import dataclass

CUSTOM = "custom"


@dataclass(frozen=True)
class ChatPreset:
    """A chat and the part size its message box takes."""

    key: str
    title: str
    part_size: int


PRESETS: tuple[ChatPreset, ...] = (
    ChatPreset("chatgpt", "ChatGPT", 30_000),
    ChatPreset("claude", "Claude", 60_000),
    ChatPreset("gemini", "Gemini", 30_000),
)


def preset(key: str) -> ChatPreset | None:
    """The preset named ``key`` (any case), or None for ``custom`` and unknown names."""
    return next((p for p in PRESETS if p.key == key.casefold()), None)


def part_size_for(chat: str, custom_size: int) -> int:
    """The part size for ``chat``: its preset's, or ``custom_size`` for custom."""
    found = preset(chat)
    return found.part_size if found is not None else custom_size
