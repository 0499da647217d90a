// Small SVG helpers shared by the boards.
export const NS = 'http://www.w3.org/2000/svg';
export function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}
export function text(parent, x, y, str, attrs = {}) {
  const t = el('text', { x, y, ...attrs }, parent);
  t.textContent = str;
  return t;
}
export function svgPoint(svg, ev) {
  const p = svg.createSVGPoint();
  p.x = ev.clientX; p.y = ev.clientY;
  return p.matrixTransform(svg.getScreenCTM().inverse());
}
export const lower = (s) => (typeof s === 'string' ? s.toLowerCase() : s);
export function button(parent, label, onclick, cls = '', attrs = {}) {
  const b = document.createElement('button');
  b.textContent = label;
  if (cls) b.className = cls;
  for (const [k, v] of Object.entries(attrs)) b.setAttribute(k, v);
  b.onclick = onclick;
  parent.appendChild(b);
  return b;
}
export function esc(s) {
  return String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
}

/// In a group turned a quarter clockwise, turns every text back upright about its own centre
/// (so that it stays where it was drawn), but those marked `data-along` (names that run along
/// the board).
export function uprightTexts(g) {
  for (const e of g.querySelectorAll('text:not([data-along])')) {
    const b = e.getBBox();
    e.setAttribute('transform', `rotate(-90 ${b.x + b.width / 2} ${b.y + b.height / 2})`);
  }
}
