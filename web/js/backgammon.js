// The backgammon board: 24 points, bar, trays, dice, the cube; a turn is built die by die from
// the legal plays' hops, with undo and "end turn"; roll, double, take, drop, beaver and
// resignation offers as buttons when those actions are legal.
import { el, text, lower, button, esc, uprightTexts } from './svg.js';
import { die, stack } from './dice.js';
import { snapshot, slide } from './slide.js';
import { candidates, complete, nextHops } from './builder.js';
import { t } from './i18n.js';

// The board's geometry, in SVG units: the wide board of a desktop, or on a phone held upright
// the board turned a quarter (its points run down the screen) with wider points and
// shorter ones, so that each point is a finger's width (40 px and more) on a 390 px phone.
let PW; let LX; let BX; let BW; let RX; let RE; let TOP; let BOT; let PH; let MID; let W; let H; let BARMAX;
const R = 20;
function geometry(phone) {
  PW = phone ? 56 : 48; LX = 68; BX = LX + 6 * PW; BW = 48; RX = BX + BW; RE = RX + 6 * PW;
  W = RE + 98;
  H = phone ? 440 : 560; TOP = phone ? 22 : 32; BOT = H - TOP; PH = phone ? 170 : 200; MID = H / 2;
  BARMAX = phone ? 3 : 4;
}
geometry(false);

export const ownResign = true;

// A phone held upright: the board is turned a quarter (see `geometry`).
const upright = window.matchMedia('(max-width: 600px) and (orientation: portrait)');

export function title(s) {
  const v = s.view;
  const o = v?.options || {};
  let head = `${t('family.backgammon')} · ` + (o.match_length ? t('bg.match-to', { n: o.match_length }) : t('bg.money'));
  if (v?.crawford_game) head += ` · ${t('bg.crawford-game')}`;
  return head;
}

// The phase is `{"phase": "moving", "roll": [5, 2]}` (snake_case, internally tagged).
const phaseName = (p) => (typeof p === 'string' ? p : p?.phase);
const rollOf = (v) => (phaseName(v?.phase) === 'moving' || phaseName(v?.phase) === 'resigning' ? v.phase.roll : null);

export function playerExtra(s, side) {
  const v = s.view;
  if (!v) return '';
  const i = side === 'white' ? 0 : 1;
  const pips = i === 0 ? v.pips[0] : v.pips[1];
  let html = `${t('bg.pips')} <b data-pips="${side}">${pips}</b>`;
  if (v.options.match_length) html += `<br>${t('bg.score')} <b data-score="${side}">${v.score[i]}</b> / ${v.options.match_length}`;
  return html;
}

export function statusHint(s, you) {
  const v = s.view;
  if (!v || s.result) return '';
  const ph = phaseName(v.phase);
  if (ph === 'doubled') return s.actor === you ? t('bg.doubled-you', { n: v.cube * 2 }) : t('bg.doubled', { n: v.cube * 2 });
  if (ph === 'resigning') { const o = t('bg.kind.' + lower(v.phase.offer)); return s.actor === you ? t('bg.resigns-you', { kind: o }) : t('bg.resigns', { kind: o }); }
  if (s.actor !== you) return '';
  const mine = s.log.filter((a) => a.side && a.action !== 'roll');
  const lastTwo = mine.slice(-2).map((a) => a.action);
  if (lastTwo.length === 2 && lastTwo[0].startsWith('resign ') && lastTwo[1] === 'reject') return t('bg.rejected', { kind: t('bg.kind.' + lastTwo[0].slice(7)) });
  if (ph === 'before_roll') return s.legal.includes('double') ? t('bg.roll-or-double') : t('bg.roll');
  if (ph === 'moving') return t('bg.moving');
  return '';
}

const kindText = (k) => t('bg.a.' + lower(k));

export function resultText(s) {
  const v = s.view;
  const r = s.result;
  if (!r || r.reason !== 'rules' || !v) return '';
  const last = v.results[v.results.length - 1];
  const who = (side) => t('side.' + side);
  // The winner's score first, as players say it ("wins the match 5–3").
  const w = lower(r.winner) === 'white' ? 0 : 1;
  if (v.options.match_length) return t('bg.wins-match', { side: who(lower(r.winner)), score: `${v.score[w]}–${v.score[1 - w]}` }) + (last ? ` (${t('bg.last-game', { kind: kindText(last.kind) })}${last.dropped ? `, ${t('bg.dropped')}` : ''})` : '');
  if (!last) return '';
  return `${t('bg.wins', { side: who(lower(last.winner)), kind: kindText(last.kind) })}${last.dropped ? ` (${t('bg.dropped')})` : ''}${last.resigned ? ` (${t('bg.resignation')})` : ''} — ${t(last.points > 1 ? 'bg.points' : 'bg.point', { n: last.points })}`;
}

export function moveRows(s) {
  const rows = [];
  let dice = '';
  let game = 0;
  let n = 0;
  let tied = false; // the last opening throw was a tie: the next one is the same game's
  for (const a of s.log) {
    // The server's own entry after a restart (its clocks went on again): no move, no dice.
    if (a.action === '!resume') continue;
    if (!a.side) {
      if (a.action.startsWith('opening')) {
        const [w, b] = a.action.replace('opening ', '').split('-');
        if (!tied) {
          game++;
          if (s.view?.options?.match_length || game > 1) rows.push({ cells: [`<span class="meta">${t('bg.game', { n: game })}</span>`], span: 2 });
        }
        tied = w === b;
        rows.push({ cells: [`<span class="meta">${t('bg.opening', { w, b })}${tied ? ` — ${t('bg.tie')}` : ''}</span>`], span: 2 });
        dice = tied ? '' : `${Math.max(w, b)}${Math.min(w, b)}`;
      } else dice = a.action.replace('-', '');
      continue;
    }
    if (a.action === 'roll') continue;
    const dot = `<span class="dot ${a.side}" style="display:inline-block;width:.7em;height:.7em;border-radius:50%;border:1px solid #555;background:${a.side === 'white' ? '#f7f3ea' : '#2a2a2a'}"></span>`;
    let act = esc(a.action);
    if (a.action.startsWith('!')) act = `<span class="meta">${{ '!resign': t('meta.resign'), '!flag': t('meta.flag') }[a.action] || a.action}</span>`;
    else if (a.action === '-') act = `<span class="meta">${t('bg.no-move')}</span>`;
    // A click on it looks back at the position after it (game.js).
    act = `<span data-n="${a.n}">${act}</span>`;
    const isPlay = dice && !['double', 'take', 'drop', 'beaver', 'accept', 'reject'].includes(a.action) && !a.action.startsWith('resign') && !a.action.startsWith('!');
    rows.push({ n: ++n, cells: [`${dot} ${isPlay ? `<span class="dice">${dice}</span>` : ''}`, act] });
    if (isPlay) dice = '';
  }
  return rows;
}

export function create(container, controls, ctx) {
  const svg = el('svg', { class: 'board backgammon', viewBox: `0 0 ${W} ${H}` });
  container.innerHTML = '';
  container.appendChild(svg);
  upright.addEventListener('change', () => st && render(st, you, flipped));
  let st = null; let you = null; let flipped = false;
  let chosen = []; let sel = null; let builtFor = null; let lastRollKey = null; let autoPass = null;
  let resignOpen = -1; // the version at which the resignation choice was opened
  let autoRolled = null; // the version at which the dice were thrown by themselves
  const autoRoll = () => localStorage.getItem('tablier:autoroll') !== 'off';

  const viewer = () => (flipped ? 'black' : 'white');
  // Display slot (1 = the viewer's bottom-right point) of a point in white's numbering.
  const slot = (p) => (viewer() === 'white' ? p : 25 - p);
  const pointX = (q) => (q <= 6 ? RE - (q - 0.5) * PW : q <= 12 ? BX - (q - 6.5) * PW : q <= 18 ? LX + (q - 12.5) * PW : RX + (q - 18.5) * PW);
  const isTop = (q) => q > 12;

  function moverSide() { return lower(st.view.turn); }
  // Mover's numbering <-> white's numbering for points 1..24.
  const toWhite = (mp) => (moverSide() === 'white' ? mp : 25 - mp);

  // The position after the chosen hops, in white's numbering: board[26] like the view's.
  function localBoard() {
    const b = [...st.view.board];
    const off = [...st.view.off];
    const white = moverSide() === 'white';
    const sign = white ? 1 : -1;
    for (const [f, t] of chosen) {
      const fi = f === 25 ? (white ? 25 : 0) : toWhite(f);
      b[fi] -= sign;
      if (t === 0) { off[white ? 0 : 1]++; continue; }
      const ti = toWhite(t);
      if (b[ti] === -sign) { b[ti] = 0; b[white ? 0 : 25] -= sign; }
      b[ti] += sign;
    }
    return { b, off };
  }

  function myTurnToMove() {
    return st && !st.result && st.actor === you && phaseName(st.view.phase) === 'moving';
  }

  function actions() { return st.view.actions.filter((a) => a.hops.length); }

  function has(b) {
    const white = moverSide() === 'white';
    return (mp) => {
      if (mp === 25) return white ? b[25] > 0 : b[0] < 0;
      const v = b[toWhite(mp)];
      return white ? v > 0 : v < 0;
    };
  }

  function usedDice(roll) {
    const dice = roll[0] === roll[1] ? [roll[0], roll[0], roll[0], roll[0]] : [roll[0], roll[1]];
    const used = dice.map(() => false);
    for (const [f, t] of chosen) {
      const d = t === 0 ? f : f - t;
      let i = dice.findIndex((x, k) => !used[k] && x === d);
      if (i < 0) i = dice.findIndex((x, k) => !used[k] && x > d);
      if (i < 0) i = used.indexOf(false);
      if (i >= 0) used[i] = true;
    }
    return { dice, used };
  }

  function render(state, y, f) {
    // A new position from the server: the checkers that moved slide there (slide.js).
    const before = st && st.v !== state.v && flipped === f && svg.classList.contains('turned') === upright.matches ? snapshot(svg) : null;
    st = state; you = y; flipped = f;
    const key = `${st.v}`;
    if (builtFor !== key) {
      chosen = []; sel = null; builtFor = key;
      // A forced play is laid out at once: the player only confirms it.
      if (myTurnToMove() && actions().length === 1) chosen = actions()[0].hops.map((h) => [...h]);
    }
    // On a phone held upright the board is turned a quarter: drawn as on a desktop in a group
    // turned clockwise (the player's side on the left, his home board at the bottom), its
    // texts turned back upright.
    const phone = upright.matches;
    geometry(phone);
    svg.setAttribute('viewBox', phone ? `0 0 ${H} ${W}` : `0 0 ${W} ${H}`);
    svg.classList.toggle('turned', phone);
    svg.innerHTML = '';
    const g = el('g', phone ? { transform: `translate(${H} 0) rotate(90)` } : {}, svg);
    const v = st.view;
    // Frame, felt, points.
    el('rect', { x: 56, y: 4, width: RE + 12 - 56, height: H - 8, rx: 6, class: 'frame' }, g);
    el('rect', { x: LX, y: TOP, width: 6 * PW, height: BOT - TOP, class: 'felt' }, g);
    el('rect', { x: RX, y: TOP, width: 6 * PW, height: BOT - TOP, class: 'felt' }, g);
    el('rect', { x: BX, y: 4, width: BW, height: H - 8, class: 'bar' }, g);
    el('rect', { x: RE + 22, y: TOP, width: 56, height: PH, rx: 4, class: 'tray' }, g);
    el('rect', { x: RE + 22, y: BOT - PH, width: 56, height: PH, rx: 4, class: 'tray' }, g);
    const lastSlots = lastMoveSlots();
    for (let q = 1; q <= 24; q++) {
      const x = pointX(q);
      const top = isTop(q);
      const base = top ? TOP : BOT;
      const tip = top ? TOP + PH - 10 : BOT - PH + 10;
      el('path', { d: `M${x - PW / 2 + 1} ${base} L${x} ${tip} L${x + PW / 2 - 1} ${base} Z`, class: q % 2 ? 'pt-b' : 'pt-a', 'data-pt': q }, g);
      if (lastSlots.has(q)) el('path', { d: `M${x - PW / 2 + 1} ${base} L${x} ${tip} L${x + PW / 2 - 1} ${base} Z`, class: 'pt-last' }, g);
      // Numbered from the viewer's side, as each player counts his own points.
      text(g, x, top ? TOP - 9 : H - 12, q, { class: 'pt-num', 'text-anchor': 'middle' });
    }
    const { b, off } = myTurnToMove() ? localBoard() : { b: v.board, off: v.off };
    const moving = myTurnToMove();
    const next = moving ? nextHops(actions(), chosen, has(b)) : [];
    const sources = new Set(next.map((h) => h[0]));
    const dests = sel !== null ? next.filter((h) => h[0] === sel).map((h) => h[1]) : [];
    // Highlights.
    const slotOfMp = (mp) => slot(toWhite(mp));
    if (moving && sel !== null && sel !== 25) {
      const q = slotOfMp(sel); const x = pointX(q);
      el('rect', { x: x - PW / 2, y: isTop(q) ? TOP : BOT - PH, width: PW, height: PH, class: 'pt-from' }, g);
    }
    for (const d of dests) {
      if (d === 0) { el('rect', { x: RE + 22, y: viewer() === moverSide() ? BOT - PH : TOP, width: 56, height: PH, rx: 4, class: 'pt-dest', opacity: 0.45 }, g); continue; }
      const q = slotOfMp(d); const x = pointX(q);
      const top = isTop(q); const base = top ? TOP : BOT; const tip = top ? TOP + PH - 10 : BOT - PH + 10;
      el('path', { d: `M${x - PW / 2 + 1} ${base} L${x} ${tip} L${x + PW / 2 - 1} ${base} Z`, class: 'pt-dest' }, g);
    }
    // Checkers on points.
    for (let wp = 1; wp <= 24; wp++) {
      const n = b[wp];
      if (!n) continue;
      const side = n > 0 ? 'white' : 'black';
      const q = slot(wp);
      const top = isTop(q);
      const mp = moving ? (moverSide() === 'white' ? wp : 25 - wp) : null;
      const cls = mp !== null && side === moverSide() ? (sel === mp ? 'ck-sel' : sources.has(mp) ? 'ck-can' : '') : '';
      stack(g, pointX(q), top ? TOP : BOT, top ? 1 : -1, Math.abs(n), side, { r: R, max: PH >= 200 ? 5 : 4, at: `p${wp}`, attrs: cls ? { class: `ck-${side} ${cls}` } : {} });
    }
    // Bar: the viewer's checkers in the upper half, the opponent's in the lower.
    const barX = BX + BW / 2;
    const bars = { white: b[25], black: -b[0] };
    for (const side of ['white', 'black']) {
      const n = bars[side];
      if (n <= 0) continue;
      const up = side === viewer();
      const mp = moving && side === moverSide() ? 25 : null;
      const cls = mp !== null ? (sel === 25 ? 'ck-sel' : sources.has(25) ? 'ck-can' : '') : '';
      stack(g, barX, up ? MID - 40 : MID + 40, up ? -1 : 1, n, side, { r: R, max: BARMAX, at: 'bar', attrs: cls ? { class: `ck-${side} ${cls}` } : {} });
    }
    // Borne off: the viewer's at the bottom tray.
    for (const side of ['white', 'black']) {
      const n = off[side === 'white' ? 0 : 1];
      const bottom = side === viewer();
      for (let i = 0; i < n; i++) {
        const step = Math.min(12.6, (PH - 8) / 15);
        const yy = bottom ? BOT - 4 - (i + 1) * step : TOP + 4 + i * step;
        el('rect', { x: RE + 27, y: yy, width: 46, height: step - 1.6, rx: 3, class: `ck-${side}`, 'data-at': 'off', 'data-side': side }, g);
      }
      if (n) text(g, RE + 50, bottom ? BOT - PH - 6 : TOP + PH + 16, `${n} off`, { class: 'info2', 'text-anchor': 'middle' });
    }
    // The cube.
    if (v.options.cube) {
      const owner = v.cube_owner ? lower(v.cube_owner) : null;
      const cy = owner === null ? MID : owner === viewer() ? BOT - 28 : TOP + 28;
      const cg = el('g', { class: 'cube', 'data-cube': v.cube, 'data-owner': owner || 'centre' }, g);
      el('rect', { x: 10, y: cy - 20, width: 40, height: 40, rx: 5 }, cg);
      text(cg, 30, cy + 7, owner === null && v.cube === 1 ? 64 : v.cube, { 'text-anchor': 'middle' });
      if (phaseName(v.phase) === 'doubled') text(g, 30, cy + 36, `→ ${v.cube * 2}`, { class: 'info2', 'text-anchor': 'middle', 'font-weight': 700 });
    }
    // Pips beside the trays.
    const pv = (side) => v.pips[side === 'white' ? 0 : 1];
    text(g, RE + 50, MID - 8, `${pv(viewer() === 'white' ? 'black' : 'white')}`, { class: 'info2', 'text-anchor': 'middle' });
    text(g, RE + 50, MID + 6, t('bg.pips'), { class: 'info2 small', 'text-anchor': 'middle' });
    text(g, RE + 50, MID + 22, `${pv(viewer())}`, { class: 'info2', 'text-anchor': 'middle' });
    if (v.options.match_length) {
      text(g, 30, 34, `${v.options.match_length}pt`, { class: 'info2', 'text-anchor': 'middle' });
      if (v.crawford_game) text(g, 30, H - 20, 'Crawford', { class: 'info2 warn', 'text-anchor': 'middle' });
    }
    // Dice: the mover's, on his side of the board (the viewer's right half).
    const roll = rollOf(v);
    if (roll) {
      const { dice, used } = usedDice(roll);
      const mine = moverSide() === viewer();
      const cx = mine ? (RX + RE) / 2 : (LX + BX) / 2;
      const rk = `${st.v}`;
      const anim = lastRollKey !== rk;
      lastRollKey = rk;
      const n = dice.length;
      dice.forEach((d, i) => die(g, cx + (i - (n - 1) / 2) * 46, MID, d, { size: 38, used: used[i], side: moverSide(), roll: anim }));
    }
    // Hit zones.
    if (moving) {
      for (let q = 1; q <= 24; q++) {
        const wp = viewer() === 'white' ? q : 25 - q;
        const mp = moverSide() === 'white' ? wp : 25 - wp;
        const attrs = { x: pointX(q) - PW / 2, y: isTop(q) ? TOP : BOT - PH, width: PW, height: PH, class: 'hit', 'data-mp': mp };
        if (dests.includes(mp)) attrs['data-dest'] = mp;
        const r = el('rect', attrs, g);
        r.addEventListener('click', () => clickPoint(mp));
      }
      const bar = el('rect', { x: BX, y: TOP, width: BW, height: BOT - TOP, class: 'hit', 'data-mp': 25 }, g);
      bar.addEventListener('click', () => clickPoint(25));
      const trayAttrs = { x: RE + 22, y: viewer() === moverSide() ? BOT - PH : TOP, width: 56, height: PH, class: 'hit', 'data-mp': 0 };
      if (dests.includes(0)) trayAttrs['data-dest'] = 0;
      const tray = el('rect', trayAttrs, g);
      tray.addEventListener('click', () => clickPoint(0));
    }
    if (phone) uprightTexts(g);
    slide(svg, before);
    renderControls();
  }

  function lastMoveSlots() {
    const out = new Set();
    const last = [...st.log].reverse().find((a) => a.side && /\d/.test(a.action) && !a.action.startsWith('!'));
    if (!last) return out;
    for (const part of last.action.split(/\s+/)) {
      for (const x of part.replace(/\(\d+\)/, '').split('/')) {
        const n = parseInt(x, 10);
        if (n >= 1 && n <= 24) out.add(slot(lower(last.side) === 'white' ? n : 25 - n));
      }
    }
    return out;
  }

  function clickPoint(mp) {
    const b = localBoard().b;
    const next = nextHops(actions(), chosen, has(b));
    if (sel !== null) {
      const h = next.find((x) => x[0] === sel && x[1] === mp);
      if (h) { chosen.push(h); sel = null; autoFinish(); render(st, you, flipped); return; }
    }
    const from = next.filter((x) => x[0] === mp);
    if (!from.length) { sel = null; render(st, you, flipped); return; }
    const targets = [...new Set(from.map((x) => x[1]))];
    if (targets.length === 1) { chosen.push(from[0]); sel = null; autoFinish(); }
    else sel = sel === mp ? null : mp;
    render(st, you, flipped);
  }

  function autoFinish() { /* the player confirms with "end turn" */ }

  function renderControls() {
    controls.innerHTML = '';
    if (!st || st.result || st.actor !== you) return;
    const legal = st.legal;
    const ph = phaseName(st.view.phase);
    if (legal.includes('roll')) button(controls, t('bg.roll.button'), () => ctx.act('roll'), 'primary', { id: 'bg-roll' });
    // Auto-roll (on unless turned off, kept in this browser): when the only thing to do
    // before the roll is to roll (no double to consider), the dice are thrown after a moment.
    if (legal.includes('roll') || ph === 'moving') {
      const label = document.createElement('label');
      label.className = 'hint';
      label.innerHTML = `<input type="checkbox" id="bg-autoroll"${autoRoll() ? ' checked' : ''}> ${t('bg.autoroll')}`;
      label.title = t('bg.autoroll.title');
      label.querySelector('input').onchange = (e) => {
        localStorage.setItem('tablier:autoroll', e.target.checked ? 'on' : 'off');
        render(st, you, flipped);
      };
      controls.appendChild(label);
    }
    if (legal.includes('roll') && !legal.includes('double') && autoRoll() && autoRolled !== st.v) {
      autoRolled = st.v;
      const v = st.v;
      setTimeout(() => { if (st.v === v && st.actor === you && autoRoll()) ctx.act('roll'); }, 600);
    }
    if (legal.includes('double')) button(controls, t('bg.double', { n: st.view.cube * 2 }), () => ctx.act('double'), '', { id: 'bg-double' });
    if (legal.includes('take')) button(controls, t('bg.take'), () => ctx.act('take'), 'primary', { id: 'bg-take' });
    if (legal.includes('beaver')) button(controls, t('bg.beaver', { n: st.view.cube * 4 }), () => ctx.act('beaver'), '', { id: 'bg-beaver' });
    if (legal.includes('drop')) button(controls, t('bg.drop'), () => ctx.act('drop'), '', { id: 'bg-drop' });
    if (legal.includes('accept')) button(controls, t('bg.accept'), () => ctx.act('accept'), 'primary', { id: 'bg-accept' });
    if (legal.includes('reject')) button(controls, t('bg.reject'), () => ctx.act('reject'), '', { id: 'bg-reject' });
    if (ph === 'moving') {
      if (legal.includes('-') && !actions().length) {
        button(controls, t('bg.pass'), () => ctx.act('-'), 'primary', { id: 'bg-pass' });
        // Passes by itself after a moment, as players expect.
        if (autoPass !== st.v) {
          autoPass = st.v;
          const v = st.v;
          setTimeout(() => { if (st.v === v && st.actor === you) ctx.act('-'); }, 1500);
        }
      }
      else {
        const done = complete(actions(), chosen);
        button(controls, t('bg.undo'), () => { chosen.pop(); sel = null; render(st, you, flipped); }, '', { id: 'bg-undo' }).disabled = !chosen.length;
        const end = button(controls, done ? t('bg.end-turn.play', { play: done.text }) : t('bg.end-turn'), () => done && ctx.act(done.text), 'primary', { id: 'bg-end' });
        end.disabled = !done;
        if (!done && chosen.length && !candidates(actions(), chosen).length) { const h = document.createElement('span'); h.className = 'hint'; h.textContent = t('bg.not-legal'); controls.appendChild(h); }
      }
    }
    // Resigning: one button opens the choice, explained, with its points; nothing is sent
    // before the second click, and Cancel closes it.
    const res = legal.filter((a) => a.startsWith('resign '));
    if (res.length && resignOpen !== st.v) {
      const b = button(controls, t('bg.resign'), () => { resignOpen = st.v; render(st, you, flipped); }, 'danger', { id: 'bg-resign' });
      b.style.marginLeft = 'auto';
    } else if (res.length) {
      const box = document.createElement('div'); box.className = 'resign-choice'; box.id = 'bg-resign-choice';
      const v = st.view;
      const jacoby = !v.options.match_length && v.options.jacoby && v.cube === 1;
      const sp = document.createElement('p'); sp.className = 'hint';
      sp.textContent = t('bg.resign.help') + (jacoby ? ' ' + t('bg.resign.jacoby') : '');
      box.appendChild(sp);
      const mult = { single: 1, gammon: 2, backgammon: 3 };
      for (const offer of res) {
        const kind = offer.slice(7);
        const pts = v.cube * (jacoby ? 1 : mult[kind] || 1);
        button(box, t('bg.resign.kind', { kind: t('bg.a.' + kind), points: t(pts > 1 ? 'bg.points' : 'bg.point', { n: pts }) }), () => { resignOpen = -1; ctx.act(offer); }, 'danger', { 'data-resign': kind });
      }
      button(box, t('common.cancel'), () => { resignOpen = -1; render(st, you, flipped); }, '', { id: 'bg-resign-cancel' });
      controls.appendChild(box);
    }
  }

  // Dragging a checker: pressed on a point, released over another, it makes the hop between
  // them (as the two clicks would). A press released where it began is a click.
  let press = null;
  svg.addEventListener('pointerdown', (ev) => {
    const t = ev.target instanceof Element && ev.target.closest('rect.hit[data-mp]');
    press = t ? { mp: Number(t.dataset.mp), x: ev.clientX, y: ev.clientY } : null;
  });
  svg.addEventListener('pointerup', (ev) => {
    const p = press;
    press = null;
    if (!p || Math.hypot(ev.clientX - p.x, ev.clientY - p.y) < 8) return;
    const under = document.elementFromPoint(ev.clientX, ev.clientY);
    const t = under instanceof Element && under.closest('rect.hit[data-mp]');
    if (!t || Number(t.dataset.mp) === p.mp) return;
    sel = p.mp;
    clickPoint(Number(t.dataset.mp));
  });

  return { render };
}
