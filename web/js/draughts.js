// The draughts board: 8x8, 10x10 and 12x12 by the view's size, squares numbered as FMJD does
// (1 = the first dark square of the top row seen from white), click-click and drag, legal
// destinations, the last move, a path chooser when two legal moves share start and end.
import { el, text, svgPoint, lower, button, esc } from './svg.js';
import { t } from './i18n.js';

const S = 60; // square size

export function title(s) {
  const v = s.view?.variant || s.spec.variant || 'international';
  return `${t('family.draughts')} · ${t('draughts.variant.' + v)}`;
}

// The old French rules: the view lists the huffable men, and actions other than moves
// (huff `s21`, force `f21`, ...) are kinds of their own.
const isFrench = (s) => Array.isArray(s?.view?.huffable);
const isMove = (m) => !m.kind || m.kind === 'move';
const HUFF = /^s(\d+)$/;
const FORCE = /^f(\d+)$/;

// What the opponent's last turn did to you under the old French rules: the man he huffed.
function huffedMine(s, you) {
  const log = s.log.filter((a) => a.side && !a.action.startsWith('!'));
  const other = you === 'white' ? 'black' : 'white';
  for (let i = log.length - 1; i >= 0 && log[i].side === other; i--) {
    const m = HUFF.exec(log[i].action);
    if (m) return Number(m[1]);
  }
  return null;
}

export function rowCol(sq, n) {
  const h = n / 2;
  const r = Math.floor((sq - 1) / h);
  const k = (sq - 1) % h;
  return [r, r % 2 === 0 ? 2 * k + 1 : 2 * k];
}

function squareAt(r, c, n) {
  if ((r + c) % 2 === 0) return null;
  return r * (n / 2) + Math.floor(c / 2) + 1;
}

function metaText(a) {
  const key = { '!resign': 'resign', '!draw-offer': 'draw-offer', '!draw-accept': 'draw-accept', '!draw-decline': 'draw-decline', '!flag': 'flag', '!takeback-accept': 'takeback-accept' }[a];
  return key ? t('meta.' + key) : a;
}

export function moveRows(s) {
  const rows = [];
  let row = null;
  let n = 0;
  // Moves taken back are left out; the list shows the game as it stands.
  const undone = new Set(s.undone || []);
  const log = s.log.filter((a) => !undone.has(a.n));
  const last = [...log].reverse().find((a) => a.side && !a.action.startsWith('!') && !HUFF.test(a.action) && !FORCE.test(a.action));
  // Old French rules: a huff is part of the huffer's move (as the PDN writes it); a forced
  // capture replaces the fault it corrects, which stays visible struck out.
  let prefix = { white: '', black: '' };
  for (const a of log) {
    if (a.action.startsWith('!')) {
      if (a.action === '!draw-decline' || a.action === '!draw-offer' || a.action === '!draw-accept' || a.action === '!resign' || a.action === '!flag' || a.action === '!takeback-accept')
        rows.push({ cells: [`<span class="meta">${t('side.' + a.side)} ${metaText(a.action)}</span>`], span: 2 });
      continue;
    }
    const huff = HUFF.exec(a.action);
    if (huff) { prefix[a.side] += `<span class="huff" title="${t('draughts.huff.title', { sq: huff[1] })}">${t('draughts.huff', { sq: huff[1] })}</span> `; continue; }
    const force = FORCE.exec(a.action);
    if (force) {
      const other = a.side === 'white' ? 'black' : 'white';
      if (row && row.cells.length) {
        const fault = row.cells.pop();
        prefix[other] += `<s class="fault">${fault}</s> <span class="huff">${t('draughts.forced')}</span> `;
        if (!row.cells.length) { rows.pop(); n--; row = rows.length ? rows[rows.length - 1] : null; if (row && !row.n) row = null; }
      }
      continue;
    }
    const cell = `${prefix[a.side]}<span class="${a === last ? 'last' : ''}" data-n="${a.n}">${esc(a.action)}</span>`;
    prefix[a.side] = '';
    if (!row || row.cells.length === 2) {
      n++;
      row = { n: n + '.', cells: [cell] };
      rows.push(row);
    } else row.cells.push(cell);
  }
  return rows;
}

export function playerExtra(s, side) {
  const v = s.view;
  if (!v) return '';
  let men = 0; let kings = 0;
  for (const [, sd, k] of v.pieces) if (lower(sd) === side) { if (k) kings++; else men++; }
  return t(men === 1 ? 'draughts.man' : 'draughts.men', { n: men }) + (kings ? ` · ${t(kings > 1 ? 'draughts.kings' : 'draughts.king', { n: kings })}` : '');
}

export function statusHint(s, you) {
  if (s.actor !== you || !s.view) return '';
  if (isFrench(s)) {
    const said = [];
    const huffed = huffedMine(s, you);
    if (huffed) said.push(t('draughts.huffed', { sq: huffed }));
    const huffable = s.view.legal.filter((m) => m.kind === 'huff').map((m) => m.path[0]);
    if (huffable.length) said.push(t(huffable.length > 1 ? 'draughts.huffable.many' : 'draughts.huffable.one', { sq: huffable.join(t('draughts.or')) }));
    else if (s.view.legal.some((m) => isMove(m) && m.captured.length)) said.push(t('draughts.optional'));
    return said.join('; ');
  }
  if (s.view.legal.some((m) => m.captured.length)) {
    const most = Math.max(...s.view.legal.map((m) => m.captured.length));
    return most > 1 ? t('draughts.must-capture.many', { n: most }) : t('draughts.must-capture');
  }
  return '';
}

export function resultText(s) {
  const e = s.view?.ending;
  if (!s.result || s.result.reason !== 'rules' || !e) return '';
  if (typeof e === 'object' && 'Draw' in e) return `${t('result.draw')} (${t('draughts.draw.' + e.Draw)})`;
  if (typeof e === 'object' && e.NoMove) {
    const w = lower(e.NoMove.winner);
    const you = window.tablier?.you;
    const who = you ? (w === you ? t('result.you-win') : t('result.you-lose')) : t('result.wins', { side: t('side.' + w) });
    return `${who}: ${t('draughts.no-move', { side: t('side.' + (w === 'white' ? 'black' : 'white')).toLowerCase() })}`;
  }
  return '';
}

export function create(container, controls, ctx) {
  const svg = el('svg', { class: 'board draughts' });
  container.innerHTML = '';
  container.appendChild(svg);
  let st = null; let you = null; let flipped = false; let n = 10;
  let sel = null; // selected start square
  let chosen = []; // intermediate squares clicked while choosing a path
  let ambiguous = null; // the legal moves still candidates after choosing start and end
  let drag = null;

  const myMoves = () => (st && st.actor === you && !st.result && st.view ? st.view.legal.filter(isMove) : []);
  // The old French rules' other actions (huff, force), answered with buttons.
  const myOthers = () => (st && st.actor === you && !st.result && st.view ? st.view.legal.filter((m) => !isMove(m)) : []);
  let letStand = -1; // the version at which the player chose to let a fault stand
  const xy = (sq) => {
    let [r, c] = rowCol(sq, n);
    if (flipped) { r = n - 1 - r; c = n - 1 - c; }
    return [c * S, r * S];
  };
  const sqFromPoint = (p) => {
    let c = Math.floor(p.x / S); let r = Math.floor(p.y / S);
    if (r < 0 || c < 0 || r >= n || c >= n) return null;
    if (flipped) { r = n - 1 - r; c = n - 1 - c; }
    return squareAt(r, c, n);
  };

  function lastMove() {
    const undone = new Set(st.undone || []);
    return [...st.log].reverse().find((a) => a.side && !a.action.startsWith('!') && !undone.has(a.n));
  }

  function lastSquares() {
    const last = lastMove();
    if (!last) return [];
    return last.action.split(/[-x]/).map(Number).filter((x) => x > 0);
  }

  // The opponent's last move slides from its first square to its last (one's own is already
  // where the player put it); not on the first drawing, nor for a visitor who asked the
  // system for reduced motion.
  let shownMove;
  function animateLast() {
    const last = lastMove();
    const key = last ? last.n : 0;
    if (key === shownMove) return;
    const first = shownMove === undefined;
    shownMove = key;
    if (first || !last || last.side === you || window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return;
    const sqs = lastSquares();
    if (sqs.length < 2) return;
    const from = sqs[0]; const to = sqs[sqs.length - 1];
    const p = svg.querySelector(`[data-piece="${to}"]`);
    if (!p || !p.animate) return;
    const [x1, y1] = xy(from); const [x2, y2] = xy(to);
    p.animate([{ transform: `translate(${x1 - x2}px, ${y1 - y2}px)` }, { transform: 'translate(0px, 0px)' }], { duration: 220, easing: 'ease-out' });
    if (window.tablier) window.tablier.animations = (window.tablier.animations || 0) + 1;
  }

  function piece(g, sq, side, king, extra = {}) {
    const [x, y] = xy(sq);
    const cx = x + S / 2; const cy = y + S / 2;
    const grp = el('g', { class: 'piece', 'data-piece': sq, 'data-side': side, ...extra }, g);
    el('circle', { cx, cy: cy + 2.5, r: S * 0.4, fill: 'rgba(0,0,0,.35)' }, grp);
    el('circle', { cx, cy, r: S * 0.4, class: `pc-${side}` }, grp);
    el('circle', { cx, cy, r: S * 0.29, class: `pc-ring-${side}` }, grp);
    if (king) {
      const w = S * 0.36; const h = S * 0.22;
      const y0 = cy + h / 2; const x0 = cx - w / 2;
      el('path', { d: `M${x0} ${y0} L${x0} ${y0 - h} L${x0 + w * 0.25} ${y0 - h * 0.45} L${cx} ${y0 - h * 1.15} L${x0 + w * 0.75} ${y0 - h * 0.45} L${x0 + w} ${y0 - h} L${x0 + w} ${y0} Z`, class: `crown-${side}` }, grp);
    }
    return grp;
  }

  function render(state, y, f) {
    st = state; you = y; flipped = f;
    n = st.view?.board || 10;
    const moves = myMoves();
    if (sel && !moves.some((m) => m.path[0] === sel)) { sel = null; ambiguous = null; chosen = []; }
    svg.setAttribute('viewBox', `0 0 ${n * S} ${n * S}`);
    svg.innerHTML = '';
    const g = el('g', {}, svg);
    for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
      const rr = flipped ? n - 1 - r : r; const cc = flipped ? n - 1 - c : c;
      const sq = squareAt(rr, cc, n);
      el('rect', { x: c * S, y: r * S, width: S, height: S, class: sq ? 'sq-dark' : 'sq-light', 'data-sq': sq ?? undefined }, g);
    }
    for (const sq of lastSquares()) { const [x, yy] = xy(sq); el('rect', { x, y: yy, width: S, height: S, class: 'sq-last' }, g); }
    const total = n * n / 2;
    for (let sq = 1; sq <= total; sq++) { const [x, yy] = xy(sq); text(g, x + 3, yy + 11, sq, { class: 'sq-num' }); }
    // Candidate moves from the selection.
    const cands = ambiguous || (sel ? moves.filter((m) => m.path[0] === sel) : []);
    if (sel) { const [x, yy] = xy(sel); el('rect', { x: x + 2, y: yy + 2, width: S - 4, height: S - 4, class: 'sq-sel' }, g); }
    const movable = new Set(moves.map((m) => m.path[0]));
    for (const [sq, side, king] of st.view?.pieces || []) {
      const s = lower(side);
      const p = piece(g, sq, s, king, movable.has(sq) ? { class: 'piece movable' } : {});
      if (drag && drag.sq === sq) p.setAttribute('opacity', '0.35');
    }
    // Old French rules: where your man was huffed, a cross.
    const gone = isFrench(st) && you && st.actor === you ? huffedMine(st, you) : null;
    if (gone) {
      const [x, yy] = xy(gone); const m = S * 0.3;
      el('path', { d: `M${x + m} ${yy + m} L${x + S - m} ${yy + S - m} M${x + S - m} ${yy + m} L${x + m} ${yy + S - m}`, class: 'huffed-mark', 'data-huffed': gone }, g);
    }
    // Old French rules: the men that may be huffed, ringed.
    for (const sq of st.view?.huffable || []) {
      const [x, yy] = xy(sq);
      el('circle', { cx: x + S / 2, cy: yy + S / 2, r: S * 0.46, class: 'huffable', 'data-huffable': sq }, g);
    }
    if (ambiguous) {
      // The path chooser: mark the squares that tell the remaining moves apart.
      const dist = distinguishing(ambiguous);
      for (const m of ambiguous) for (const c of m.captured) { const [x, yy] = xy(c); el('circle', { cx: x + S / 2, cy: yy + S / 2, r: S * 0.16, class: 'capt' }, g); }
      for (const sq of dist) { const [x, yy] = xy(sq); el('rect', { x: x + 6, y: yy + 6, width: S - 12, height: S - 12, rx: 8, class: 'sq-via', 'data-via': sq }, g); }
      const end = ambiguous[0].path[ambiguous[0].path.length - 1];
      const [x, yy] = xy(end); el('circle', { cx: x + S / 2, cy: yy + S / 2, r: S * 0.14, class: 'sq-dest' }, g);
    } else {
      for (const m of cands) {
        const end = m.path[m.path.length - 1];
        const [x, yy] = xy(end);
        el('circle', { cx: x + S / 2, cy: yy + S / 2, r: S * 0.14, class: 'sq-dest', 'data-dest': end }, g);
        for (const c of m.captured) { const [cx, cy] = xy(c); el('circle', { cx: cx + S / 2, cy: cy + S / 2, r: S * 0.1, class: 'capt' }, g); }
      }
    }
    if (drag && drag.pos) {
      const side = lower((st.view.pieces.find((p) => p[0] === drag.sq) || [])[1]);
      const king = (st.view.pieces.find((p) => p[0] === drag.sq) || [])[2];
      const p = piece(g, drag.sq, side, king);
      const [x, yy] = xy(drag.sq);
      p.setAttribute('transform', `translate(${drag.pos.x - x - S / 2} ${drag.pos.y - yy - S / 2})`);
      p.style.pointerEvents = 'none';
    }
    animateLast();
    renderControls();
  }

  function renderControls() {
    controls.innerHTML = '';
    if (ambiguous) {
      const h = document.createElement('span');
      h.className = 'hint';
      h.textContent = t('draughts.paths', { n: ambiguous.length });
      controls.appendChild(h);
      for (const m of ambiguous) button(controls, m.notation + (m.captured.length ? ` (${t('draughts.takes', { sq: m.captured.join(', ') })})` : ''), () => play(m), '', { 'data-move': m.notation });
      button(controls, t('common.cancel'), () => { sel = null; ambiguous = null; chosen = []; render(st, you, flipped); });
    } else if (st && st.actor === you && !st.result) {
      const others = myOthers();
      if (others.length && letStand !== st.v) {
        // Souffler, obliger à prendre, or laisser (play a move: the fault stands).
        const h = document.createElement('span');
        h.className = 'hint';
        h.textContent = t('draughts.fault');
        controls.appendChild(h);
        for (const m of others) {
          const sq = m.path[0];
          const label = m.kind === 'huff' ? t('draughts.souffler', { sq }) : m.kind === 'force' ? t('draughts.obliger', { sq }) : m.notation;
          const tip = m.kind === 'huff' ? t('draughts.souffler.title') : m.kind === 'force' ? t('draughts.obliger.title') : '';
          button(controls, label, () => play(m), '', { 'data-move': m.notation, title: tip });
        }
        button(controls, t('draughts.laisser'), () => { letStand = st.v; render(st, you, flipped); }, '', { 'data-move': 'laisser', title: t('draughts.laisser.title') });
        return;
      }
      const h = document.createElement('span');
      h.className = 'hint';
      h.textContent = sel ? t('draughts.help.selected') : t('draughts.help');
      controls.appendChild(h);
    }
  }

  function distinguishing(ms) {
    const all = ms.map((m) => new Set([...m.path.slice(1, -1), ...m.captured]));
    const out = new Set();
    for (const s of all) for (const x of s) if (!all.every((t) => t.has(x))) out.add(x);
    return [...out];
  }

  async function play(m) {
    sel = null; ambiguous = null; chosen = []; drag = null;
    await ctx.act(m.notation);
  }

  function clickSquare(sq) {
    if (!st || st.actor !== you || st.result || sq === null) return;
    const moves = myMoves();
    if (ambiguous) {
      chosen.push(sq);
      const left = ambiguous.filter((m) => m.path.slice(1, -1).includes(sq) || m.captured.includes(sq));
      if (left.length === 1) { play(left[0]); return; }
      if (left.length > 1 && left.length < ambiguous.length) ambiguous = left;
      render(st, you, flipped);
      return;
    }
    if (sel) {
      const ends = moves.filter((m) => m.path[0] === sel && m.path[m.path.length - 1] === sq);
      if (ends.length === 1) { play(ends[0]); return; }
      if (ends.length > 1) { ambiguous = ends; render(st, you, flipped); return; }
    }
    if (moves.some((m) => m.path[0] === sq)) sel = sel === sq ? null : sq;
    else sel = null;
    render(st, you, flipped);
  }

  svg.addEventListener('pointerdown', (ev) => {
    const sq = sqFromPoint(svgPoint(svg, ev));
    if (sq === null) return;
    const moves = myMoves();
    if (!ambiguous && moves.some((m) => m.path[0] === sq)) {
      drag = { sq, start: svgPoint(svg, ev), pos: null, wasSel: sel === sq };
      sel = sq;
      svg.setPointerCapture(ev.pointerId);
      render(st, you, flipped);
    } else clickSquare(sq);
  });
  svg.addEventListener('pointermove', (ev) => {
    if (!drag) return;
    const p = svgPoint(svg, ev);
    if (!drag.pos && Math.hypot(p.x - drag.start.x, p.y - drag.start.y) < 6) return;
    drag.pos = p;
    render(st, you, flipped);
  });
  svg.addEventListener('pointerup', (ev) => {
    if (!drag) return;
    const d = drag; drag = null;
    const sq = sqFromPoint(svgPoint(svg, ev));
    if (d.pos && sq !== d.sq) { clickSquare(sq); return; }
    if (!d.pos && d.wasSel) {
      // A second click on the selected piece: a capture back to its own square, or unselect.
      if (myMoves().some((m) => m.path[0] === d.sq && m.path[m.path.length - 1] === d.sq)) { clickSquare(d.sq); return; }
      sel = null;
    }
    render(st, you, flipped);
  });

  return { render };
}
