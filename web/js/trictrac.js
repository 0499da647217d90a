// The trictrac tablier: 24 flèches in four tables, the talons on the left (the petite bande),
// each player's coin de repos beside the central bande; the marker as the real board shows it:
// the points by jetons (two jetons = in bredouille) on the player's side, at 2 (between the
// first and second flèche), 4 (between the third and fourth), 6 and 8 (either side of the
// central bande), 10 (at the far bande), the holes by a fichet in the 12 holes of the
// player's long bande, the pavillon in the petite bande. A play is built die by die like
// backgammon; go / stay, marking and écoles as buttons when those actions are legal.
import { el, text, lower, button, esc, uprightTexts } from './svg.js';
import { die, stack } from './dice.js';
import { snapshot, slide } from './slide.js';
import { candidates, complete, nextHops } from './builder.js';
import { t } from './i18n.js';

// The box's geometry, in SVG units: the wide box of a desktop, or on a phone held upright the
// box turned a quarter (its flèches run down the screen) with wider flèches and shorter ones,
// so that each flèche is a finger's width (40 px and more) on a 390 px phone.
let FW; let L0; let LB; let BW; let R0; let RE; let W; let H; let RIM; let STRIP; let PH; let TOPF; let BOTF; let MID; let DICE_DY;
const R = 20;
function geometry(phone) {
  FW = phone ? 62 : 50; L0 = 64; LB = L0 + 6 * FW; BW = 40; R0 = LB + BW; RE = R0 + 6 * FW; W = RE + 34;
  H = phone ? 472 : 644; RIM = phone ? 22 : 30; STRIP = phone ? 32 : 40; PH = phone ? 160 : 200;
  TOPF = RIM + STRIP; BOTF = H - RIM - STRIP; MID = H / 2;
  DICE_DY = phone ? 0 : 38;
}
geometry(false);

// A phone held upright: the box is turned a quarter (see `geometry`).
const upright = window.matchMedia('(max-width: 600px) and (orientation: portrait)');

export function title(s) {
  const o = s.view?.options;
  const ecoles = o && lower(String(o.marking)) === 'ecoles';
  return `${t('family.trictrac')} · ${t('tt.partie')} · ${ecoles ? t('tt.ecoles') : t('tt.automatic')}`;
}

const phaseName = (p) => (typeof p === 'string' ? p : Object.keys(p || {})[0]);

export function playerExtra(s, side) {
  const m = s.view?.marker;
  if (!m) return '';
  const i = side === 'white' ? 0 : 1;
  const br = m.bredouille[i] && m.points[i] > 0 ? ` <span title="${t('tt.bredouille.title')}">(bredouille)</span>` : '';
  const pav = m.pavillon?.holder && lower(m.pavillon.holder) === side ? ' · ⚑' : '';
  return `${t('tt.holes')} <b data-holes="${side}">${m.holes[i]}</b>${pav}<br>${t('tt.points')} <b data-points="${side}">${m.points[i]}</b>${br}`;
}

export function statusHint(s, you) {
  const v = s.view;
  if (!v || s.result || s.actor !== you) return '';
  const ph = phaseName(v.phase);
  // Écoles: a claim against you is announced, with the book's word.
  const theirs = s.log.filter((a) => a.side && a.side !== you);
  const claim = theirs.length && theirs[theirs.length - 1].action.match(/^ecole (\d+)$/);
  const pre = claim ? t(claim[1] > 1 ? 'tt.claimed-you.many' : 'tt.claimed-you', { n: claim[1] }) + '; ' : '';
  const key = ph === 'Play' ? (s.legal.length === 1 && s.legal[0] === 'pass' ? 'tt.hint.pass' : 'tt.hint.Play') : `tt.hint.${ph}`;
  return pre + (['Decide', 'Play', 'MarkGains', 'MarkGiven', 'ClaimWindow', 'ContestGo', 'AfterGiven'].includes(ph) ? t(key) : '');
}

export function resultText(s) {
  const r = s.result; const v = s.view;
  if (!r || r.reason !== 'rules' || !v) return '';
  const w = lower(r.winner);
  const i = w === 'white' ? 0 : 1;
  return t('tt.wins', { side: t('side.' + w), won: v.marker.holes[i], lost: v.marker.holes[1 - i] }) + (r.points > 1 ? ` (${t('tt.stake', { n: r.points })})` : '');
}

// In écoles a player finds his points himself: while a roll's points are being marked or
// claimed, the seated players are not shown what the roll gave nor which marks are wrong
// (spectators are); both appear once the marking and the claims are over.
const SECRET_PHASES = ['MarkGains', 'MarkGiven', 'ClaimWindow', 'AfterGiven'];
export function hidesPoints(s, you) {
  return !!(s.spec?.ecoles && you && !s.result && SECRET_PHASES.includes(phaseName(s.view?.phase)));
}

// A throw's jans as the move list and the roll box write them: "+4 white battre à vrai" (the
// jans keep the book's names in every language).
const sideWord = (side) => t('side.' + lower(side)).toLowerCase();
function janText(jans) {
  return jans.map((j) => `+${j.points} ${sideWord(j.to)} ${esc(j.jan)}`).join(' · ');
}

// One event of this roll in the page's language, from its parts (view.event_parts):
// "White +4 battre à vrai (petit jan) on flèche 17, 1 way [n°131]".
function eventText(e) {
  let s = `${t('side.' + lower(e.to))} +${e.points} ${e.jan}`;
  if (e.table) s += ` (${e.table})`;
  if (e.at) s += ` ${t('tt.ev.at', { n: e.at })}`;
  if (e.ways) s += `, ${t((e.numbers ? 'tt.ev.number' : 'tt.ev.way') + (e.ways > 1 ? 's' : ''), { n: e.ways })}`;
  return `${s} [${e.paragraph}]`;
}

// Écoles, once a throw's marking and claims are over: what it gave each player, what each
// marked, and what was claimed (école) or warned of.
function ecoleSummary(s, prev) {
  const log = s.log || [];
  const rolls = [];
  log.forEach((a, i) => { if (!a.side && /^\d-\d$/.test(a.action)) rolls.push(i); });
  const k = rolls.length - (s.view?.roll ? 2 : 1);
  if (k < 0 || log[rolls[k]].action !== prev.roll) return '';
  const acts = log.slice(rolls[k] + 1, k + 1 < rolls.length ? rolls[k + 1] : log.length).filter((a) => a.side && !a.action.startsWith('!'));
  const who = (side) => t('side.' + side);
  const due = (side) => prev.jans.filter((j) => lower(j.to) === side).reduce((t, j) => t + j.points, 0);
  const said = (side, word) => acts.filter((a) => lower(a.side) === side).map((a) => a.action.match(new RegExp(`^${word} (\\d+)$`))).filter(Boolean).map((m) => Number(m[1]));
  const parts = ['white', 'black'].map((side) => {
    const marked = said(side, 'mark');
    const got = marked.length ? t('tt.sum.marked', { n: marked.reduce((a, x) => a + x, 0) }) : t('tt.sum.marked-nothing');
    return `${who(side)}: ${t('tt.sum.due', { n: due(side) })}, ${got}`;
  });
  const claims = [];
  for (const side of ['white', 'black']) {
    for (const n of said(side, 'ecole')) claims.push(t('tt.sum.ecole', { side: who(side), n }));
    if (acts.some((a) => lower(a.side) === side && a.action === 'claim')) claims.push(t('tt.sum.claim', { side: who(side) }));
    for (const n of said(side, 'warn')) claims.push(t('tt.sum.warn', { side: who(side), n }));
  }
  return `<div data-ecole-summary>${esc(parts.join('; '))} — ${esc(claims.length ? claims.join('; ') : t('tt.sum.nothing'))}</div>`;
}

export function events(s) {
  if (hidesPoints(s, window.tablier?.you)) return `<div style="color:var(--muted)" data-hidden-points>${t('tt.hidden')}</div>`;
  const ev = s.view?.event_parts ? s.view.event_parts.map(eventText) : s.view?.events || [];
  const ecoles = s.view?.ecoles || [];
  let html = '';
  // The throw before this one (the opponent's, usually) stays in view until the next throw.
  const throws = s.view?.throws || [];
  const prev = throws[throws.length - (s.view?.roll ? 2 : 1)];
  if (prev && !/^W\d B\d$/.test(prev.roll)) {
    html += `<div style="color:var(--muted)" data-previous-throw>${t('tt.previous', { roll: esc(prev.roll) })}: ${prev.jans.length ? janText(prev.jans) : t('tt.no-points')}</div>`;
    if (s.spec?.ecoles) html += ecoleSummary(s, prev);
  }
  if (ev.length) html += `<div style="color:var(--muted)">${t('tt.this-roll')}${s.view.roll ? ` (${esc(s.view.roll)})` : ''}:</div>` + ev.map((e) => `<div data-event>${esc(e)}</div>`).join('');
  if (ecoles.length) {
    html += `<div style="color:var(--muted);margin-top:.3rem">${t('tt.ecoles.head')}</div>`;
    const counts = new Map();
    for (const e of ecoles) {
      const said = t(e.trop ? 'tt.ecole.trop' : 'tt.ecole.few', { side: t('side.' + lower(e.by)), n: e.points }) + (e.open ? ` — ${t('tt.ecole.open')}` : '');
      counts.set(said, (counts.get(said) || 0) + 1);
    }
    for (const [said, n] of counts) html += `<div data-ecole>${esc(said)}${n > 1 ? ` (×${n})` : ''}</div>`;
  }
  return html;
}

const LABELS = ['go', 'stay', 'claim', 'decline', 'erase', 'oblige', 'pass'];

export function moveRows(s) {
  const rows = [];
  let dice = '';
  let n = 0;
  // The row of the current roll: the play, and in écoles the marks, claims and warnings said
  // around it (before the play, as the book has points marked before the dames are touched,
  // or after it); a mark of 0 says nothing and is left out.
  let turn = null;
  const dotOf = (side) => `<span style="display:inline-block;width:.7em;height:.7em;border-radius:50%;border:1px solid #555;background:${side === 'white' ? '#f7f3ea' : '#2a2a2a'}"></span>`;
  // Each throw's jans and points (view.throws, in the order of the dice in the log), written
  // in the row of the play they belong to; in écoles the last throw's stay hidden from the
  // seated players while its points are marked.
  const throws = s.view?.throws || [];
  const hideLast = hidesPoints(s, window.tablier?.you);
  let k = 0;
  let jans = '';
  const withJans = (row) => { if (jans) { row.cells[1] += jans; jans = ''; } };
  for (const a of s.log) {
    // The server's own entry after a restart (its clocks went on again): no move, no dice.
    if (a.action === '!resume') continue;
    if (!a.side) {
      const th = throws[k++];
      jans = th && th.jans.length && !(hideLast && k === throws.length) ? ` <span class="meta" data-jans>${janText(th.jans)}</span>` : '';
      const m = a.action.match(/^W(\d) B(\d)$/);
      if (m) { rows.push({ cells: [`<span class="meta">${t('tt.primaute', { w: m[1], b: m[2] })}</span>`], span: 2 }); dice = `${Math.max(m[1], m[2])}${Math.min(m[1], m[2])}`; }
      else dice = a.action.replace(/\D/g, '');
      turn = null;
      continue;
    }
    const said = a.action.match(/^(mark|ecole|warn) (\d+)$/) || a.action.match(/^(claim|decline|erase)$/);
    if (said) {
      const [, word, num] = said;
      if (word === 'mark' && num === '0') continue;
      if (!turn) {
        turn = { n: ++n, cells: [dice ? `<span class="dice">${dice}</span>` : '', ''] };
        rows.push(turn);
        dice = '';
        withJans(turn);
      }
      const text = t('tt.said.' + word, { n: num });
      turn.cells[1] += ` <span class="meta" data-said="${word}">· ${t('side.' + a.side).toLowerCase()} ${text}</span>`;
      continue;
    }
    const isPlay = /\d-|pass/.test(a.action) && !a.action.startsWith('!');
    let act = esc(a.action);
    if (a.action === 'go') act = t('tt.goes'); else if (a.action === 'stay') act = t('tt.stays');
    else if (a.action.startsWith('!')) act = `<span class="meta">${{ '!resign': t('meta.resign'), '!flag': t('meta.flag') }[a.action] || a.action}</span>`;
    // A click on it looks back at the position after it (game.js).
    act = `<span data-n="${a.n}">${act}</span>`;
    if (isPlay && turn && !turn.played) {
      turn.cells[0] = `${dotOf(a.side)} ${turn.cells[0]}`;
      turn.cells[1] = act + turn.cells[1];
      turn.played = true;
      continue;
    }
    const row = { n: ++n, cells: [`${dotOf(a.side)} ${isPlay && dice ? `<span class="dice">${dice}</span>` : ''}`, act] };
    if (isPlay || a.action === 'go') withJans(row);
    rows.push(row);
    if (isPlay) { dice = ''; turn = row; row.played = true; }
  }
  return rows;
}

export function create(container, controls, ctx) {
  const svg = el('svg', { class: 'board trictrac', viewBox: `0 0 ${W} ${H}` });
  container.innerHTML = '';
  container.appendChild(svg);
  upright.addEventListener('change', () => st && render(st, you, flipped));
  let st = null; let you = null; let flipped = false;
  let chosen = []; let sel = null; let builtFor = null; let lastRollKey = null; let autoPass = null;

  const viewer = () => (flipped ? 'black' : 'white');
  // Display slot: 1..12 along the bottom from the left (talon) to the right, 13..24 along the
  // top from the right back to the left.
  const slot = (a) => (viewer() === 'white' ? a : 25 - a);
  const slotX = (q) => { const k = q <= 12 ? q : 25 - q; return k <= 6 ? L0 + (k - 0.5) * FW : R0 + (k - 6.5) * FW; };
  const isTop = (q) => q > 12;

  const roller = () => lower(st.view.roller);
  const playing = () => st && !st.result && st.actor === you && phaseName(st.view.phase) === 'Play';
  const actions = () => st.view.legal.filter((a) => a.paths.length).map((a) => ({ text: a.notation, hops: a.paths.flatMap((p) => p.slice(1).map((t, i) => [p[i], t])) }));

  function localFleches() {
    const f = {};
    for (const [a, side, n] of st.view.fleches) f[a] = { side: lower(side), n };
    const off = [...st.view.off];
    const me = roller();
    for (const [a, b] of chosen) {
      f[a].n--; if (!f[a].n) delete f[a];
      if (b === 25 || b === 0) { off[me === 'white' ? 0 : 1]++; continue; }
      if (!f[b]) f[b] = { side: me, n: 0 };
      f[b].n++;
    }
    return { f, off };
  }

  function render(state, y, fl) {
    // A new position from the server: the dames that moved slide there (slide.js).
    const before = st && st.v !== state.v && flipped === fl && svg.classList.contains('turned') === upright.matches ? snapshot(svg) : null;
    st = state; you = y; flipped = fl;
    if (builtFor !== st.v) {
      chosen = []; sel = null; builtFor = st.v;
      // A forced play is laid out at once: the player only confirms it.
      if (playing() && actions().length === 1) chosen = actions()[0].hops.map((h) => [...h]);
    }
    // On a phone held upright the box is turned a quarter: drawn as on a desktop in a group
    // turned clockwise (the player's side on the left), its texts turned back upright.
    const phone = upright.matches;
    geometry(phone);
    svg.setAttribute('viewBox', phone ? `0 0 ${H} ${W}` : `0 0 ${W} ${H}`);
    svg.classList.toggle('turned', phone);
    svg.innerHTML = '';
    const g = el('g', phone ? { transform: `translate(${H} 0) rotate(90)` } : {}, svg);
    const v = st.view;
    // The box: bandes, tables, central bande.
    el('rect', { x: 0, y: 0, width: W, height: H, rx: 8, class: 'frame' }, g);
    el('rect', { x: L0, y: RIM, width: 6 * FW, height: H - 2 * RIM, class: 'felt' }, g);
    el('rect', { x: R0, y: RIM, width: 6 * FW, height: H - 2 * RIM, class: 'felt' }, g);
    el('rect', { x: LB, y: RIM, width: BW, height: H - 2 * RIM, class: 'bar' }, g);
    const moving = playing();
    const { f, off } = moving ? localFleches() : { f: Object.fromEntries(v.fleches.map(([a, s, n]) => [a, { side: lower(s), n }])), off: v.off };
    const last = lastSlots();
    for (let q = 1; q <= 24; q++) {
      const x = slotX(q); const top = isTop(q);
      const base = top ? TOPF : BOTF; const tip = top ? TOPF + PH : BOTF - PH;
      const a = viewer() === 'white' ? q : 25 - q;
      const coin = a === 12 || a === 13;
      const d = `M${x - FW / 2 + 2} ${base} L${x} ${tip} L${x + FW / 2 - 2} ${base} Z`;
      el('path', { d, class: q % 2 ? 'pt-b' : 'pt-a', 'data-pt': q }, g);
      if (last.has(q)) el('path', { d, class: 'pt-last' }, g);
      text(g, x, top ? TOPF - 5 : BOTF + 14, a, { class: 'lbl', 'text-anchor': 'middle', 'font-weight': coin ? 700 : 400 });
    }
    // Table names, faintly.
    const tname = (x, yy, s) => text(g, x, yy, s, { class: 'lbl', 'text-anchor': 'middle', opacity: 0.55, 'font-size': 10, 'data-along': 1 });
    // The tables as the bottom player names them.
    tname(L0 + 3 * FW, MID + 14, 'petit jan');
    tname(R0 + 3 * FW, MID + 14, 'grand jan');
    tname(L0 + 3 * FW, MID - 6, 'jan de retour');
    tname(R0 + 3 * FW, MID - 6, t('tt.grand-jan-opponent'));
    // Roller's moves: sources and destinations.
    const has = (a) => f[a] && f[a].side === roller() && f[a].n > 0;
    const next = moving ? nextHops(actions(), chosen, has) : [];
    const sources = new Set(next.map((h) => h[0]));
    const dests = sel !== null ? next.filter((h) => h[0] === sel).map((h) => h[1]) : [];
    const offDest = dests.find((d) => d === 0 || d === 25);
    for (const d of dests) {
      if (d === 0 || d === 25) continue;
      const q = slot(d); const x = slotX(q); const top = isTop(q);
      const base = top ? TOPF : BOTF; const tip = top ? TOPF + PH : BOTF - PH;
      el('path', { d: `M${x - FW / 2 + 2} ${base} L${x} ${tip} L${x + FW / 2 - 2} ${base} Z`, class: 'pt-dest' }, g);
    }
    // Dames.
    for (const [as, { side, n }] of Object.entries(f)) {
      const a = Number(as); const q = slot(a); const top = isTop(q);
      const cls = moving && side === roller() ? (sel === a ? 'ck-sel' : sources.has(a) ? 'ck-can' : '') : '';
      stack(g, slotX(q), top ? TOPF : BOTF, top ? 1 : -1, n, side, { r: R, max: PH >= 200 ? 5 : 4, at: `f${a}`, attrs: cls ? { class: `ck-${side} ${cls}` } : {} });
    }
    // Borne-off dames, in the petite bande: white leaves at 24 (the top left seen from white).
    for (const side of ['white', 'black']) {
      const n = off[side === 'white' ? 0 : 1];
      const topSide = (side === 'white') === (viewer() === 'white');
      for (let i = 0; i < n; i++) el('rect', { x: 8, y: topSide ? RIM + 6 + i * 9 : H - RIM - 14 - i * 9, width: 44, height: 8, rx: 2, class: `ck-${side}`, 'data-at': 'off', 'data-side': side }, g);
    }
    if (offDest !== undefined) {
      const topSide = (roller() === 'white') === (viewer() === 'white');
      el('rect', { x: 4, y: topSide ? RIM : MID, width: 52, height: MID - RIM, rx: 4, class: 'pt-dest', opacity: 0.45 }, g);
    }
    drawMarker(g, v);
    // Dice.
    const roll = (v.roll || '').replace(/\D/g, '').split('').map(Number).filter((d) => d >= 1 && d <= 6);
    if (roll.length === 2 && !st.result) {
      const mine = roller() === viewer();
      const cx = mine ? R0 + 3 * FW : L0 + 3 * FW;
      const used = usedDice(roll);
      const anim = lastRollKey !== `${st.v}:${v.roll}` && phaseName(v.phase) !== 'Decide';
      lastRollKey = `${st.v}:${v.roll}`;
      roll.forEach((d, i) => die(g, cx + (i - 0.5) * 48, MID + (mine ? DICE_DY : -DICE_DY), d, { size: 38, used: used[i], side: roller(), roll: anim }));
    }
    // Hit zones (abs numbering; 25 / 0 = off).
    if (moving) {
      for (let q = 1; q <= 24; q++) {
        const a = viewer() === 'white' ? q : 25 - q;
        const attrs = { x: slotX(q) - FW / 2, y: isTop(q) ? TOPF : BOTF - PH, width: FW, height: PH, class: 'hit', 'data-mp': a };
        if (dests.includes(a)) attrs['data-dest'] = a;
        el('rect', attrs, g).addEventListener('click', () => clickFleche(a));
      }
      const offA = roller() === 'white' ? 25 : 0;
      const topSide = (roller() === 'white') === (viewer() === 'white');
      const attrs = { x: 0, y: topSide ? RIM : MID, width: L0, height: MID - RIM, class: 'hit', 'data-mp': offA };
      if (offDest !== undefined) attrs['data-dest'] = offA;
      el('rect', attrs, g).addEventListener('click', () => clickFleche(offA));
    }
    if (phone) uprightTexts(g);
    slide(svg, before);
    renderControls();
  }

  function usedDice(roll) {
    const used = [false, false];
    for (const [a, b] of chosen) {
      const d = Math.abs((b === 25 || b === 0 ? (roller() === 'white' ? 25 : 0) : b) - a);
      let i = roll.findIndex((x, k) => !used[k] && x === d);
      if (i < 0) i = roll.findIndex((x, k) => !used[k] && x > d);
      if (i < 0) i = used.indexOf(false);
      if (i >= 0) used[i] = true;
    }
    return used;
  }

  // The marker: jetons for points on each player's side, fichets in the holes of his long bande.
  function drawMarker(g, v) {
    const m = v.marker;
    const jetonX = (p) => {
      // 0 at the petite bande (the jetons' talon), 2 between flèches 1 and 2, 4 between 3 and 4,
      // 6 against the central bande in the first table, 8 against it in the second, 10 at the far bande.
      const pts = [[0, L0 - 14], [2, L0 + FW], [4, L0 + 3 * FW], [6, LB - 12], [8, R0 + 12], [10, RE - 12], [12, RE + 16]];
      for (let i = 0; i < pts.length - 1; i++) {
        const [p0, x0] = pts[i]; const [p1, x1] = pts[i + 1];
        if (p >= p0 && p <= p1) return x0 + ((p - p0) / (p1 - p0)) * (x1 - x0);
      }
      return L0;
    };
    for (const side of ['white', 'black']) {
      const i = side === 'white' ? 0 : 1;
      const bottom = side === viewer();
      // Holes: 12 in the long bande, one opposite each flèche of the player's side.
      const hy = bottom ? H - RIM / 2 : RIM / 2;
      for (let k = 1; k <= 12; k++) el('circle', { cx: slotX(k), cy: hy, r: 4, class: 'hole' }, g);
      const h = m.holes[i];
      const fx = h === 0 ? 30 : slotX(Math.min(h, 12));
      const fg = el('g', { 'data-fichet': side, 'data-holes': h }, g);
      el('rect', { x: fx - 4, y: hy - 11, width: 8, height: 22, rx: 3, class: 'fichet' }, fg);
      el('circle', { cx: fx, cy: hy, r: 6, class: `jeton-${side}`, 'stroke-width': 2 }, fg);
      if (h > 12) text(g, fx + 14, hy + 4, `+${h - 12}`, { class: 'lbl' });
      const holder = m.pavillon?.holder ? lower(m.pavillon.holder) : null;
      if (holder === side) {
        const py = bottom ? H - RIM - 4 : RIM + 4;
        const dir = bottom ? -1 : 1;
        el('line', { x1: fx + 8, y1: hy, x2: fx + 8, y2: hy + dir * 22, stroke: '#e2c27a', 'stroke-width': 2 }, g);
        el('path', { d: `M${fx + 8} ${hy + dir * 22} l14 ${-dir * 5} l-14 ${-dir * 5} Z`, class: 'pavillon', 'data-pavillon': side }, g);
        void py;
      }
      // Jetons: one, or two side by side when the player is in bredouille.
      const p = m.points[i];
      const jy = bottom ? H - RIM - 13 : RIM + 13;
      const two = m.bredouille[i] && p > 0;
      const x = jetonX(p);
      const jg = el('g', { 'data-jetons': side, 'data-points': p, 'data-bredouille': two ? 1 : 0 }, g);
      el('circle', { cx: x, cy: jy, r: 9, class: `jeton-${side}` }, jg);
      if (two) el('circle', { cx: x + 14, cy: jy, r: 9, class: `jeton-${side}` }, jg);
      if (p % 2 === 1) text(g, x, jy + 4, p, { 'text-anchor': 'middle', 'font-size': 10, fill: side === 'white' ? '#333' : '#eee', 'pointer-events': 'none' });
    }
    if (!m.pavillon?.holder && !m.pavillon?.lost) {
      // The pavillon waits in the middle hole of the petite bande.
      el('line', { x1: 30, y1: MID + 10, x2: 30, y2: MID - 14, stroke: '#e2c27a', 'stroke-width': 2 }, g);
      el('path', { d: `M30 ${MID - 14} l14 5 l-14 5 Z`, class: 'pavillon', 'data-pavillon': 'free' }, g);
    }
  }

  function lastSlots() {
    const out = new Set();
    const last = [...st.log].reverse().find((a) => a.side && /\d-/.test(a.action) && !a.action.startsWith('mark'));
    if (!last) return out;
    for (const n of last.action.match(/\d+/g) || []) { const a = Number(n); if (a >= 1 && a <= 24) out.add(slot(a)); }
    return out;
  }

  function clickFleche(a) {
    const { f } = localFleches();
    const has = (x) => f[x] && f[x].side === roller() && f[x].n > 0;
    const next = nextHops(actions(), chosen, has);
    if (sel !== null) {
      const h = next.find((x) => x[0] === sel && x[1] === a);
      if (h) { chosen.push(h); sel = null; render(st, you, flipped); return; }
    }
    const from = next.filter((x) => x[0] === a);
    if (!from.length) { sel = null; render(st, you, flipped); return; }
    const targets = [...new Set(from.map((x) => x[1]))];
    if (targets.length === 1) { chosen.push(from[0]); sel = null; } else sel = sel === a ? null : a;
    render(st, you, flipped);
  }

  function renderControls() {
    controls.innerHTML = '';
    if (!st || st.result || st.actor !== you) return;
    const legal = st.legal;
    const ph = phaseName(st.view.phase);
    if (ph === 'Play' && actions().length) {
      const done = complete(actions(), chosen);
      button(controls, t('bg.undo'), () => { chosen.pop(); sel = null; render(st, you, flipped); }, '', { id: 'tt-undo' }).disabled = !chosen.length;
      const end = button(controls, done ? t('bg.end-turn.play', { play: done.text }) : t('bg.end-turn'), () => done && ctx.act(done.text), 'primary', { id: 'tt-end' });
      end.disabled = !done;
      if (!done && chosen.length && !candidates(actions(), chosen).length) { const h = document.createElement('span'); h.className = 'hint'; h.textContent = t('bg.not-legal'); controls.appendChild(h); }
    }
    if (legal.length === 1 && legal[0] === 'pass' && autoPass !== st.v) {
      // Nothing can be played: pass by itself after a moment.
      autoPass = st.v;
      const v = st.v;
      setTimeout(() => { if (st.v === v && st.actor === you) ctx.act('pass'); }, 1500);
    }
    const words = legal.filter((w) => !/^\d/.test(w));
    const groups = {};
    for (const w of words) {
      const m = w.match(/^(mark|ecole|warn) (\d+)$/);
      if (m) (groups[m[1]] ||= []).push(Number(m[2]));
      else button(controls, LABELS.includes(w) ? t('tt.act.' + w) : w, () => ctx.act(w), w === 'go' || w === 'pass' ? 'primary' : '', { 'data-act': w });
    }
    const gl = { mark: t('tt.mark'), ecole: t('tt.ecole.of'), warn: t('tt.warn.of') };
    // Marking, warning and claiming an école take a number of points: one list of numbers for
    // all, with a button for each (enabled for the numbers the rules allow it).
    const pickers = ['mark', 'warn', 'ecole'].filter((k) => groups[k]);
    if (pickers.some((k) => groups[k].length > 6)) {
      const nums = [...new Set(pickers.flatMap((k) => groups[k]))].sort((a, b) => a - b);
      const pick = document.createElement('select');
      pick.setAttribute('aria-label', t('tt.points'));
      for (const n of nums) { const o = document.createElement('option'); o.value = n; o.textContent = t(n === 1 ? 'bg.point' : 'bg.points', { n }); pick.appendChild(o); }
      controls.append(pick);
      const bs = pickers.map((k) => [k, button(controls, { mark: t('tt.mark'), warn: t('tt.warn'), ecole: t('tt.ecole.claim') }[k], () => ctx.act(`${k} ${pick.value}`), k === 'mark' ? 'primary' : '', { 'data-act-group': k })]);
      const update = () => { for (const [k, b] of bs) b.disabled = !groups[k].includes(Number(pick.value)); };
      pick.addEventListener('change', update);
      update();
      for (const k of pickers) delete groups[k];
    }
    if (legal.some((w) => w.startsWith('warn '))) {
      // The book's "je ne marque pas" (n°176), which a new player cannot guess.
      const h = document.createElement('div');
      h.className = 'hint';
      h.setAttribute('data-warn-help', '');
      h.textContent = t('tt.warn.help');
      controls.appendChild(h);
    }
    for (const [k, nums] of Object.entries(groups)) {
      if (nums.length <= 6) { for (const n of nums) button(controls, `${gl[k]} ${n}`, () => ctx.act(`${k} ${n}`), k === 'mark' ? 'primary' : '', { 'data-act': `${k} ${n}` }); continue; }
      const sel2 = document.createElement('select');
      for (const n of nums) { const o = document.createElement('option'); o.value = n; o.textContent = n; sel2.appendChild(o); }
      const lbl = document.createElement('span'); lbl.className = 'hint'; lbl.textContent = gl[k];
      controls.append(lbl, sel2);
      button(controls, 'OK', () => ctx.act(`${k} ${sel2.value}`), 'primary', { 'data-act-group': k });
    }
  }

  return { render };
}
