// A game's web picture, clickable. Elements of the picture carry data-acts (a JSON list
// of the legal actions they take part in) and may carry data-act (the action a plain
// click plays) and data-then (a destination: lit, and in the Tab order, only once
// something is chosen; clicked first it starts nothing). Clicking narrows the legal list
// to the actions shared by everything clicked so far: one left is played; several are
// lit on the board and offered as buttons. Elements with class "hint" are shown only
// while one of their actions is still in play (a fight's odds on a square). Enter or
// Space clicks a focused element.
// An element with data-marks (JSON: a mark -> the data-sq keys it falls on) and a key
// (its data-sq, or data-look) is looked at when selected, by anyone, spectators
// included: each of those squares gets data-mark (a vehicle's reach) and #look-caption
// says whose (data-marks-title), until another is selected, it is selected again, or
// Escape. Elements marked draggable may be dragged onto a lit element instead of two
// clicks; a search box (data-filter) filters a table's rows.
// A seat whose legal actions come as a compact form (#webpic data-form: the JSON of
// core/legal_form.py, e.g. Hero Battle's "hit two, heal one" and "guess a hero's
// player") clicks elements with data-pick ('["hit", "Ant"]': a word of the form and a
// name): the names are gathered word by word (those still possible lit) and the action
// is written and played once every word has its count; a pair's left name (a guess's
// hero) offers its right names as buttons.
//
// On a narrow screen a board (an <svg> of squares marked data-sq) whose squares would be
// under 44 px is shown whole, fitting the width (data-zoom="fit"): a tap on it zooms in
// around the tap (squares of 48 px, the board scrolling in its own box) rather than
// playing, and a button above it switches between the two; the keyboard plays as ever.
// Nothing here knows a game; playing an action clears the choice.
(() => {
  "use strict";
  let picks = [];
  let looked = null; // the key of the element whose marks are drawn

  function drawMarks() {
    const pic = document.getElementById("webpic");
    if (!pic) return;
    pic.querySelectorAll("[data-mark]").forEach((el) => el.removeAttribute("data-mark"));
    pic.querySelectorAll(".looked").forEach((el) => el.classList.remove("looked"));
    const caption = document.getElementById("look-caption");
    const key = looked === null ? "" : CSS.escape(looked);
    const source = looked === null ? null
      : pic.querySelector(`[data-marks][data-sq="${key}"], [data-marks][data-look="${key}"]`);
    if (!source) {
      looked = null;
      if (caption && caption.dataset.idle) caption.textContent = caption.dataset.idle;
      return;
    }
    source.classList.add("looked");
    let marks = {};
    try { marks = JSON.parse(source.dataset.marks || "{}"); } catch { marks = {}; }
    for (const [mark, keys] of Object.entries(marks)) {
      for (const key of keys) {
        const el = pic.querySelector(`[data-sq="${CSS.escape(key)}"]`);
        if (el) el.dataset.mark = mark;
      }
    }
    if (caption) {
      if (!caption.dataset.idle) caption.dataset.idle = caption.textContent;
      caption.textContent = source.dataset.marksTitle || "";
    }
  }

  function look(el) {
    // a new choice starts here: draw this element's marks (again: hide them when it
    // has nothing to play, so a spectator can put them away)
    const key = el.dataset.sq || el.dataset.look || null;
    looked = looked === key && !el.dataset.acts ? null : key;
    drawMarks();
  }

  const actsOf = (el) => {
    try { return JSON.parse(el.dataset.acts || "[]"); } catch { return []; }
  };
  const legalOf = (pic) => {
    try { return JSON.parse(pic.dataset.legal || "[]"); } catch { return []; }
  };
  const current = (pic) => {
    let set = new Set(legalOf(pic));
    for (const acts of picks) set = new Set(acts.filter((a) => set.has(a)));
    return set;
  };

  // ----- a compact form's picks ------------------------------------------------------
  let chosen = []; // [word, name] picked so far, in order
  let pairing = null; // the left name of a pair chosen (its right names are offered)
  const formOf = (pic) => {
    try { return pic && pic.dataset.form ? JSON.parse(pic.dataset.form) : null; } catch { return null; }
  };
  const pickOf = (el) => {
    try { return JSON.parse(el.dataset.pick); } catch { return null; }
  };
  const chooseOf = (form) => (form ? form.parts.find((p) => p.choose) : null);
  const pairOf = (form, word) => {
    const part = form ? form.parts.find((p) => p.pair && p.pair.word === word) : null;
    return part ? part.pair : null;
  };
  const openRights = (pair, left) => pair.right.filter(
    (right) => !pair.taken.some(([l, r]) => l === left && r === right));

  function canPick(form, word, name) {
    const pair = pairOf(form, word);
    if (pair) return !chosen.length && pair.left.includes(name) && openRights(pair, name).length > 0;
    const part = chooseOf(form);
    const pick = part && part.choose.find((p) => p.word === word && p.count > 0);
    if (!pick || !pick.names.includes(name)) return false;
    const mine = chosen.filter(([w]) => w === word);
    if (mine.length >= pick.count) return false;
    if (mine.some(([, n]) => n === name) && !pick.repeat.includes(name)) return false;
    return !(part.apart && chosen.some(([w, n]) => w !== word && n === name));
  }

  function written(part) {
    const words = [];
    for (const pick of part.choose) {
      if (!pick.count) continue;
      const names = chosen.filter(([w]) => w === pick.word).map(([, n]) => n);
      if (names.length < pick.count) return null;
      names.sort((a, b) => pick.names.indexOf(a) - pick.names.indexOf(b));
      words.push(`${pick.word} ${names.join(", ")}`);
    }
    return words.join(" ");
  }

  function pickEl(el) {
    const pic = document.getElementById("webpic");
    const form = formOf(pic);
    const said = pickOf(el);
    if (!form || !said) return;
    const [word, name] = said;
    picks = [];
    if (pairOf(form, word)) {
      chosen = [];
      pairing = canPick(form, word, name) ? { word, name, el } : null;
      paint();
      return;
    }
    pairing = null;
    if (!canPick(form, word, name)) chosen = [];
    if (!canPick(form, word, name)) { paint(); return; }
    chosen.push([word, name]);
    const action = written(chooseOf(form));
    if (action) { play(action); return; }
    paint();
  }

  function paintForm(pic, form) {
    const narrowed = chosen.length > 0 || pairing !== null;
    pic.querySelectorAll("[data-pick]").forEach((el) => {
      const said = pickOf(el);
      const live = said !== null && (pairing ? pairing.word === said[0] && pairing.name === said[1]
        : canPick(form, said[0], said[1]));
      el.classList.toggle("can", live && !narrowed);
      el.classList.toggle("lit", live && narrowed);
    });
    if (!narrowed) return false;
    const panel = document.getElementById("picking");
    const list = document.getElementById("pick-choices");
    if (!panel || !list) return true;
    panel.hidden = false;
    list.replaceChildren();
    const what = document.getElementById("picking-what");
    if (pairing) {
      const pair = pairOf(form, pairing.word);
      // what a choice reads as: data-right-labels ({right: words, "{left}" the left
      // name}) on an element of the picture, else the action
      const labels = {};
      pic.querySelectorAll("[data-right-labels]").forEach((el) => {
        try { Object.assign(labels, JSON.parse(el.dataset.rightLabels)); } catch { /* none */ }
      });
      what.textContent = `${pairing.word} ${pairing.name}: choose`;
      for (const right of openRights(pair, pairing.name)) {
        const action = `${pair.word} ${pairing.name}${pair.join}${right}`;
        const button = document.createElement("button");
        button.type = "button";
        button.className = "secondary pick-choice";
        button.textContent = right in labels ? labels[right].replace("{left}", pairing.name) : action;
        button.dataset.action = action;
        button.addEventListener("click", () => play(action));
        list.append(button);
      }
    } else {
      const part = chooseOf(form);
      what.textContent = part.choose.filter((p) => p.count).map((p) => {
        const names = chosen.filter(([w]) => w === p.word).map(([, n]) => n);
        const left = p.count - names.length;
        return `${p.word} ${names.join(", ") || "-"}${left ? ` (${left} more)` : ""}`;
      }).join("; ");
    }
    return true;
  }

  function play(action) {
    const form = document.getElementById("pick-form");
    const box = document.getElementById("pick-action");
    if (!form || !box) return;
    box.value = action;
    picks = [];
    chosen = [];
    pairing = null;
    looked = null;
    paint();
    drawMarks();
    if (form.requestSubmit) form.requestSubmit(); else form.submit();
  }

  function paint() {
    const pic = document.getElementById("webpic");
    if (!pic) return;
    pic.dataset.painted = "yes"; // this picture's choice is live (see the observer below)
    const set = current(pic);
    const narrowed = picks.length > 0;
    pic.querySelectorAll("[data-acts]").forEach((el) => {
      const live = actsOf(el).some((a) => set.has(a));
      el.classList.toggle("can", live && !narrowed && !el.hasAttribute("data-then"));
      el.classList.toggle("lit", live && narrowed);
      // a destination joins the Tab order once lit (one with marks to look at stays in it)
      if (el.hasAttribute("data-then") && el.hasAttribute("tabindex") && !el.hasAttribute("data-marks")) {
        el.tabIndex = live && narrowed ? 0 : -1;
      }
      if (el.classList.contains("hint")) el.classList.toggle("shown", live && narrowed);
    });
    const form = formOf(pic);
    if (form && paintForm(pic, form)) return;
    const panel = document.getElementById("picking");
    const list = document.getElementById("pick-choices");
    if (!panel || !list) return;
    panel.hidden = !narrowed;
    list.replaceChildren();
    if (!narrowed) return;
    const shown = [...set].slice(0, 60);
    // what a choice reads as: an element's data-labels ({action: words}), else the action
    const labels = {};
    document.querySelectorAll("#webpic [data-labels]").forEach((el) => {
      try { Object.assign(labels, JSON.parse(el.dataset.labels)); } catch { /* none */ }
    });
    document.getElementById("picking-what").textContent =
      `${set.size} action${set.size === 1 ? "" : "s"} left; choose on the board or here:`;
    for (const action of shown) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "secondary pick-choice";
      button.textContent = labels[action] || action;
      button.dataset.action = action;
      button.addEventListener("click", () => play(action));
      list.append(button);
    }
  }

  function choose(el) {
    const pic = document.getElementById("webpic");
    if (!pic || !pic.dataset.legal) return;
    if (el.dataset.pick) { pickEl(el); return; }
    chosen = [];
    pairing = null;
    const acts = actsOf(el);
    if (!acts.length) return;
    if (picks.length === 0 && el.hasAttribute("data-then")) return; // a destination waits
    let set = current(pic);
    let next = acts.filter((a) => set.has(a));
    if (!next.length) { picks = []; next = acts.filter((a) => legalOf(pic).includes(a)); }
    if (!next.length) return;
    const main = el.dataset.act;
    if (next.length === 1) { play(next[0]); return; }
    if (main && next.includes(main) && picks.length === 0) { play(main); return; }
    if (main && next.includes(main) && picks.length > 0 && next.every((a) => a.startsWith(main))) { play(main); return; }
    picks.push(acts);
    paint();
  }

  const CLICKABLE = "#webpic [data-acts]:not(.hint), #webpic [data-pick]";
  // ----- a big board on a phone: whole, or zoomed in (kept when the picture is replaced)
  const narrow = window.matchMedia("(max-width: 40rem)");
  const TAP = 44;
  const ZOOMED = 48;
  let zoomed = false;
  let scrolled = [0, 0];

  const boardOf = (pic) => (pic ? [...pic.querySelectorAll("svg")].find((svg) => svg.querySelector("[data-sq]")) : null);
  function squareUnits(svg) {
    const rect = svg.querySelector("[data-sq] rect");
    return rect ? rect.width.baseVal.value : 0;
  }

  function boxOf(svg) {
    if (svg.parentElement.classList.contains("board-box")) return svg.parentElement;
    const box = document.createElement("div");
    box.className = "board-box";
    svg.before(box);
    box.append(svg);
    box.addEventListener("scroll", () => { scrolled = [box.scrollLeft, box.scrollTop]; }, { passive: true });
    return box;
  }

  function applyZoom() {
    const svg = boardOf(document.getElementById("webpic"));
    if (!svg) return;
    const box = boxOf(svg);
    const units = squareUnits(svg);
    const across = svg.viewBox.baseVal ? svg.viewBox.baseVal.width : 0;
    const fitted = Math.min(box.clientWidth, zoomed ? Infinity : svg.getBoundingClientRect().width);
    const small = narrow.matches && units > 0 && across > 0 && (fitted * units) / across < TAP;
    let toggle = box.previousElementSibling;
    if (!(toggle && toggle.classList.contains("zoom-toggle"))) toggle = null;
    if (!small) {
      svg.removeAttribute("data-zoom");
      box.classList.remove("zoomed");
      ["tabindex", "role", "aria-label"].forEach((name) => box.removeAttribute(name));
      svg.style.width = "";
      if (toggle) toggle.remove();
      return;
    }
    if (!toggle) {
      toggle = document.createElement("button");
      toggle.type = "button";
      toggle.className = "secondary zoom-toggle";
      box.before(toggle);
    }
    toggle.textContent = zoomed ? "Show the whole board" : "Zoom in on the board";
    svg.dataset.zoom = zoomed ? "in" : "fit";
    box.classList.toggle("zoomed", zoomed);
    if (zoomed) { // a box that scrolls: the keyboard reaches it to scroll it
      box.tabIndex = 0;
      box.setAttribute("role", "region");
      box.setAttribute("aria-label", "The board, zoomed in");
    } else {
      ["tabindex", "role", "aria-label"].forEach((name) => box.removeAttribute(name));
    }
    svg.style.width = zoomed ? `${(across * ZOOMED) / units}px` : "";
    if (zoomed) [box.scrollLeft, box.scrollTop] = scrolled;
  }

  function zoomAt(svg, x, y) {
    // x, y: the point to show in the middle, as fractions of the board
    zoomed = true;
    applyZoom();
    const box = svg.parentElement;
    box.scrollLeft = x * svg.clientWidth - box.clientWidth / 2;
    box.scrollTop = y * svg.clientHeight - box.clientHeight / 2;
    scrolled = [box.scrollLeft, box.scrollTop];
  }

  function zoomClick(event) {
    // true when the click was the board's zoom (a tap on a whole board, or the button)
    if (!event.target.closest) return false;
    const toggle = event.target.closest("#webpic .zoom-toggle");
    const board = toggle ? null : event.target.closest('#webpic svg[data-zoom="fit"]');
    if (toggle) {
      const svg = boardOf(document.getElementById("webpic"));
      if (zoomed || !svg) { zoomed = false; applyZoom(); } else zoomAt(svg, 0.5, 0.5);
      return true;
    }
    if (!board || event.detail === 0) return false; // the keyboard (Enter) plays
    event.preventDefault();
    const r = board.getBoundingClientRect();
    zoomAt(board, (event.clientX - r.left) / r.width, (event.clientY - r.top) / r.height);
    return true;
  }
  narrow.addEventListener("change", applyZoom);
  window.addEventListener("resize", applyZoom);

  const lookerOf = (target) => (target.closest ? target.closest("#webpic [data-marks]") : null);

  document.addEventListener("click", (event) => {
    if (event.target.id === "pick-clear") { picks = []; chosen = []; pairing = null; paint(); return; }
    if (zoomClick(event)) return;
    const looker = lookerOf(event.target);
    if (looker && picks.length === 0) look(looker);
    const el = event.target.closest ? event.target.closest(CLICKABLE) : null;
    if (!el) return;
    event.preventDefault();
    choose(el);
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && (picks.length || chosen.length || pairing || looked !== null)) {
      picks = []; chosen = []; pairing = null; looked = null; paint(); drawMarks(); return;
    }
    if (event.key !== "Enter" && event.key !== " ") return;
    const looker = lookerOf(event.target);
    if (looker && picks.length === 0) {
      event.preventDefault();
      look(looker);
    }
    const el = event.target.closest ? event.target.closest(CLICKABLE) : null;
    if (!el || el.tagName === "BUTTON") return;
    event.preventDefault();
    choose(el);
  });
  // a die (any element marked draggable) dragged onto a lit element: the same two clicks
  document.addEventListener("dragstart", (event) => {
    const el = event.target.closest ? event.target.closest("#webpic [data-acts][draggable]") : null;
    if (!el) return;
    event.dataTransfer.setData("text/plain", el.textContent || "");
    event.dataTransfer.effectAllowed = "move";
    picks = [];
    choose(el);
  });
  const dropOn = (target) => (target.closest ? target.closest("#webpic .lit[data-acts]:not(.hint)") : null);
  document.addEventListener("dragover", (event) => { if (dropOn(event.target)) event.preventDefault(); });
  document.addEventListener("drop", (event) => {
    const el = dropOn(event.target);
    if (!el) return;
    event.preventDefault();
    choose(el);
  });

  // a search box (data-filter: a table's id) shows that table's rows holding its text;
  // empty, the rows marked data-extra are hidden again (static/match.js keeps what was
  // typed when the picture is replaced, and the focus)
  function applyFilter(input) {
    const table = document.getElementById(input.dataset.filter);
    if (!table) return;
    const query = input.value.trim().toLowerCase();
    table.querySelectorAll("tbody tr").forEach((row) => {
      row.hidden = query ? !row.textContent.toLowerCase().includes(query) : row.hasAttribute("data-extra");
    });
  }
  const applyFilters = () => document.querySelectorAll("#webpic input[data-filter]").forEach(applyFilter);
  document.addEventListener("input", (event) => {
    if (event.target.dataset && event.target.dataset.filter) applyFilter(event.target);
  });

  // the live part is replaced after every change (in a simultaneous round, when another
  // player moves): the choice so far stays while its actions are still legal
  new MutationObserver(() => {
    if (!document.getElementById("webpic")) return;
    const pic = document.getElementById("webpic");
    if (pic.dataset.painted !== "yes") {
      applyZoom();
      if (picks.length && current(pic).size === 0) picks = [];
      // the picks of a compact form stay while each is still possible, in order
      const form = formOf(pic);
      const kept = chosen;
      chosen = [];
      for (const [word, name] of kept) if (form && canPick(form, word, name)) chosen.push([word, name]);
      if (chosen.length !== kept.length) chosen = [];
      if (pairing && !(form && canPick(form, pairing.word, pairing.name))) pairing = null;
      if (pairing) pairing.el = pic.querySelector(`[data-pick="${CSS.escape(JSON.stringify([pairing.word, pairing.name]))}"]`) || pairing.el;
      paint();
      drawMarks();
      applyFilters();
    }
  }).observe(document.body, { childList: true, subtree: true });
  const start = () => { applyZoom(); paint(); };
  document.addEventListener("DOMContentLoaded", start);
  if (document.readyState !== "loading") start();
})();
