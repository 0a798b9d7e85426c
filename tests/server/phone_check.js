// What a page must hold on a phone (tests/server/test_site_tour.py): nothing wider than
// the screen (each element where an overflow starts is named), every board of a game's
// picture within the width unless zoomed in (and then no word on it under 10 px), and
// every visible control at least `tap` CSS pixels both ways (a checkbox or radio button: its label; excepted: a link inside a
// sentence, a code's <abbr>, the squares of a board shown whole, whose tap zooms in).
// Returns one line per problem.
(tap) => {
  const width = document.documentElement.clientWidth;
  const out = [];
  const name = (el) => {
    const id = el.id ? '#' + el.id : '';
    const cls = el.getAttribute('class') ? '.' + el.getAttribute('class').trim().split(/\s+/).join('.') : '';
    const text = (el.getAttribute('aria-label') || el.textContent || el.value || '').replace(/\s+/g, ' ').trim().slice(0, 30);
    return `${el.tagName.toLowerCase()}${id}${cls} "${text}"`;
  };
  const clipped = (el) => {  // inside a box that scrolls or clips sideways
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      if (getComputedStyle(up).overflowX !== 'visible') return true;
    }
    return false;
  };
  if (document.documentElement.scrollWidth > width) {
    for (const el of document.body.querySelectorAll('*')) {
      const r = el.getBoundingClientRect();
      const up = el.parentElement.getBoundingClientRect();  // where the overflow starts
      if (r.width && r.right > width + 0.5 && up.right <= width + 0.5 && !clipped(el)) {
        out.push(`wider than the screen: ${name(el)} reaches ${Math.round(r.right)} px`);
      }
    }
    if (!out.length) out.push(`the page scrolls sideways (${document.documentElement.scrollWidth} px)`);
  }
  for (const svg of document.querySelectorAll('#webpic svg')) {
    const r = svg.getBoundingClientRect();
    if (svg.closest('.board-box.zoomed')) continue;
    if (r.width && (r.left < 0 || r.right > width + 0.5)) out.push(`a board does not fit: ${name(svg)}`);
  }
  // a board zoomed in is read: none of its words under 10 px (a square's hit points)
  for (const svg of document.querySelectorAll('.board-box.zoomed > svg')) {
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    for (const text of svg.querySelectorAll('text')) {
      if (!text.getClientRects().length || !text.textContent.trim()) continue;
      const px = parseFloat(getComputedStyle(text).fontSize) * scale;
      if (px < 10) out.push(`too small to read zoomed in: ${name(text)} is ${px.toFixed(1)} px`);
    }
  }
  const controls = 'a[href], button, input:not([type=hidden]), select, textarea, summary,'
    + ' [role=button], [tabindex]:not([tabindex="-1"])';
  const inSentence = (el) => [...el.parentElement.childNodes].some(
    (n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
  for (let el of document.querySelectorAll(controls)) {
    if (!el.getClientRects().length || getComputedStyle(el).visibility === 'hidden') continue;
    if (el.closest('.skip, .visually-hidden, svg[data-zoom="fit"]')) continue;
    if (el.tagName === 'ABBR' || (el.tagName === 'A' && inSentence(el))) continue;
    if (el.matches('input[type=checkbox], input[type=radio]') && el.closest('label')) el = el.closest('label');
    const r = el.getBoundingClientRect();
    if (r.width < tap - 0.5 || r.height < tap - 0.5) {
      out.push(`smaller than ${tap} px: ${name(el)} is ${Math.round(r.width)} x ${Math.round(r.height)}`);
    }
  }
  return [...new Set(out)];
}
