// The match page, live: a WebSocket tells us when the match changed, then the
// server-rendered part (#live) is fetched again. The socket speaks typed frames
// (docs/server.md): a "body" on connect, then "delta" frames applied to the body kept
// here (the view with the vendored fast-json-patch, static/fast-json-patch.min.js),
// every ACK_EVERY-th acknowledged (the server then forgets the views before it; each
// delta is made against the last frame sent, acknowledged or not, so an acknowledgement
// of every frame would only double the messages of a busy match); a reconnecting page
// names its last ply and gets what it missed.
// Actions go over the socket; without one (the server restarting, a socket refused) a
// form is posted in the background and a refusal or an unreachable server is said in
// place: the tab never leaves for the browser's error page.
(() => {
  "use strict";
  const root = document.getElementById("match");
  if (!root) return;
  const id = root.dataset.match;
  const seat = root.dataset.seat;
  const query = seat ? `?seat=${encodeURIComponent(seat)}` : "?seat=spectator";
  const conn = document.getElementById("conn");
  const errors = document.getElementById("errors");
  let socket = null;
  let fetching = false;
  let again = false;
  let retry = 500;

  const showError = (message) => {
    errors.textContent = message || "";
    errors.hidden = !message;
  };
  const setConn = (text) => { conn.textContent = text; };

  // An action sent over the socket is answered (its events, or an error) before the
  // push of the change it made; a push alone does not say which change it shows (a
  // bot's move may come first). So an answer asks for the live part once more, fetched
  // after the answer, hence showing this action: only then is the page settled
  // (#match data-sending="no", data-acked counts the actions shown).
  let wanted = false; // an answer came: the next fetch started after it settles the page
  let acked = 0;

  // The seat's body as the frames built it (window.gladiatoriumMatch: {ply, body}), and
  // the views of the plies a delta may still build on (acknowledged but perhaps not yet
  // read by the server), with how many events the page held at each.
  let model = null;
  let kept = new Map();
  let sent = 0; // ids of the actions sent
  const ACK_EVERY = 8;
  let unacked = 0; // frames applied since the last acknowledgement

  function keep(ply, body) {
    model = { ply, body };
    window.gladiatoriumMatch = model;
    root.dataset.ply = String(ply);
    kept.set(ply, { view: body.view, count: body.events.length });
    for (const old of [...kept.keys()].sort((a, b) => a - b).slice(0, -16)) kept.delete(old);
    unacked += 1;
    if (unacked >= ACK_EVERY) {
      socket.send(JSON.stringify({ type: "ack", ply }));
      unacked = 0;
    }
  }

  function applyDelta(frame) {
    const base = model && kept.get(frame.since);
    if (!base) { socket.send(JSON.stringify({ type: "sync" })); return false; }
    let view;
    try {
      view = jsonpatch.applyPatch(structuredClone(base.view), frame.view, false, true).newDocument;
    } catch (err) {
      console.error("a delta did not apply:", err);
      socket.send(JSON.stringify({ type: "sync" }));
      return false;
    }
    for (const old of [...kept.keys()]) if (old < frame.since) kept.delete(old);
    const events = model.body.events.slice(0, base.count).concat(frame.events);
    const { awaiting, outcome } = frame;
    // the legal actions (a list, or the game's compact form with "legal" null) are
    // left out when unchanged
    const legal = "legal" in frame ? frame.legal : model.body.legal;
    const form = "legal_form" in frame ? frame.legal_form : model.body.legal_form;
    keep(frame.ply, { ...model.body, view, events, awaiting, legal, legal_form: form, outcome });
    return true;
  }

  function settled() {
    document.querySelectorAll("#live .act-form button, #live .act-form input").forEach((el) => { el.disabled = false; });
    acked += 1;
    root.dataset.acked = String(acked);
    root.dataset.sending = "no";
    if (socket && socket.readyState === WebSocket.OPEN) setConn("live");
  }

  async function fetchLive() {
    const settling = wanted;
    wanted = false;
    let reply;
    try {
      reply = await fetch(`/matches/${encodeURIComponent(id)}/live${query}`, { cache: "no-store" });
    } catch {
      reply = null;
    }
    if (!reply || !reply.ok) {
      // not answered (a restart, a rebuild): look again shortly
      if (settling) wanted = true;
      again = true;
      await new Promise((resolve) => setTimeout(resolve, retry));
      return;
    }
    const doc = new DOMParser().parseFromString(await reply.text(), "text/html");
    const fresh = doc.getElementById("live");
    const old = document.getElementById("live");
    if (fresh && old && fresh.dataset.stamp !== old.dataset.stamp) {
      const box = old.querySelector("#notation");
      const typed = box ? box.value : "";
      const refocus = focusFinder(old, document.activeElement);
      // what was typed in a search box stays (static/board.js applies it again)
      old.querySelectorAll("input[data-filter]").forEach((input) => {
        const twin = fresh.querySelector(`input[data-filter="${CSS.escape(input.dataset.filter)}"]`);
        if (twin) twin.value = input.value;
      });
      old.replaceWith(fresh);
      const newBox = fresh.querySelector("#notation");
      if (newBox && typed) newBox.value = typed;
      const target = refocus && refocus(fresh);
      if (target) target.focus({ preventScroll: true });
    }
    if (settling) settled();
  }

  // The element with the focus, found again in the new live part (the same id, square,
  // key or actions), so that a keyboard player keeps their place when another moves.
  function focusFinder(old, el) {
    if (!el || el === old || !old.contains(el)) return null;
    if (el.id) return (fresh) => fresh.querySelector(`#${CSS.escape(el.id)}`);
    for (const name of ["data-sq", "data-look", "data-acts", "name"]) {
      if (!el.hasAttribute(name)) continue;
      const value = el.getAttribute(name);
      const text = name === "data-acts" ? el.textContent : null; // buttons: by their label too
      return (fresh) => [...fresh.querySelectorAll(`${el.tagName}[${name}]`)]
        .find((other) => other.getAttribute(name) === value
          && (text === null || other.textContent === text)) || null;
    }
    return null;
  }

  async function refresh() {
    if (fetching) { again = true; return; }
    fetching = true;
    try {
      do {
        again = false;
        try {
          await fetchLive();
        } catch (err) { // never leave the page waiting on a failed refresh
          console.error("the page could not be refreshed:", err);
          if (root.dataset.sending === "yes") settled();
        }
      } while (again);
    } finally {
      fetching = false;
    }
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const params = new URLSearchParams(seat ? { seat } : {});
    params.set("frames", "2");
    if (model) params.set("ply", String(model.ply)); // a reconnection: only what was missed
    kept = model ? new Map([[model.ply, kept.get(model.ply)]]) : new Map();
    const path = `/ws/matches/${encodeURIComponent(id)}?${params}`;
    socket = new WebSocket(`${scheme}://${location.host}${path}`);
    socket.onopen = () => { retry = 500; setConn("live"); };
    socket.onmessage = (message) => {
      let data;
      try { data = JSON.parse(message.data); } catch { return; }
      if (data.type === "message") { // talk (static/talk.js)
        document.dispatchEvent(new CustomEvent("talk:message", { detail: data }));
        return;
      }
      // someone took a seat (new names), or a round's deadline was set: fetch them
      if (data.type === "seats" || data.type === "deadline") { refresh(); return; }
      if (data.type === "body") {
        kept = new Map();
        keep(data.ply, data.body);
      } else if (data.type === "delta" && !applyDelta(data)) {
        return;
      }
      if (data.type === "body" || data.type === "delta") {
        document.dispatchEvent(new CustomEvent("talk:body"));
        refresh();
      } else if (data.type && data.type !== "reply") {
        return;
      } else if ("game" in data) {
        document.dispatchEvent(new CustomEvent("talk:body"));
        refresh();
      } else if (data.error) {
        showError(data.error);
        document.querySelectorAll("#live .act-form button, #live .act-form input").forEach((el) => { el.disabled = false; });
        if (root.dataset.sending === "yes") settled();
      } else if (data.events) {
        showError("");
        wanted = true;
        refresh();
      }
    };
    socket.onclose = (event) => {
      socket = null;
      if (root.dataset.sending === "yes") { wanted = true; refresh(); } // answer lost: look
      if (event.code >= 4000) { setConn("offline"); showError(event.reason || "connection refused"); return; }
      setConn("reconnecting…");
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 10000);
    };
  }

  const UNREACHABLE = "The server cannot be reached right now, so this was not sent. "
    + "The page reconnects by itself: send it again once it says \u201clive\u201d.";

  // A form posted without the socket: in the background, the answer shown in place (a
  // refusal's message, the page fetched again, or a new page a redirect leads to).
  async function postInPlace(form, submitter) {
    const data = new FormData(form);
    if (submitter && submitter.name) data.append(submitter.name, submitter.value);
    const buttons = form.querySelectorAll("button, input");
    buttons.forEach((el) => { el.disabled = true; });
    root.dataset.posting = "yes";
    let reply = null;
    try {
      reply = await fetch(form.action, {
        method: "POST", body: new URLSearchParams(data), credentials: "same-origin",
      });
    } catch {
      reply = null;
    }
    buttons.forEach((el) => { el.disabled = false; });
    root.dataset.posting = "no";
    if (!reply || reply.status >= 500) { showError(UNREACHABLE); return; }
    const there = new URL(reply.url);
    if (reply.redirected && there.pathname !== location.pathname) { location.assign(reply.url); return; }
    if (!reply.ok) {
      const doc = new DOMParser().parseFromString(await reply.text(), "text/html");
      const said = doc.querySelector("#errors:not([hidden]), p.error");
      showError((said && said.textContent.trim()) || `Refused (${reply.status}).`);
      return;
    }
    showError("");
    refresh();
  }

  document.addEventListener("submit", (event) => {
    const form = event.target;
    const live = document.getElementById("live");
    if (event.defaultPrevented || !form.closest || !live || !live.contains(form)) return;
    const acting = form.classList.contains("act-form");
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      // a move or a round's deadline: posted in the background (a rematch posts as usual)
      if (!acting && !/\/deadline$/.test(new URL(form.action).pathname)) return;
      event.preventDefault();
      postInPlace(form, event.submitter);
      return;
    }
    if (!acting) return;
    const submitter = event.submitter;
    const action = submitter && submitter.name === "action" ? submitter.value : (form.elements.action ? form.elements.action.value : "");
    event.preventDefault();
    if (!action.trim()) return;
    sent += 1;
    socket.send(JSON.stringify({ type: "action", id: sent, action: action.trim() }));
    root.dataset.sending = "yes";
    setConn("sending…");
    showError("");
    form.querySelectorAll("button, input").forEach((el) => { el.disabled = true; });
  });

  document.addEventListener("click", async (event) => {
    const button = event.target.closest ? event.target.closest("button.copy") : null;
    if (!button) return;
    const area = document.getElementById(button.dataset.copy);
    if (!area) return;
    area.select();
    try { await navigator.clipboard.writeText(area.value); } catch { document.execCommand("copy"); }
    button.textContent = "Copied";
  });

  connect();
})();
