// The tips of a game's codes (a piece, a vehicle, a power): focusing or tapping an
// <abbr title> or an element marked data-tip shows its words (its title attribute or its
// SVG <title>) in a box beside it, so they are read on a phone too; a mouse also gets the
// browser's own tooltip. Escape, a tap elsewhere or a scroll hides the box.
(function () {
  "use strict";

  function words(el) {
    if (el.hasAttribute("title")) return el.getAttribute("title");
    const title = el.querySelector(":scope > title");
    return title ? title.textContent : "";
  }

  function hide() {
    const tip = document.getElementById("code-tip");
    if (tip) tip.hidden = true;
  }

  function show(el) {
    const tip = document.getElementById("code-tip");
    const text = words(el);
    if (!tip || !text) return hide();
    tip.textContent = text;
    tip.hidden = false;
    const box = el.getBoundingClientRect();
    const room = document.documentElement.clientWidth - tip.offsetWidth - 4;
    tip.style.left = Math.max(4, Math.min(box.left, room)) + "px";
    tip.style.top = box.bottom + 4 + "px";
  }

  const coded = (node) => (node instanceof Element ? node.closest("abbr[title], [data-tip]") : null);

  document.addEventListener("focusin", (event) => {
    const el = coded(event.target);
    if (el) show(el);
    else hide();
  });
  document.addEventListener("click", (event) => {
    const el = coded(event.target);
    if (el) show(el);
    else if (!(event.target instanceof Element && event.target.closest("#code-tip"))) hide();
  });
  document.addEventListener("keydown", (event) => { if (event.key === "Escape") hide(); });
  window.addEventListener("scroll", hide, { passive: true });
})();
