// The designer of library items (/heroes/new): a field's problems show once it was
// touched (or after a save was pressed), not before anything is typed; Save waits
// until the item is valid (pressing it then shows every problem instead).
(function () {
  "use strict";
  const form = document.getElementById("design-form");
  if (!form) return;
  const side = document.getElementById("design-check");
  const note = document.getElementById("save-note");
  const touched = new Set();
  let tried = form.dataset.tried === "yes";

  function touchedWith(prefix) {
    for (const name of touched) if (name.startsWith(prefix)) return true;
    return false;
  }

  // the fields an error slot speaks of (designer.py's slot ids: err-name, err-p0-type ...)
  function shown(slot) {
    if (tried) return true;
    const key = slot.id.replace(/^err-/, "");
    if (key === "hero") return touched.size > 0;
    if (key === "name") return touched.has("name");
    if (key === "attributes") return touchedWith("attr.");
    if (key === "bought") return touchedWith("bought.");
    const power = key.match(/^(p\d+)(?:-(\w+))?$/);
    if (power) return power[2] ? touched.has(power[1] + "." + power[2]) : touchedWith(power[1] + ".");
    return true;
  }

  function valid() {
    const verdict = document.getElementById("verdict");
    return !!verdict && verdict.dataset.valid === "yes";
  }

  function refresh() {
    for (const slot of form.querySelectorAll(".field-error")) {
      slot.classList.toggle("untouched", !shown(slot));
    }
    if (side) side.classList.toggle("tried", tried);
    const ok = valid();
    for (const button of form.querySelectorAll("button.save")) {
      button.setAttribute("aria-disabled", ok ? "false" : "true");
      button.setAttribute("aria-describedby", "save-note");
    }
    if (note) note.hidden = ok;
  }

  function touch(event) {
    if (event.target && event.target.name) touched.add(event.target.name);
    refresh();
  }
  form.addEventListener("input", touch);
  form.addEventListener("change", touch);
  form.addEventListener("click", function (event) {
    const button = event.target.closest("button.save");
    if (!button || valid()) return;
    event.preventDefault(); // not valid yet: show every problem instead of saving
    tried = true;
    refresh();
    const first = form.querySelector(".field-error:not([hidden])") || side;
    if (first) first.scrollIntoView({ block: "center" });
  });
  document.body.addEventListener("htmx:afterSettle", refresh);
  refresh();
})();
