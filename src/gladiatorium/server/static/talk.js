// Talk on the match page: channel tabs, the messages of the chosen channel (and, where
// the game's thread reads as a forum, its moves and round posts), a box to write in.
// Messages come from the JSON API (GET /api/matches/ID/messages) and, live, as the
// socket's "message" frames (static/match.js passes them on as "talk:message"). A
// message's HTML is made by the server (safe Markdown, markup shown as text); every
// other string is set as text.
(() => {
  "use strict";
  const root = document.getElementById("talk");
  if (!root) return;
  const id = root.dataset.match;
  const seat = root.dataset.seat || null;
  let labels = {};
  try { labels = JSON.parse(root.dataset.labels || "{}"); } catch { labels = {}; }
  const base = `/api/matches/${encodeURIComponent(id)}/messages`;
  const tabs = document.getElementById("talk-tabs");
  const list = document.getElementById("talk-list");
  const form = document.getElementById("talk-form");
  const box = document.getElementById("talk-text");
  const cancel = document.getElementById("talk-cancel");
  const note = document.getElementById("talk-note");
  const EDIT_MS = 10 * 60 * 1000;

  let channels = [];
  const messages = new Map(); // id -> message
  let thread = [];
  let current = sessionStorage.getItem(`talk:${id}:${seat}`) || "all";
  let editing = null; // the id of the message being edited

  const say = (text) => { note.textContent = text || ""; };
  const label = (name) => {
    if (name === "all") return "Thread";
    if (name === "spectators") return "Spectators";
    if (name === "team") return "Team";
    if (name.startsWith("seat:")) {
      // who holds the other seat, as the page's seat list names it (a user's name)
      const other = name.slice(5);
      return `Private: ${labels[other] ? `${labels[other]} (${other})` : other}`;
    }
    return name;
  };
  const channel = () => channels.find((c) => c.name === current);
  const el = (tag, cls, text) => {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  };

  async function api(method, url, body) {
    const options = { method, headers: {}, cache: "no-store" };
    if (body !== undefined) {
      options.headers["content-type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    const reply = await fetch(url, options);
    let data = {};
    try { data = await reply.json(); } catch { data = {}; }
    if (!reply.ok) throw new Error(data.error || `refused (${reply.status})`);
    return data;
  }

  async function load() {
    const query = seat ? `?seat=${encodeURIComponent(seat)}` : "";
    try {
      const data = await api("GET", base + query);
      channels = data.channels;
      data.messages.forEach((m) => messages.set(m.id, m));
      thread = data.thread || [];
      if (!channel()) current = channels.length ? channels[0].name : "all";
      render();
    } catch (err) {
      say(`Talk: ${err.message}`);
    }
  }

  function renderTabs() {
    const had = tabs.contains(document.activeElement);
    tabs.replaceChildren();
    channels.forEach((c, index) => {
      const tab = el("button", "", label(c.name));
      tab.type = "button";
      tab.setAttribute("role", "tab");
      tab.id = `talk-tab-${index}`;
      tab.dataset.channel = c.name;
      const chosen = c.name === current;
      tab.setAttribute("aria-selected", chosen ? "true" : "false");
      tab.setAttribute("aria-controls", "talk-list");
      tab.tabIndex = chosen ? 0 : -1;
      if (c.unread && !chosen) tab.append(el("span", "badge", `${c.unread} new`));
      tabs.append(tab);
      if (chosen && had) tab.focus();
    });
    const shown = channels.findIndex((c) => c.name === current);
    if (shown >= 0) list.setAttribute("aria-labelledby", `talk-tab-${shown}`);
  }

  function messageNode(m) {
    const node = el("article", m.deleted || m.hidden ? "msg gone" : "msg");
    node.dataset.id = String(m.id);
    const head = el("header");
    head.append(el("b", "", m.from));
    if (m.seat) head.append(` (seat ${m.seat})`);
    head.append(" · ", el("time", "", new Date(m.at).toLocaleTimeString()));
    if (m.edited && !m.deleted) head.append(" · edited");
    const mine = m.seat === seat && !m.deleted && !m.hidden;
    const tools = el("span", "tools");
    if (mine && Date.now() - Date.parse(m.at) < EDIT_MS) tools.append(tool("edit", m.id));
    if (mine) tools.append(tool("delete", m.id));
    if (m.seat !== seat) tools.append(tool("mute", m.id));
    head.append(tools);
    node.append(head);
    const text = el("div", "text");
    if (m.deleted) text.textContent = "(deleted)";
    else if (m.hidden) text.textContent = "(hidden by the moderator)";
    else text.innerHTML = m.html; // made by the server: safe Markdown, markup as text
    node.append(text);
    return node;
  }

  function tool(what, messageId) {
    const button = el("button", "link", what);
    button.type = "button";
    button.dataset.tool = what;
    button.dataset.id = String(messageId);
    return button;
  }

  function itemNode(item) {
    const node = el("article", item.kind);
    if (item.kind === "post") {
      node.append(el("header", "", "Round post"));
      const text = el("div", "text");
      text.innerHTML = item.html; // made by the server, as a message's
      node.append(text);
    } else {
      node.textContent = item.text;
    }
    return node;
  }

  function render() {
    renderTabs();
    const c = channel();
    const rows = [...messages.values()].filter((m) => m.channel === current)
      .map((m) => ({ at: Date.parse(m.at), order: 1, node: () => messageNode(m) }));
    if (c && c.forum) {
      thread.forEach((item) => rows.push({ at: Date.parse(item.at), order: 0, node: () => itemNode(item) }));
    }
    rows.sort((a, b) => (a.at - b.at) || (a.order - b.order));
    const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 20;
    list.replaceChildren(...rows.map((r) => r.node()));
    if (!rows.length) list.append(el("p", "muted", "No messages yet."));
    if (atEnd) list.scrollTop = list.scrollHeight;
    form.hidden = !(c && c.post);
    markRead();
  }

  async function markRead() {
    const c = channel();
    if (!c || !c.unread) return;
    const ids = [...messages.values()].filter((m) => m.channel === current).map((m) => m.id);
    c.unread = 0;
    if (!ids.length) return;
    try {
      await api("POST", `${base}/read`, { seat, channel: current, id: Math.max(...ids) });
    } catch { /* a stranger keeps no marks */ }
  }

  function choose(name, focus) {
    current = name;
    sessionStorage.setItem(`talk:${id}:${seat}`, name);
    render();
    if (focus) {
      const tab = tabs.querySelector(`[data-channel="${CSS.escape(name)}"]`);
      if (tab) tab.focus();
    }
  }

  tabs.addEventListener("click", (event) => {
    const tab = event.target.closest("[role=tab]");
    if (tab) choose(tab.dataset.channel, false);
  });
  tabs.addEventListener("keydown", (event) => {
    const names = channels.map((c) => c.name);
    let index = names.indexOf(current);
    if (event.key === "ArrowRight") index = (index + 1) % names.length;
    else if (event.key === "ArrowLeft") index = (index - 1 + names.length) % names.length;
    else if (event.key === "Home") index = 0;
    else if (event.key === "End") index = names.length - 1;
    else return;
    event.preventDefault();
    choose(names[index], true);
  });

  list.addEventListener("click", async (event) => {
    const button = event.target.closest("button[data-tool]");
    if (!button) return;
    const messageId = Number(button.dataset.id);
    const m = messages.get(messageId);
    try {
      if (button.dataset.tool === "edit") {
        editing = messageId;
        box.value = m ? m.text : "";
        cancel.hidden = false;
        box.focus();
        say("Editing your message: Send saves it.");
      } else if (button.dataset.tool === "delete") {
        await api("DELETE", `${base}/${messageId}${seat ? `?seat=${encodeURIComponent(seat)}` : ""}`);
        say("Deleted.");
      } else if (button.dataset.tool === "mute") {
        await api("POST", `${base}/${messageId}/mute`, { seat });
        say(`You muted ${m ? m.from : "them"}.`);
        messages.clear();
        await load();
      }
    } catch (err) {
      say(err.message);
    }
  });

  cancel.addEventListener("click", () => {
    editing = null;
    box.value = "";
    cancel.hidden = true;
    say("");
  });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = box.value.trim();
    if (!text) return;
    try {
      if (editing !== null) {
        await api("PATCH", `${base}/${editing}`, { seat, text });
        editing = null;
        cancel.hidden = true;
      } else {
        const posted = await api("POST", base, { seat, channel: current, text });
        // the socket brings it; without one, look again
        setTimeout(() => { if (!messages.has(posted.id)) load(); }, 1500);
      }
      box.value = "";
      say("");
    } catch (err) {
      say(err.message);
    }
  });
  box.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      form.requestSubmit();
    }
  });

  document.addEventListener("talk:message", (event) => {
    const frame = event.detail;
    const known = messages.has(frame.message.id);
    messages.set(frame.message.id, frame.message);
    const c = channels.find((x) => x.name === frame.channel);
    if (c && !known && frame.message.seat !== seat) c.unread += 1; // the shown channel: read at once
    render();
  });

  // a move or a round post shows in a forum thread: look again (at most every half second)
  let waiting = false;
  document.addEventListener("talk:body", () => {
    if (!channels.some((c) => c.forum) || waiting) return;
    waiting = true;
    setTimeout(() => { waiting = false; load(); }, 500);
  });

  load();
})();
