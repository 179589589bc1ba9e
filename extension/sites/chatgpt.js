// ChatGPT (chatgpt.com). The selectors follow the public page as of 2025-2026 and
// Code Web Chat's ChatGPT adapter (input div#prompt-textarea, the stop button while a
// reply streams); message elements carry data-message-author-role and data-message-id.
// Only this file knows the page's structure: when the site changes, change it here.
"use strict";

globalThis.LLMOperatorSite = {
  name: "chatgpt",
  input: () => document.querySelector("div#prompt-textarea, textarea#prompt-textarea"),
  isGenerating: () => !!document.querySelector('button[data-testid="stop-button"]'),
  assistantMessages: () =>
    Array.from(document.querySelectorAll('[data-message-author-role="assistant"]')),
  isStreaming: (message) => !!message.querySelector(".result-streaming"),
  messageId: (message, index) => message.getAttribute("data-message-id") || `chatgpt-${index}`,
  messageText: (message) => (message.querySelector(".markdown") || message).innerText,
  // The address of a chat that has none yet (it gets its own with the first reply).
  isNewChat: (path) => path === "/" || /^\/g\/[^/]+\/?$/.test(path),
  sendButton: () => document.querySelector('button[data-testid="send-button"]'),
  title: () => document.title,
};
