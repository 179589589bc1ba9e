// The extension's side of the relay: one WebSocket to LLM Operator (ws://127.0.0.1:<port>,
// the app listens on this computer only) for each chat tab, opened with the token the
// pairing gave. Page scripts never see it: content scripts reach it through a runtime
// port, and the app refuses any connection whose Origin is not an extension's.
"use strict";

const api = globalThis.browser ?? globalThis.chrome;
const DEFAULT_PORT = 8765;
const KEEP_ALIVE_MS = 20000;

async function settings() {
  const found = await api.storage.local.get(["port", "token"]);
  return { port: found.port || DEFAULT_PORT, token: found.token || null };
}

function open(port) {
  return new WebSocket(`ws://127.0.0.1:${port}`);
}

// Pairing: the one-time code the app shows, exchanged once for a token kept here.
async function pair(code, port) {
  await api.storage.local.set({ port });
  return new Promise((resolve) => {
    let ws;
    try {
      ws = open(port);
    } catch (error) {
      resolve({ ok: false, error: String(error) });
      return;
    }
    let token = null; // the app closes the connection right after it: never "refused"
    ws.onopen = () => ws.send(JSON.stringify({ type: "pair", code }));
    ws.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "paired" && typeof message.token === "string") {
        token = message.token;
        api.storage.local.set({ token }).then(() => resolve({ ok: true }));
      }
    };
    ws.onclose = (event) => {
      if (token === null) {
        resolve({ ok: false, error: event.reason || "the app refused the code (or is not running)" });
      }
    };
    ws.onerror = () => {
      if (token === null) resolve({ ok: false, error: "LLM Operator's relay is not reachable" });
    };
  });
}

// One chat tab: its runtime port on one side, its WebSocket on the other.
function serveTab(tabPort) {
  let ws = null;
  let hello = null;
  let waiting = []; // messages for the app while the connection opens
  let alive = null;

  async function connect() {
    const { port, token } = await settings();
    if (!token) {
      tabPort.postMessage({ type: "unpaired" });
      return;
    }
    ws = open(port);
    ws.onopen = () => {
      ws.send(JSON.stringify({ type: "hello", token, ...hello }));
      for (const message of waiting) ws.send(JSON.stringify(message));
      waiting = [];
      alive = setInterval(() => ws?.send(JSON.stringify({ type: "ping" })), KEEP_ALIVE_MS);
    };
    ws.onmessage = (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.type !== "pong") tabPort.postMessage(message);
    };
    ws.onclose = (event) => {
      clearInterval(alive);
      ws = null;
      if (event.code === 1008) tabPort.postMessage({ type: "error", message: event.reason });
      if (event.code === 1009) {
        tabPort.postMessage({ type: "error", message: "the message is too large for the relay" });
      }
    };
  }

  function toApp(message) {
    if (ws && ws.readyState === WebSocket.OPEN) {
      ws.send(JSON.stringify(message));
      return;
    }
    waiting.push(message);
    if (!ws) connect();
  }

  tabPort.onMessage.addListener((message) => {
    if (message.kind === "hello") {
      hello = { site: message.site, conversation: message.conversation, existing: message.existing };
      connect();
    } else if (message.kind === "reply") {
      const { conversation, message_id, text, title } = message;
      toApp({ type: "reply", conversation, message_id, text, title: title || "" });
    } else if (message.kind === "accepted") {
      toApp({ type: "accepted", message_id: message.message_id, part: message.part });
    }
  });
  tabPort.onDisconnect.addListener(() => {
    clearInterval(alive);
    ws?.close(1000);
    ws = null;
  });
}

api.runtime.onConnect.addListener((tabPort) => {
  if (tabPort.name === "relay" && tabPort.sender?.tab) serveTab(tabPort);
});

api.runtime.onMessage.addListener((message, sender, respond) => {
  // Only the extension's own pages pair (a content script's sender is the web page).
  const own = sender.id === api.runtime.id && (sender.url || "").startsWith(api.runtime.getURL(""));
  if (message?.kind === "pair" && own) {
    pair(String(message.code || ""), Number(message.port) || DEFAULT_PORT).then(respond);
    return true;
  }
  return false;
});

// The fallback for any other page: a button (menu item) on the selected message.
const MENU = "llm-operator-relay-selection";
api.runtime.onInstalled.addListener(() => {
  api.contextMenus.create({
    id: MENU,
    title: "Relay the selected reply to LLM Operator",
    contexts: ["selection"],
  });
});
api.contextMenus.onClicked.addListener(async (info, tab) => {
  if (info.menuItemId !== MENU || !tab?.id) return;
  await api.scripting.executeScript({
    target: { tabId: tab.id },
    files: ["sites/common.js", "sites/fallback.js", "content/relay.js"],
  });
  api.tabs.sendMessage(tab.id, { kind: "relay-selection", text: info.selectionText || "" });
});
