// Any other page: nothing is read by itself. The context menu item "Relay the selected
// reply to LLM Operator" (a button on the selected message) sends the selection; the
// results go into the chat input the person last typed in (a textarea or an editable
// element), else the page's first one.
"use strict";

(() => {
  let lastInput = null;
  document.addEventListener(
    "focusin",
    (event) => {
      const target = event.target;
      if (target instanceof HTMLTextAreaElement || target?.isContentEditable) lastInput = target;
    },
    true,
  );
  globalThis.LLMOperatorSite = {
    name: "fallback",
    input: () =>
      (lastInput && lastInput.isConnected ? lastInput : null) ||
      document.querySelector('textarea, [contenteditable="true"]'),
    isGenerating: () => false,
    assistantMessages: () => [],
    isStreaming: () => false,
    messageId: (_message, index) => `selection-${index}`,
    messageText: (message) => message.innerText,
    isNewChat: () => false,
    sendButton: () => null,
    title: () => document.title,
  };
})();
