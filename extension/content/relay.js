// The page side of the relay: finds finished assistant messages, sends them to the
// background (which holds the connection to LLM Operator), and puts the results back
// into the chat's input. Site-specific knowledge lives in sites/<site>.js only.
//
// Rules this script keeps:
// - Only finished assistant messages: none while the site shows that it is writing, none
//   whose element says it streams, and a message is sent only after its text stayed the
//   same over two checks (STABLE_MS apart). User messages are never read.
// - Never twice, never older than the connection: every message on the page when the
//   script starts is listed as "existing" and skipped; every message sent is remembered.
// - Only messages holding an OPERATOR_CMD line leave the page.
// - Results go into the same conversation's input, one part at a time: the next part
//   waits until the previous one left the input (sent), and nothing is placed while the
//   person types or while the input holds text of theirs.
// - A results message sent automatically only when the person turned auto-send on for
//   this site and none of its commands needed approval.
"use strict";

(() => {
  const site = globalThis.LLMOperatorSite;
  const io = globalThis.LLMOperatorInput;
  if (!site || !io || globalThis.__llmOperatorRelay) return;
  globalThis.__llmOperatorRelay = true;
  const api = globalThis.browser ?? globalThis.chrome;

  const CHECK_MS = 1000; // how often messages and the input are looked at
  const STABLE_MS = 800; // a message is finished when its text stayed the same this long
  const TYPING_MS = 2500; // a keystroke in the input holds results back this long
  const seen = new Set();
  const lastText = new Map();
  const queue = []; // {message_id, parts, needs_approval, next}
  let conversation = io.conversation();
  let port = null;
  let lastKeystroke = 0;
  let placing = false;
  let placed = null; // the part in the input, until it is sent
  let autoSend = false;
  let badge = null;

  function key(name) {
    return `autoSend.${name}`;
  }

  api.storage.local.get(key(site.name)).then((found) => {
    autoSend = found[key(site.name)] === true;
  });
  api.storage.onChanged.addListener((changes) => {
    if (changes[key(site.name)]) autoSend = changes[key(site.name)].newValue === true;
  });

  function show(state) {
    if (!badge) {
      badge = document.createElement("div");
      badge.setAttribute("data-llm-operator", "status");
      badge.style.cssText =
        "position:fixed;right:12px;bottom:12px;z-index:2147483647;padding:4px 10px;" +
        "border-radius:10px;font:12px sans-serif;background:#1f2937;color:#f9fafb;opacity:.85";
      document.documentElement.appendChild(badge);
    }
    badge.textContent = `LLM Operator: ${state.replaceAll("_", " ")}`;
  }

  function existing() {
    return site.assistantMessages().map((message, index) => site.messageId(message, index));
  }

  function connect() {
    port = api.runtime.connect({ name: "relay" });
    port.onMessage.addListener(received);
    port.onDisconnect.addListener(() => {
      port = null;
    });
    // The app refuses these ids whatever comes later: the messages this script holds old.
    const old = existing().filter((id) => seen.has(id));
    port.postMessage({ kind: "hello", site: site.name, conversation, existing: old });
  }

  function received(message) {
    if (message.type === "results" && message.conversation === conversation) {
      if (message.parts.length) queue.push({ ...message, next: 0 });
      show(message.needs_approval ? "results after review" : "results ready");
    } else if (message.type === "status") {
      show(message.state);
    } else if (message.type === "ignored" || message.type === "error") {
      show(message.reason || message.message || message.type);
    } else if (message.type === "unpaired") {
      show("not paired (open the extension's options)");
    }
  }

  // The app reads only the last 200,000 characters of a reply (as of a paste) and takes
  // no frame over 1 MB: a longer message is sent as its end.
  const MAX_TEXT = 200000;

  function relay(message_id, full) {
    let text = full.length > MAX_TEXT ? full.slice(-MAX_TEXT) : full;
    if (/^[\uDC00-\uDFFF]/.test(text)) text = text.slice(1); // never half a character
    if (!port) connect();
    port.postMessage({ kind: "reply", conversation, message_id, text, title: site.title() });
    show("sent to the app");
  }

  function look() {
    if (io.conversation() !== conversation) {
      // Another chat in the same tab: the messages it brought are old, its results its
      // own. Leaving a new chat's address (ChatGPT's "/", Claude's "/new") is the chat
      // getting its own while its first reply is written: its messages stay new, and so
      // does the one being written whatever the address.
      const fresh = site.isNewChat(conversation);
      conversation = io.conversation();
      queue.length = 0;
      placed = null;
      const messages = site.assistantMessages();
      const writing = site.isGenerating() ? messages[messages.length - 1] : null;
      messages.forEach((message, index) => {
        if (!fresh && message !== writing) seen.add(site.messageId(message, index));
      });
      if (port) port.disconnect();
      connect();
    }
    if (site.isGenerating()) return;
    site.assistantMessages().forEach((message, index) => {
      const id = site.messageId(message, index);
      if (seen.has(id) || site.isStreaming(message)) return;
      const text = site.messageText(message);
      const before = lastText.get(id);
      lastText.set(id, { text, at: Date.now() });
      if (!before || before.text !== text || Date.now() - before.at < STABLE_MS) return;
      seen.add(id);
      lastText.delete(id);
      if (/^\s*OPERATOR_CMD\s*$/m.test(text)) relay(id, text);
    });
    place();
  }

  function place() {
    const input = site.input();
    if (!queue.length || !input) return;
    if (placed) {
      if (io.text(input).trim()) return; // the previous part is still there
      placed = null;
    }
    if (Date.now() - lastKeystroke < TYPING_MS || io.text(input).trim()) return;
    const item = queue[0];
    const text = item.parts[item.next];
    placing = true;
    try {
      io.fill(input, text);
    } finally {
      placing = false;
    }
    if (!io.text(input).trim()) return; // the page did not take it: tried again later
    placed = { message_id: item.message_id, part: item.next };
    if (!port) connect();
    port.postMessage({ kind: "accepted", message_id: item.message_id, part: item.next });
    item.next += 1;
    if (item.next >= item.parts.length) queue.shift();
    if (autoSend && !item.needs_approval) {
      setTimeout(() => site.sendButton()?.click(), 300);
    }
  }

  function typed(event) {
    if (placing) return;
    const input = site.input();
    if (input && event.target instanceof Node && input.contains(event.target)) {
      lastKeystroke = Date.now();
    }
  }

  document.addEventListener("keydown", typed, true);
  document.addEventListener("input", typed, true);
  for (const id of existing()) seen.add(id);
  connect();
  show("connected");
  setInterval(look, CHECK_MS);

  // The fallback's context menu item: the selected text, as a finished message.
  api.runtime.onMessage.addListener((message) => {
    if (message?.kind !== "relay-selection" || typeof message.text !== "string") return;
    let hash = 0;
    for (const char of message.text) hash = (hash * 31 + char.codePointAt(0)) >>> 0;
    const id = `selection-${hash.toString(16)}-${message.text.length}`;
    if (seen.has(id)) return;
    seen.add(id);
    relay(id, message.text);
  });
})();
