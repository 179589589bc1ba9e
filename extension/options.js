// The options page: pairing with the app's one-time code, and auto-send for each site
// (off by default). Everything is kept in the extension's local storage.
"use strict";

const api = globalThis.browser ?? globalThis.chrome;
const result = document.getElementById("result");

api.storage.local.get(null).then((found) => {
  if (found.port) document.getElementById("port").value = found.port;
  result.textContent = found.token ? "Paired." : "Not paired yet.";
  for (const box of document.querySelectorAll("input[data-site]")) {
    box.checked = found[`autoSend.${box.dataset.site}`] === true;
    box.addEventListener("change", () =>
      api.storage.local.set({ [`autoSend.${box.dataset.site}`]: box.checked }),
    );
  }
});

document.getElementById("pair").addEventListener("click", async () => {
  const code = document.getElementById("code").value.trim();
  const port = Number(document.getElementById("port").value) || 8765;
  result.textContent = "Pairing...";
  const answer = await api.runtime.sendMessage({ kind: "pair", code, port });
  result.textContent = answer?.ok ? "Paired." : `Not paired: ${answer?.error || "no answer"}`;
});
