// The game page: the socket, the players and clocks, the move list, table actions, links and
// the dice commitment; the board itself is drawn by one module per family.
import { GameSocket } from './socket.js';
import { lower } from './svg.js';
import { t, failure } from './i18n.js';

const $ = (id) => document.getElementById(id);
const id = location.pathname.split('/').filter(Boolean).pop();
const hash = new URLSearchParams(location.hash.slice(1));
const watch = hash.has('watch');
let token = hash.get('t');
if (token) localStorage.setItem('tablier:token:' + id, token);
else if (!watch) token = localStorage.getItem('tablier:token:' + id);

const app = {
  id, token, state: null, you: null, flipped: false, board: null, module: null, busy: false,
  receivedAt: 0,
  // Looking back during the game: the positions so far (from the server) and the one shown,
  // or null for the live game.
  positions: null, positionsFor: -1, browse: null,
};
window.tablier = app; // for the browser tests and the curious


function toast(msg) {
  const t = $('toast');
  t.textContent = msg || '';
  clearTimeout(toast.timer);
  if (msg) toast.timer = setTimeout(() => { t.textContent = ''; }, 6000);
}

async function act(text) {
  if (app.busy) return false;
  app.busy = true;
  try {
    await app.socket.act(text);
    toast('');
    return true;
  } catch (e) {
    toast(e.message);
    app.board?.render(app.state, app.you, app.flipped);
    return false;
  } finally {
    app.busy = false;
  }
}
app.act = act;

const ctx = { act: (t) => act(t), toast };

async function loadModule(family) {
  if (app.module) return;
  app.module = await import(`./${family}.js`);
  app.board = app.module.create($('board'), $('controls'), ctx);
}

app.socket = new GameSocket(id, watch ? null : token, {
  hello(you) {
    app.you = you;
    if (app.state === null) app.flipped = you === 'black';
  },
  async state(s) {
    if (app.state) moveSound(app.state, s);
    app.state = s;
    app.receivedAt = performance.now();
    await loadModule(s.spec.family);
    render();
  },
  status({ connected, lag }) {
    const c = $('conn');
    c.classList.toggle('bad', !connected);
    c.textContent = connected ? (lag == null ? t('conn.connected') : t('conn.lag', { ms: Math.round(lag) })) : t('conn.reconnecting');
    c.title = t('conn.title');
  },
  error(reason) { toast(reason); },
});

// Move sounds, off unless the player turns them on (kept in this browser): a short tone
// when the other side (a person or the engine) has moved.
const soundOn = () => localStorage.getItem('tablier:sound') === 'on';
let audio = null;
function moveSound(before, after) {
  const fresh = after.log.slice(before.log.length).filter((a) => a.side && !a.action.startsWith('!'));
  if (!soundOn() || !app.you || !fresh.some((a) => a.side !== app.you)) return;
  try {
    audio ||= new AudioContext();
    const o = audio.createOscillator();
    const g = audio.createGain();
    o.frequency.value = 520;
    g.gain.setValueAtTime(0.08, audio.currentTime);
    g.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.12);
    o.connect(g).connect(audio.destination);
    o.start();
    o.stop(audio.currentTime + 0.13);
    app.sounds = (app.sounds || 0) + 1;
  } catch (e) { /* no audio here: nothing to play */ }
}
$('sound').checked = soundOn();
$('sound').onchange = (e) => localStorage.setItem('tablier:sound', e.target.checked ? 'on' : 'off');

function seatName(side) {
  const s = app.state.seats[side === 'white' ? 0 : 1];
  if (app.you === side) return t('seat.you');
  if (s.kind === 'engine') return t('seat.engine', { level: s.level });
  return app.you ? t('seat.opponent') : t('seat.player');
}

function sideLabel(side) {
  return t(side === 'white' ? 'side.white' : 'side.black');
}

function fmtClock(ms) {
  if (ms <= 0) return '0:00';
  const s = ms / 1000;
  if (s < 10) return s.toFixed(1);
  const m = Math.floor(s / 60);
  const h = Math.floor(m / 60);
  const ss = String(Math.floor(s % 60)).padStart(2, '0');
  return h ? `${h}:${String(m % 60).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

function renderPlayer(el, side) {
  const s = app.state;
  el.classList.toggle('to-move', s.actor === side);
  const extra = app.module.playerExtra ? app.module.playerExtra(s, side) : '';
  let clock = '';
  if (s.clock) {
    const running = s.clock.running === side && !s.result;
    const [ms, delay] = clockNow(s, side, running);
    const spec = s.spec.clock || {};
    const tip = spec.delay_s ? ` title="${t('clock.delay.title', { s: spec.delay_s })}"` : '';
    clock = `<span class="clock ${running ? 'running' : ''} ${ms < 20000 ? 'low' : ''}" data-clock="${side}"${tip}>${fmtClock(ms)}<small class="delay" data-delay="${side}">${delay > 0 ? '+' + Math.ceil(delay / 1000) : ''}</small></span>`;
  }
  el.dataset.side = side;
  el.innerHTML = `<span class="dot ${side}"></span><span class="name">${seatName(side)}<small>${sideLabel(side)}</small></span><span class="extra">${extra}</span>${clock}`;
}

// A side's reserve and what is left of its delay now: the running side spends its delay for
// this move first (`delay_ms` when the state came), then its reserve.
function clockNow(s, side, running) {
  let ms = s.clock[side + '_ms'];
  let delay = 0;
  if (running) {
    const spent = performance.now() - app.receivedAt;
    delay = Math.max(0, (s.clock.delay_ms || 0) - spent);
    ms -= Math.max(0, spent - (s.clock.delay_ms || 0));
  }
  return [ms, delay];
}

function tickClocks() {
  const s = app.state;
  if (!s?.clock || s.result || !s.clock.running) return;
  const side = s.clock.running;
  const el = document.querySelector(`[data-clock="${side}"]`);
  if (!el) return;
  const [ms, delay] = clockNow(s, side, true);
  el.firstChild.textContent = fmtClock(ms);
  const d = el.querySelector('[data-delay]');
  if (d) d.textContent = delay > 0 ? '+' + Math.ceil(delay / 1000) : '';
  el.classList.toggle('low', ms < 20000);
}
setInterval(tickClocks, 100);

function resultText(s) {
  const r = s.result;
  if (!r) return '';
  if (app.module.resultText) {
    const t = app.module.resultText(s);
    if (t) return t;
  }
  const why = { resign: t('why.resign'), time: t('why.time'), 'draw-agreed': t('why.agreed'), rules: '' }[r.reason] ?? r.reason;
  if (!r.winner) return `${t('result.draw')} ${why}`.trim();
  const w = lower(r.winner);
  const who = app.you ? (w === app.you ? t('result.you-win') : t('result.you-lose')) : t('result.wins', { side: sideLabel(w) });
  return `${who} ${why}`.trim();
}

function renderStatus() {
  const s = app.state;
  const st = $('status');
  const res = $('result');
  res.classList.toggle('hidden', !s.result);
  if (s.result) {
    res.textContent = resultText(s);
    // The server names sides as the rules crate does ("White"); the page, in lower case.
    const w = lower(s.result.winner);
    res.dataset.winner = w || 'draw';
    res.dataset.mine = !app.you ? 'watch' : !w ? 'draw' : w === app.you ? 'won' : 'lost';
    st.classList.add('hidden');
    return;
  }
  st.classList.remove('hidden');
  let text;
  let mine = false;
  if (s.actor === 'chance') text = t('status.rolling');
  else if (s.actor === app.you) { text = t('status.your-turn'); mine = true; }
  else if (s.actor === 'white' || s.actor === 'black') {
    const seat = s.seats[s.actor === 'white' ? 0 : 1];
    if (seat.kind === 'engine') text = t('status.engine-thinking', { side: sideLabel(s.actor) });
    else if (app.you) text = t('status.waiting', { side: sideLabel(s.actor) });
    else text = t('status.to-play', { side: sideLabel(s.actor) });
  } else text = '';
  const hint = app.module.statusHint ? app.module.statusHint(s, app.you) : '';
  if (hint) text += ' — ' + hint;
  st.textContent = text;
  st.classList.toggle('wait', !mine);
}

function renderOffer() {
  const s = app.state;
  const box = $('offer');
  const draws = s.spec.family === 'draughts';
  const drawBtn = $('draw');
  const resign = $('resign');
  const playing = app.you && !s.result;
  resign.classList.toggle('hidden', !playing || !!app.module.ownResign);
  drawBtn.classList.toggle('hidden', !(playing && draws));
  drawBtn.disabled = s.draw_offer === app.you;
  drawBtn.textContent = s.draw_offer === app.you ? t('table.draw-offered') : t('table.draw');
  const tb = $('takeback');
  const myMoves = s.log.some((a) => a.side === app.you && !a.action.startsWith('!') && !(s.undone || []).includes(a.n));
  tb.classList.toggle('hidden', !(playing && draws));
  tb.disabled = !myMoves || s.takeback_offer === app.you;
  tb.textContent = s.takeback_offer === app.you ? t('table.takeback-asked') : t('table.takeback');
  // An offer to answer: a sentence and two buttons sending the table actions.
  const ask = (sentence, what, yes, no) => {
    box.classList.remove('hidden');
    box.innerHTML = `<span>${sentence}</span>`;
    const a = document.createElement('button'); a.textContent = yes; a.className = 'primary'; a.id = `${what}-accept`;
    a.onclick = () => act(`!${what}-accept`);
    const d = document.createElement('button'); d.textContent = no; d.id = `${what}-decline`;
    d.onclick = () => act(`!${what}-decline`);
    box.append(a, d);
  };
  if (playing && draws && s.takeback_offer && s.takeback_offer !== app.you) {
    ask(t('offer.takeback'), 'takeback', t('offer.allow'), t('offer.refuse'));
  } else if (playing && draws && s.draw_offer && s.draw_offer !== app.you) {
    ask(t('offer.draw'), 'draw', t('offer.accept'), t('offer.decline'));
  } else if (s.draw_offer && !s.result) {
    box.classList.remove('hidden');
    box.textContent = s.draw_offer === app.you ? t('offer.draw-sent') : t('offer.draw-by', { side: sideLabel(s.draw_offer) });
  } else if (s.takeback_offer && !s.result) {
    box.classList.remove('hidden');
    box.textContent = s.takeback_offer === app.you ? t('offer.takeback-sent') : t('offer.takeback-by', { side: sideLabel(s.takeback_offer) });
  } else box.classList.add('hidden');
}

function renderMoves() {
  const s = app.state;
  const rows = app.module.moveRows(s);
  const box = $('moves');
  const atBottom = box.scrollTop + box.clientHeight >= box.scrollHeight - 30;
  const html = rows.map((r) => `<tr><td class="n">${r.n ?? ''}</td>${r.cells.map((c, i) => `<td${r.span && i === 0 ? ` colspan="${r.span}"` : ''}>${c}</td>`).join('')}</tr>`).join('');
  box.innerHTML = rows.length ? `<table>${html}</table>` : `<div style="padding:.5rem;color:var(--muted)">${t('moves.none')}</div>`;
  if (atBottom || !renderMoves.done) box.scrollTop = box.scrollHeight;
  renderMoves.done = true;
}

function renderLinks() {
  const s = app.state;
  const base = `${location.origin}/g/${id}`;
  const invite = localStorage.getItem('tablier:invite:' + id);
  let html = '';
  const friendSeat = s.seats.some((x) => x.kind === 'human') && s.seats.every((x) => x.kind === 'human');
  if (invite && app.you && friendSeat && !s.result) {
    html += `<div>${t('links.invite')}</div><div class="linkbox"><input readonly id="invite-link" value="${base}#t=${invite}"><button data-copy="invite-link">${t('links.copy')}</button></div>`;
  }
  if (localStorage.getItem('tablier:public:' + id) && app.you && !s.result) html += `<div id="public-note">${t('links.public')}</div>`;
  html += `<div>${t('links.spectators')}</div><div class="linkbox"><input readonly id="watch-link" value="${base}#watch"><button data-copy="watch-link">${t('links.copy')}</button></div>`;
  html += `<div><a href="/api/games/${id}/export" download>${t('links.download', { format: t('format.' + s.spec.family) })}</a>`;
  if (s.result) html += ` · <a href="/api/games/${id}/record" download="${id}.json">${t('links.record')}</a></div><div><a class="primary-link" id="review-link" href="/g/${id}/review">${t('links.review')}</a>`;
  html += '</div>';
  if (s.result && app.you) html += `<div><button id="rematch" class="primary">${t('links.rematch')}</button></div>`;
  const box = $('links');
  if (box.dataset.html !== html) {
    box.innerHTML = html;
    box.dataset.html = html;
    for (const b of box.querySelectorAll('[data-copy]')) b.onclick = () => { const i = $(b.dataset.copy); i.select(); navigator.clipboard?.writeText(i.value); b.textContent = t('links.copied'); };
    if ($('rematch')) $('rematch').onclick = rematch;
  }
}

// A new game with the same rules and clock, the seats swapped: the player takes the other
// colour (against a friend, the new game's invitation link is shown for him, as for any game).
async function rematch() {
  const s = app.state;
  const b = $('rematch');
  b.disabled = true;
  try {
    const seats = [s.seats[1], s.seats[0]].map((x) => (x.kind === 'engine' ? { kind: 'engine', level: x.level } : { kind: 'human' }));
    const r = await fetch('/api/games', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...s.spec, seats }) });
    const j = await r.json();
    if (!r.ok) throw failure(j, r.statusText);
    const mine = app.you === 'white' ? 1 : 0;
    localStorage.setItem('tablier:token:' + j.id, j.tokens[mine]);
    if (seats.every((x) => x.kind === 'human')) localStorage.setItem('tablier:invite:' + j.id, j.tokens[1 - mine]);
    location.href = '/g/' + j.id + '#t=' + j.tokens[mine];
  } catch (e) {
    toast(t('links.rematch-failed', { reason: e.message }));
    b.disabled = false;
  }
}

function renderFair() {
  const s = app.state;
  if (s.spec.family === 'draughts') { $('fair').classList.add('hidden'); return; }
  let html = `<p>${t('fair.commitment')}</p><code id="commitment">${s.commitment}</code>`;
  if (s.seed) html += `<p>${t('fair.seed')}</p><code id="seed">${s.seed}</code><p>${t('fair.check', { record: `<a href="/api/games/${id}/record" download="${id}.json">${t('fair.record')}</a>` })}</p>`;
  else html += `<p>${t('fair.later')}</p>`;
  $('fair-body').innerHTML = html;
  if (s.seed && !renderFair.opened) { $('fair').open = true; renderFair.opened = true; }
}

// Looking back: every position so far comes from the server (the rules are its own); the
// board shows one of them without taking any action, until the player returns to the game.
async function positions() {
  const want = app.state.log.length;
  if (!app.positions || app.positionsFor !== want) {
    const r = await fetch(`/api/games/${id}/positions`);
    const j = await r.json();
    if (!r.ok) throw failure(j, r.statusText);
    app.positions = j.positions;
    app.positionsFor = want;
  }
  return app.positions;
}

async function browseTo(where) {
  if (!app.state) return;
  try {
    const ps = await positions();
    const last = ps.length - 1;
    const i = typeof where === 'function' ? where(app.browse ?? last, last) : where;
    app.browse = i === null || i >= last ? null : Math.max(0, i);
  } catch (e) {
    toast(t('nav.failed', { reason: e.message }));
    app.browse = null;
  }
  render();
}
app.browseTo = browseTo;

// The state as it was at the position looked at: its view, nobody to act here.
function browsedState(s) {
  const p = app.positions[app.browse];
  return { ...s, view: p.view, actor: p.actor, legal: [], result: null, log: s.log.filter((a) => a.n <= p.n) };
}

function renderBrowse() {
  const ps = app.positions;
  const on = app.browse !== null && !!ps;
  document.body.classList.toggle('browsing', on);
  $('nav-live').disabled = !on;
  $('nav-next').disabled = !on;
  $('nav-prev').disabled = on && app.browse === 0;
  $('nav-first').disabled = on && app.browse === 0;
  if (!on) return;
  const p = ps[app.browse];
  const what = p.n === 0 ? t('nav.the-start') : p.side ? t('nav.after', { side: sideLabel(p.side), action: p.action }) : t('nav.after-dice', { action: p.action });
  const st = $('status');
  st.classList.remove('hidden');
  st.classList.add('wait');
  st.innerHTML = `<span id="browsing">${t('nav.looking', { k: app.browse, n: ps.length - 1, what })}</span> <button id="back-live" class="primary">${t('nav.back')}</button>`;
  $('back-live').onclick = () => browseTo(null);
}

function render() {
  const s = app.state;
  if (!s || !app.module) return;
  if (app.browse !== null && app.positions) {
    const b = browsedState(s);
    const bottom = app.flipped ? 'black' : 'white';
    renderPlayer($('p-top'), bottom === 'white' ? 'black' : 'white');
    renderPlayer($('p-bottom'), bottom);
    renderMoves();
    renderBrowse();
    const ev = app.module.events ? app.module.events(b) : '';
    $('events').classList.toggle('hidden', !ev);
    $('events').innerHTML = ev;
    app.board.render(b, null, app.flipped);
    return;
  }
  document.title = `tablier — ${t('family.' + s.spec.family)} ${id}`;
  $('title').textContent = app.module.title(s) + (app.you ? '' : ` · ${t('seat.spectating')}`);
  const bottom = app.flipped ? 'black' : 'white';
  const top = bottom === 'white' ? 'black' : 'white';
  renderPlayer($('p-top'), top);
  renderPlayer($('p-bottom'), bottom);
  renderStatus();
  renderOffer();
  renderMoves();
  renderLinks();
  renderFair();
  const ev = app.module.events ? app.module.events(s) : '';
  $('events').classList.toggle('hidden', !ev);
  $('events').innerHTML = ev;
  renderBrowse();
  app.board.render(s, app.you, app.flipped);
}
app.render = render;

$('nav-first').onclick = () => browseTo(0);
// A move of the list (the modules mark each with its log number) shows the position after it.
$('moves').addEventListener('click', async (e) => {
  const m = e.target instanceof Element && e.target.closest('[data-n]');
  if (!m || !app.state) return;
  const n = Number(m.dataset.n);
  try {
    const ps = await positions();
    let i = 0;
    while (i + 1 < ps.length && ps[i + 1].n <= n) i++;
    browseTo(i);
  } catch (e2) {
    toast(t('nav.failed', { reason: e2.message }));
  }
});
$('nav-prev').onclick = () => browseTo((i) => i - 1);
$('nav-next').onclick = () => browseTo((i) => i + 1);
$('nav-live').onclick = () => browseTo(null);
document.addEventListener('keydown', (e) => {
  if ((e.target instanceof Element && e.target.closest('input, textarea, select')) || e.altKey || e.ctrlKey || e.metaKey) return;
  const go = { ArrowLeft: (i) => i - 1, ArrowRight: (i) => i + 1, Home: 0, End: null }[e.key];
  if (go === undefined) return;
  e.preventDefault();
  browseTo(go);
});

$('flip').onclick = () => { app.flipped = !app.flipped; render(); };
$('draw').onclick = () => act('!draw-offer');
$('takeback').onclick = () => act('!takeback-offer');
$('resign').onclick = () => {
  const b = $('resign');
  if (b.dataset.confirm) { delete b.dataset.confirm; b.textContent = t('table.resign'); act('!resign'); return; }
  b.dataset.confirm = '1';
  b.textContent = t('table.resign-really');
  setTimeout(() => { delete b.dataset.confirm; b.textContent = t('table.resign'); }, 4000);
};
