// The fixture pages' behaviour (a page script, as the real sites have theirs).
"use strict";

window.sent = [];

function inputText(input) {
  return "value" in input && typeof input.value === "string" ? input.value : input.innerText;
}

function clearInput(input) {
  if ("value" in input && typeof input.value === "string") input.value = "";
  else input.innerHTML = "";
}

window.setUpChat = function (shape) {
  document.querySelector(shape.send).addEventListener("click", () => {
    const input = document.querySelector(shape.input);
    const text = inputText(input);
    if (!text.trim()) return;
    window.sent.push(text);
    shape.addUser(text);
    clearInput(input);
  });
  // Streams ``text`` in ``chunks`` pieces, ``every`` ms apart, as a site writes a reply.
  // ``moveTo``: the address the page takes half-way, as a site gives a new chat its own.
  window.streamReply = function (text, chunks = 6, every = 150, moveTo = null) {
    const message = shape.startAssistant();
    const size = Math.ceil(text.length / chunks);
    return new Promise((done) => {
      let at = 0;
      const step = () => {
        at = Math.min(text.length, at + size);
        if (moveTo && at >= text.length / 2 && location.pathname !== moveTo) {
          history.pushState({}, "", moveTo);
        }
        shape.write(message, text.slice(0, at));
        if (at < text.length) setTimeout(step, every);
        else {
          shape.finish(message);
          done();
        }
      };
      setTimeout(step, every);
    });
  };
};

// A script of the page trying to reach the relay directly: what it gets back.
window.reachRelay = function (port, token) {
  return new Promise((done) => {
    const got = { opened: false, messages: [], closed: null };
    let socket;
    try {
      socket = new WebSocket(`ws://127.0.0.1:${port}`);
    } catch (error) {
      done({ ...got, closed: String(error) });
      return;
    }
    socket.onopen = () => {
      got.opened = true;
      socket.send(JSON.stringify({ type: "hello", token, site: "x", conversation: "x" }));
      socket.send(JSON.stringify({ type: "pair", code: "AAAA-AAAA" }));
    };
    // Anything the relay says is a failure of the test: reported at once.
    socket.onmessage = (event) => {
      got.messages.push(event.data);
      done(got);
    };
    socket.onclose = (event) => done({ ...got, closed: event.code });
  });
};
