// The review page of a finished game: every position, the engine's judgement of each as a
// graph (click it, or a move, or use the arrow keys), and the board as it stood.
import { el, lower, text } from './svg.js';
import { t, failure } from './i18n.js';

const $ = (id) => document.getElementById(id);
const id = location.pathname.split('/').filter(Boolean)[1];
const app = { id, state: null, review: null, at: 0, board: null, module: null };
window.tablier = app; // for the browser tests and the curious

const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));

// How each unit is drawn: the range shown and how a value reads.
const UNITS = {
  men: { lo: -5, hi: 5, mid: 0, fmt: (v) => (v >= 20 ? t('result.wins', { side: t('side.white') }) : v <= -20 ? t('result.wins', { side: t('side.black') }) : (v > 0 ? '+' : '') + v.toFixed(2)), say: t('unit.men'), loss: 'unit.men.loss' },
  '% to win': { lo: 0, hi: 100, mid: 50, fmt: (v) => v.toFixed(1) + '%', say: t('unit.win'), loss: 'unit.percent.loss' },
  '% partie': { lo: 0, hi: 100, mid: 50, fmt: (v) => v.toFixed(1) + '%', say: t('unit.partie'), loss: 'unit.percent.loss' },
  holes: { lo: -12, hi: 12, mid: 0, fmt: (v) => (v > 0 ? '+' : '') + v.toFixed(1), say: t('unit.holes'), loss: 'unit.holes.loss' },
};

async function getJson(url) {
  const r = await fetch(url);
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw failure(body, r.status);
  return body;
}

function positionState(i) {
  const p = app.review.positions[i];
  const ns = new Set(app.review.positions.slice(1, i + 1).map((q) => q.n));
  const upTo = p.n ?? 0;
  // The log as it stood, without what was taken back later.
  const log = app.state.log.filter((a) => a.n <= upTo && (ns.has(a.n) || a.action.startsWith('!') || !a.side));
  return { ...app.state, v: 1e6 + i, view: p.view, log, actor: 'nobody', legal: [], result: null, undone: [], draw_offer: null, takeback_offer: null, clock: null };
}

function drawGraph() {
  const u = UNITS[app.review.unit] || UNITS.men;
  const pts = app.review.positions;
  const W = 320; const H = 150; const pad = 4;
  const x = (i) => pad + (i * (W - 2 * pad)) / Math.max(1, pts.length - 1);
  const y = (v) => { const c = Math.max(u.lo, Math.min(u.hi, v)); return pad + ((u.hi - c) * (H - 2 * pad)) / (u.hi - u.lo); };
  const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, class: 'evalgraph', role: 'img', 'aria-label': t('review.graph') });
  el('rect', { x: 0, y: 0, width: W, height: H, class: 'g-bg' }, svg);
  el('rect', { x: 0, y: y(u.mid), width: W, height: H - y(u.mid), class: 'g-black' }, svg);
  const known = pts.map((p, i) => [i, p.value]).filter(([, v]) => v !== null && v !== undefined);
  if (known.length) {
    const line = known.map(([i, v], k) => `${k ? 'L' : 'M'}${x(i).toFixed(1)} ${y(v).toFixed(1)}`).join(' ');
    const area = `${line} L${x(known[known.length - 1][0]).toFixed(1)} ${y(u.mid)} L${x(known[0][0]).toFixed(1)} ${y(u.mid)} Z`;
    el('path', { d: area, class: 'g-area' }, svg);
    el('path', { d: line, class: 'g-line' }, svg);
  }
  el('line', { x1: 0, x2: W, y1: y(u.mid), y2: y(u.mid), class: 'g-mid' }, svg);
  text(svg, 4, 12, `${t('side.white')} ${u.fmt(u.hi)}`, { class: 'g-label' });
  text(svg, 4, H - 5, `${t('side.black')} ${u.fmt(u.lo)}`, { class: 'g-label' });
  const cursor = el('line', { x1: x(app.at), x2: x(app.at), y1: 0, y2: H, class: 'g-cursor', id: 'g-cursor' }, svg);
  svg.addEventListener('click', (ev) => {
    const r = svg.getBoundingClientRect();
    const fx = ((ev.clientX - r.left) / r.width) * W;
    go(Math.round(((fx - pad) * (pts.length - 1)) / (W - 2 * pad)));
  });
  const box = $('graph');
  box.innerHTML = '';
  box.appendChild(svg);
  app.cursor = (i) => { cursor.setAttribute('x1', x(i)); cursor.setAttribute('x2', x(i)); };
  $('unit').textContent = u.say;
}

function drawMoves() {
  const u = UNITS[app.review.unit] || UNITS.men;
  const rows = app.review.positions.map((p, i) => {
    const who = p.side ? t('side.' + p.side) : p.n ? t('review.dice') : '';
    const mark = p.mark ? ` <span class="mark" title="${esc(t(p.mark === '??' ? 'review.blunder.title' : 'review.mistake.title', { best: p.best }))}">${p.mark}</span>` : '';
    const what = (p.action ? esc(p.action) : t('review.start')) + mark;
    const val = p.value === null || p.value === undefined ? '' : u.fmt(p.value);
    return `<tr data-i="${i}"><td class="n">${i || ''}</td><td class="who">${who}</td><td>${what}</td><td class="val">${val}</td></tr>`;
  });
  $('moves').innerHTML = `<table>${rows.join('')}</table>`;
  // Each side's mistakes and blunders, as the engine judged the moves.
  const count = (side, m) => app.review.positions.filter((p) => p.side === side && p.mark === m).length;
  const line = (side) => t('review.marks', { side: t('side.' + side), mistakes: count(side, '?'), blunders: count(side, '??') });
  $('marks').textContent = `${line('white')} · ${line('black')}`;
  for (const tr of $('moves').querySelectorAll('tr')) tr.onclick = () => go(Number(tr.dataset.i));
}

function go(i) {
  const n = app.review.positions.length;
  app.at = Math.max(0, Math.min(n - 1, i));
  app.board.render(positionState(app.at), null, false);
  app.cursor?.(app.at);
  for (const tr of $('moves').querySelectorAll('tr')) tr.classList.toggle('on', Number(tr.dataset.i) === app.at);
  $('moves').querySelector('tr.on')?.scrollIntoView({ block: 'nearest' });
  const p = app.review.positions[app.at];
  const u = UNITS[app.review.unit] || UNITS.men;
  $('where').textContent = `${app.at} / ${n - 1}`;
  const said = p.value === null || p.value === undefined ? '' : `${p.action ? t('review.after', { action: p.action + (p.mark ? ' ' + p.mark : '') }) : t('review.at-start')}: ${u.fmt(p.value)}`;
  // The judge's best move where the move played was worth less (the loss in the unit).
  const kind = p.mark === '??' ? t('review.blunder') + ', ' : p.mark ? t('review.mistake') + ', ' : '';
  const best = p.best ? ` — ${t('review.best', { best: p.best, kind, loss: t(u.loss, { x: p.loss.toFixed(u === UNITS.men ? 2 : 1) }) })}` : '';
  $('now').textContent = said + best;
}

// /review without a game: a record from elsewhere (PDN, .mat) is pasted or chosen, the
// server replays and judges it (nothing is stored), and it is drawn as a game of ours.
async function importRecord(game = 1) {
  $('import-err').textContent = t('import.working');
  $('import-go').disabled = true;
  let body;
  try {
    const r = await fetch('/api/import', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: $('import-text').value, game }) });
    body = await r.json().catch(() => ({}));
    if (!r.ok) throw failure(body, r.status);
  } catch (e) {
    $('import-err').textContent = e.message;
    return;
  } finally {
    $('import-go').disabled = false;
  }
  $('import-err').textContent = '';
  const sel = $('import-games');
  sel.innerHTML = '';
  body.games.forEach((g, i) => {
    const o = document.createElement('option');
    o.value = String(i + 1);
    o.textContent = `${i + 1}. ${g}`;
    o.selected = i + 1 === body.game;
    sel.appendChild(o);
  });
  $('import-games-row').classList.toggle('hidden', body.games.length < 2);
  app.state = body.state;
  app.review = body.review;
  const fam = app.state.spec.family;
  const [white, black] = body.players;
  $('title').textContent = `${t('review.title')} · ${t('family.' + fam)} · ${t('import.heading', { white, black })}`;
  if (!app.module || app.fam !== fam) {
    app.module = await import(`./${fam}.js`);
    $('board').innerHTML = '';
    $('controls').innerHTML = '';
    app.board = app.module.create($('board'), $('controls'), { act: async () => false, toast: () => {} });
    app.fam = fam;
  }
  const rec = body.recorded;
  $('result').classList.toggle('hidden', !rec);
  if (rec) {
    $('result').textContent = rec.token
      ? t('import.result.token', { token: rec.token })
      : t('import.result.mat', { name: body.players[rec.winner === 'white' ? 0 : 1], points: rec.points });
  }
  document.querySelector('main.game').classList.remove('hidden');
  drawGraph();
  drawMoves();
  go(app.review.positions.length - 1);
  app.ready = true;
}

function importMode() {
  $('import').classList.remove('hidden');
  document.querySelector('main.game').classList.add('hidden');
  $('back').href = '/';
  $('back').textContent = t('import.home');
  $('import-go').onclick = () => importRecord(1);
  $('import-games').onchange = () => importRecord(Number($('import-games').value));
  $('import-file').onchange = async () => {
    const f = $('import-file').files[0];
    if (f) $('import-text').value = await f.text();
  };
}

async function main() {
  if (!id) return importMode();
  $('back').href = `/g/${id}`;
  app.state = await getJson(`/api/games/${id}`);
  const fam = app.state.spec.family;
  $('title').textContent = `${t('review.title')} · ${t('family.' + fam)} ${id}`;
  app.module = await import(`./${fam}.js`);
  app.board = app.module.create($('board'), $('controls'), { act: async () => false, toast: () => {} });
  if (app.state.result) {
    const r = app.state.result;
    $('result').classList.remove('hidden');
    const why = { resign: ' ' + t('why.resign'), time: ' ' + t('why.time'), 'draw-agreed': ' ' + t('why.agreed'), rules: '' }[r.reason] ?? ` (${r.reason})`;
    // The family's own words where it has them (backgammon: single, gammon or backgammon,
    // the points with the cube, a dropped double, the match score), as on the game page.
    const own = app.module.resultText ? app.module.resultText(app.state) : '';
    $('result').textContent = own || (r.winner ? t('result.wins', { side: t('side.' + lower(r.winner)) }) + why : t('result.draw') + why);
  }
  try {
    app.review = await getJson(`/api/games/${id}/review`);
  } catch (e) {
    $('graph').textContent = e.message;
    app.board.render(app.state, null, false);
    return;
  }
  drawGraph();
  drawMoves();
  go(app.review.positions.length - 1);
  app.ready = true;
}

$('first').onclick = () => go(0);
$('prev').onclick = () => go(app.at - 1);
$('next').onclick = () => go(app.at + 1);
$('last').onclick = () => go(1e9);
document.addEventListener('keydown', (e) => {
  if (!app.review) return;
  if (e.key === 'ArrowLeft') go(app.at - 1);
  else if (e.key === 'ArrowRight') go(app.at + 1);
  else if (e.key === 'Home') go(0);
  else if (e.key === 'End') go(1e9);
});
main();
