// What every site's adapter shares: reading and filling a chat input, whatever element it
// is (a textarea, or a contenteditable editor such as ProseMirror or Quill).
"use strict";

globalThis.LLMOperatorInput = {
  text(input) {
    if (!input) return "";
    if ("value" in input && typeof input.value === "string") return input.value;
    return input.innerText || "";
  },

  // Put ``text`` into ``input`` as a paste would: editors update their own state only from
  // input events, so the browser's insertText command is used where it works, and the
  // element's value or text with an input event where it does not.
  fill(input, text) {
    input.focus();
    if ("value" in input && typeof input.value === "string") {
      const proto = Object.getPrototypeOf(input);
      const setter = Object.getOwnPropertyDescriptor(proto, "value")?.set;
      if (setter) setter.call(input, text);
      else input.value = text;
      input.dispatchEvent(new Event("input", { bubbles: true }));
      return;
    }
    const selection = window.getSelection();
    const range = document.createRange();
    range.selectNodeContents(input);
    selection.removeAllRanges();
    selection.addRange(range);
    if (!document.execCommand("insertText", false, text) || !this.text(input).trim()) {
      input.innerText = text;
      input.dispatchEvent(new Event("input", { bubbles: true }));
    }
  },

  // The conversation a page shows: its path names it on every supported site
  // (/c/<id>, /chat/<id>, /app/<id>); a new chat's path is its own until it gets an id.
  // Any other page (the fallback) is named by its host too: two sites' pages at "/" are
  // two chats, never one whose repeats and undo notices the other is answered with.
  conversation() {
    const path = location.pathname || "/";
    return globalThis.LLMOperatorSite?.name === "fallback" ? `${location.host}${path}` : path;
  },
};
