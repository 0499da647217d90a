// Dice and checker stacks shared by backgammon and trictrac.
import { el, text } from './svg.js';

const PIPS = { 1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]], 4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]], 6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]] };

export function die(g, cx, cy, v, { size = 36, used = false, side = 'white', roll = false } = {}) {
  const grp = el('g', { class: 'die' + (used ? ' used' : '') + (roll ? ' rolling' : ''), 'data-die': v }, g);
  const dark = side === 'black';
  el('rect', { x: cx - size / 2, y: cy - size / 2, width: size, height: size, rx: size * 0.18, fill: dark ? '#2c2a28' : '#fbf8f1', stroke: dark ? '#000' : '#7d6a50', 'stroke-width': 1.5, opacity: used ? 0.35 : 1 }, grp);
  for (const [dx, dy] of PIPS[v] || []) el('circle', { cx: cx + dx * size * 0.26, cy: cy + dy * size * 0.26, r: size * 0.085, fill: dark ? '#f4efe6' : '#2c2a28', opacity: used ? 0.35 : 1 }, grp);
  return grp;
}

// A stack of `count` checkers of `side` at (x, y0) growing in direction `dir` (+1 down, -1 up);
// `at` names the place for the checker animation (slide.js).
export function stack(g, x, y0, dir, count, side, { r = 21, max = 5, attrs = {}, top = null, at = null } = {}) {
  const shown = Math.min(count, max);
  const step = count > max ? (r * 2 * (max - 1)) / (shown - 1 || 1) : r * 2;
  for (let i = 0; i < shown; i++) {
    const cy = y0 + dir * (r + i * Math.min(step, r * 2));
    const place = at === null ? {} : { 'data-at': at, 'data-side': side, 'data-n': count };
    const c = el('circle', { cx: x, cy, r: r - 0.5, class: `ck-${side}`, ...place, ...attrs }, g);
    if (i === shown - 1 && top) top(c, cy);
  }
  if (count > max) {
    const cy = y0 + dir * (r + (shown - 1) * Math.min(step, r * 2));
    text(g, x, cy + 5, count, { class: `ck-n ck-n-${side}`, 'text-anchor': 'middle' });
  }
}
