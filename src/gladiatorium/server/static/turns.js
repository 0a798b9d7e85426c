// A logged-in person's turns, live on every page: the socket /ws/me pushes
// {"type": "turns", "turns": [...]} whenever they change; the title shows their count
// ("(3) Lobby · Gladiatorium"), the lobby's "Your turn" list follows, and once the
// person allowed it (the button, never asked on load) a notification tells of a new
// turn while the tab is in the background.
(function () {
  "use strict";
  var base = document.title.replace(/^\(\d+\) /, "");
  var known = null; // "match seat" of the turns last pushed
  var wait = 1000;

  function key(turn) { return turn.match + " " + turn.seat; }

  function link(turn) {
    return "/matches/" + encodeURIComponent(turn.match) + "?seat=" + encodeURIComponent(turn.seat);
  }

  function names() {
    var button = document.getElementById("turn-alerts");
    try { return JSON.parse(button && button.dataset.names || "{}"); } catch (e) { return {}; }
  }

  function render(turns) {
    var list = document.getElementById("your-turn-list");
    if (!list) return;
    var games = names();
    list.replaceChildren();
    turns.forEach(function (turn) {
      var item = document.createElement("li");
      item.className = "card attention";
      var a = document.createElement("a");
      a.href = link(turn);
      a.textContent = (games[turn.game] || turn.game) + " ";
      var id = document.createElement("span");
      id.className = "muted";
      id.textContent = "#" + turn.match;
      a.appendChild(id);
      var seat = document.createElement("span");
      seat.className = "muted";
      seat.textContent = " seat " + turn.seat;
      item.append(a, seat);
      list.appendChild(item);
    });
    var none = document.getElementById("your-turn-none");
    if (none) none.hidden = turns.length > 0;
  }

  function tell(fresh) {
    if (!fresh.length || !document.hidden || !("Notification" in window)) return;
    if (Notification.permission !== "granted") return;
    var games = names();
    fresh.forEach(function (turn) {
      var note = new Notification("Your turn · Gladiatorium", {
        body: (games[turn.game] || turn.game) + " #" + turn.match + ", seat " + turn.seat,
        tag: key(turn),
      });
      note.onclick = function () { window.focus(); window.location.href = link(turn); };
    });
  }

  function show(turns) {
    document.title = (turns.length ? "(" + turns.length + ") " : "") + base;
    render(turns);
    if (known !== null) tell(turns.filter(function (t) { return !known.has(key(t)); }));
    known = new Set(turns.map(key));
  }

  function connect() {
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    var socket = new WebSocket(scheme + window.location.host + "/ws/me");
    socket.onopen = function () { wait = 1000; };
    socket.onmessage = function (message) {
      var data;
      try { data = JSON.parse(message.data); } catch (e) { return; }
      if (data.type === "turns" && Array.isArray(data.turns)) show(data.turns);
    };
    socket.onclose = function (closed) {
      if (closed.code === 4401 || closed.code === 4403) return; // logged out, or refused
      setTimeout(connect, wait);
      wait = Math.min(wait * 2, 30000);
    };
  }

  function offerAlerts() {
    var button = document.getElementById("turn-alerts");
    if (!button || !("Notification" in window) || Notification.permission !== "default") return;
    button.hidden = false;
    button.addEventListener("click", function () {
      Notification.requestPermission().then(function () { button.hidden = true; });
    });
  }

  offerAlerts();
  connect();
})();
