// Gemini (gemini.google.com). The selectors follow the public page as of 2025-2026 and
// Code Web Chat's Gemini adapter (a contenteditable rich-textarea input, the "stop" icon
// while a reply streams); each reply is a <model-response> whose <message-content> has
// an id. Only this file knows the page's structure.
"use strict";

globalThis.LLMOperatorSite = {
  name: "gemini",
  input: () => document.querySelector('rich-textarea div[contenteditable="true"], div[contenteditable="true"]'),
  isGenerating: () => !!document.querySelector('mat-icon[fonticon="stop"]'),
  assistantMessages: () => Array.from(document.querySelectorAll("model-response")),
  isStreaming: () => false,
  messageId: (message, index) =>
    message.querySelector("message-content[id]")?.id || `gemini-${index}`,
  messageText: (message) => (message.querySelector("message-content") || message).innerText,
  // The address of a chat that has none yet (it gets its own with the first reply).
  isNewChat: (path) => path === "/app" || path === "/",
  sendButton: () => document.querySelector('button[aria-label="Send message"], button.send-button'),
  title: () => document.title,
};
