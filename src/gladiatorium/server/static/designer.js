// The designer of library items (/heroes/new): a field's problems show once it was
// touched (or after a save was pressed), not before anything is typed; Save waits
// until the item is valid (pressing it then shows every problem instead). A field
// changed since the last check was asked for hides its problems until the check's
// answer comes: they speak of its old value (a name just typed under "a hero needs a
// name"), and shown for that moment they pushed what lies below down and back up.
(function () {
  "use strict";
  const form = document.getElementById("design-form");
  if (!form) return;
  const side = document.getElementById("design-check");
  const note = document.getElementById("save-note");
  const touched = new Set();
  const changed = new Map(); // a field's name -> the number of its last change
  const values = new Map(); // a field's name -> what it held at its last change
  let changes = 0; // changes so far
  let asked = 0; // changes the check in flight was asked with
  let tried = form.dataset.tried === "yes";

  // whether an error slot speaks of the field `name` (designer.py's slot ids: err-name,
  // err-attributes, err-p0, err-p0-type ...; null: a slot of no field in particular)
  function speaksOf(key, name) {
    if (key === "hero") return true;
    if (key === "name") return name === "name";
    if (key === "attributes") return name.startsWith("attr.");
    if (key === "bought") return name.startsWith("bought.");
    const power = key.match(/^(p\d+)(?:-(\w+))?$/);
    if (power) return power[2] ? name === power[1] + "." + power[2] : name.startsWith(power[1] + ".");
    return null;
  }

  function shown(slot) {
    const key = slot.id.replace(/^err-/, "");
    for (const name of changed.keys()) if (speaksOf(key, name)) return false;
    if (tried || speaksOf(key, "") === null) return true;
    for (const name of touched) if (speaksOf(key, name)) return true;
    return false;
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

  // what a field holds: a box's own value and whether it is ticked (a group of boxes
  // shares one name), or its text
  function held(field) {
    const box = field.type === "checkbox" || field.type === "radio";
    return box ? field.value + (field.checked ? " ticked" : " not ticked") : field.value;
  }

  function touch(event) {
    const field = event.target;
    const name = field && field.name;
    if (name) {
      touched.add(name);
      // the "change" that follows the "input" of the same value (the field left) is none
      if (values.get(name) !== held(field)) {
        values.set(name, held(field));
        changed.set(name, ++changes);
      }
    }
    refresh();
  }

  // the check's answer came: the problems of the fields it was asked with are its own
  // (shown by the swap's refresh, below)
  function answered() {
    for (const [name, at] of changed) if (at <= asked) changed.delete(name);
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
  if (side) {
    side.addEventListener("htmx:beforeRequest", function (event) {
      if (event.target === side) asked = changes;
    });
    side.addEventListener("htmx:afterSwap", function (event) {
      if (event.target === side) answered();
    });
  }
  // a swap (its slots out of band too, in the same task) puts the server's slots back
  // without their marks, and the settle after it their classes: marked again each time,
  // before a paint
  document.body.addEventListener("htmx:afterSwap", refresh);
  document.body.addEventListener("htmx:afterSettle", refresh);
  refresh();
})();
