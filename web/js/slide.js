// Checker animation shared by backgammon and trictrac. Every checker a board draws carries
// `data-at` (where it stands: a point, the bar, the tray) and `data-side`, and the checkers of
// one place are drawn from the bottom of the stack up, with `data-n` for the stack's real
// count (a tall stack shows fewer circles). Before a board is drawn again, `snapshot` notes
// the counts and the top checker of every place; after, `slide` finds, side by side, the
// places that lost checkers and those that gained, and slides each gained checker from a
// place that lost one. A move made of several hops slides from its first point to its last;
// a hit checker slides to the bar. Nothing moves on the first drawing, nor for a visitor who
// asked the system for reduced motion.

function places(svg) {
  const out = new Map();
  for (const e of svg.querySelectorAll('[data-at]')) {
    const key = `${e.dataset.side}|${e.dataset.at}`;
    let p = out.get(key);
    if (!p) { p = { side: e.dataset.side, n: 0, els: [], real: null }; out.set(key, p); }
    p.els.push(e);
    if (e.dataset.n) p.real = Number(e.dataset.n);
  }
  for (const p of out.values()) p.n = p.real ?? p.els.length;
  return out;
}

function centre(e) {
  const b = e.getBBox();
  return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
}

/** The checkers on `svg` now: counts and the top checker's centre of every place. */
export function snapshot(svg) {
  const out = new Map();
  for (const [key, p] of places(svg)) out.set(key, { side: p.side, n: p.n, at: centre(p.els[p.els.length - 1]) });
  return out;
}

/** Slides the checkers that moved since `before` (a `snapshot`); returns how many slid. */
export function slide(svg, before, { duration = 260 } = {}) {
  if (!before || !before.size || window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return 0;
  const after = places(svg);
  let moved = 0;
  for (const side of ['white', 'black']) {
    const from = [];
    for (const [key, p] of before) {
      if (p.side !== side) continue;
      const lost = p.n - (after.get(key)?.n || 0);
      for (let i = 0; i < lost; i++) from.push(p.at);
    }
    const to = [];
    for (const [key, p] of after) {
      if (p.side !== side) continue;
      const gained = p.n - (before.get(key)?.n || 0);
      // The top `gained` circles are the newcomers (a capped stack shows its top one).
      for (let i = 0; i < gained; i++) to.push(p.els[Math.max(0, p.els.length - 1 - i)]);
    }
    const k = Math.min(from.length, to.length);
    for (let i = 0; i < k; i++) {
      const e = to[i];
      if (!e.animate) continue;
      const a = from[i]; const b = centre(e);
      e.animate([{ transform: `translate(${a.x - b.x}px, ${a.y - b.y}px)` }, { transform: 'translate(0px, 0px)' }], { duration, easing: 'ease-out' });
      moved++;
    }
  }
  if (moved && window.tablier) window.tablier.animations = (window.tablier.animations || 0) + 1;
  return moved;
}
