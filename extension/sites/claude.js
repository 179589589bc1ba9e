// Claude (claude.ai). The selectors follow the public page as of 2025-2026 and Code Web
// Chat's Claude adapter (a contenteditable ProseMirror input, messages rendered inside
// div[data-test-render-count]); an assistant message is marked data-is-streaming, "true"
// while it is written. Only this file knows the page's structure.
"use strict";

globalThis.LLMOperatorSite = {
  name: "claude",
  input: () => document.querySelector('div[contenteditable="true"].ProseMirror, div[contenteditable="true"]'),
  isGenerating: () => !!document.querySelector('[data-is-streaming="true"]'),
  assistantMessages: () => Array.from(document.querySelectorAll("[data-is-streaming]")),
  isStreaming: (message) => message.getAttribute("data-is-streaming") === "true",
  // Claude's page shows no message id: the n-th reply of a conversation is its id.
  messageId: (_message, index) => `claude-${index}`,
  messageText: (message) => (message.querySelector(".font-claude-message") || message).innerText,
  // The address of a chat that has none yet (it gets its own with the first reply).
  isNewChat: (path) => path === "/new",
  sendButton: () => document.querySelector('button[aria-label="Send message"], button[aria-label="Send Message"]'),
  title: () => document.title,
};
