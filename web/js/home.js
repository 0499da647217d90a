// The home page: start a game (against the engine or a friend) or open one by its link.
import { t, failure } from './i18n.js';

const $ = (id) => document.getElementById(id);
let family = 'draughts';

function showFamily() {
  for (const b of document.querySelectorAll('#families button')) b.classList.toggle('on', b.dataset.family === family);
  for (const f of ['draughts', 'backgammon', 'trictrac'])
    for (const el of document.querySelectorAll('.fam-' + f)) el.classList.toggle('hidden', f !== family);
  // The start position's notation is the family's own.
  $('start').placeholder = t('home.position.' + family);
  const money = $('match').value === '0';
  for (const el of document.querySelectorAll('.money-only')) el.classList.toggle('hidden', !money);
}
for (const b of document.querySelectorAll('#families button')) b.addEventListener('click', () => { family = b.dataset.family; showFamily(); });
$('match').addEventListener('change', showFamily);
showFamily();

function body() {
  const spec = { family };
  if (family === 'draughts') spec.variant = $('variant').value;
  if (family === 'backgammon') {
    spec.match_length = Number($('match').value);
    spec.cube = $('cube').checked;
    if (spec.match_length === 0) { spec.jacoby = $('jacoby').checked; spec.beavers = $('beavers').checked; }
  }
  if (family === 'trictrac') spec.ecoles = document.querySelector('input[name=marking]:checked').value === 'ecoles';
  const start = $('start').value.trim();
  if (start) spec.start = start;
  const opp = document.querySelector('input[name=opp]:checked').value;
  const engine = opp === 'engine';
  let colour = $('colour').value;
  if (colour === 'random') colour = Math.random() < 0.5 ? 'white' : 'black';
  const other = engine ? { kind: 'engine', level: Number($('level').value) } : { kind: 'human' };
  spec.seats = colour === 'white' ? [{ kind: 'human' }, other] : [other, { kind: 'human' }];
  // A public challenge: the other seat is offered to anyone on the home page.
  if (opp === 'public') spec.challenge = colour === 'white' ? 'black' : 'white';
  if ($('clock').checked) {
    spec.clock = { initial_s: Math.round(Number($('minutes').value) * 60), increment_s: Number($('increment').value) };
    const delay = Number($('delay').value);
    if (delay > 0) spec.clock.delay_s = delay;
  }
  return { spec, mine: colour === 'white' ? 0 : 1, friend: opp === 'friend' };
}

$('create').addEventListener('click', async () => {
  $('create-err').textContent = '';
  const { spec, mine, friend } = body();
  $('create').disabled = true;
  try {
    const r = await fetch('/api/games', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(spec) });
    const j = await r.json();
    if (!r.ok) throw failure(j, r.statusText);
    const token = j.tokens[mine];
    localStorage.setItem('tablier:token:' + j.id, token);
    if (friend) {
      const other = j.tokens[1 - mine];
      localStorage.setItem('tablier:invite:' + j.id, other);
    }
    if (spec.challenge) localStorage.setItem('tablier:public:' + j.id, '1');
    remember(j.id, spec.family);
    location.href = '/g/' + j.id + '#t=' + token;
  } catch (e) {
    $('create-err').textContent = t('home.create-failed', { reason: e.message });
    $('create').disabled = false;
  }
});

function remember(id, fam) {
  const list = JSON.parse(localStorage.getItem('tablier:recent') || '[]').filter((g) => g.id !== id);
  list.unshift({ id, family: fam, at: Date.now() });
  localStorage.setItem('tablier:recent', JSON.stringify(list.slice(0, 8)));
}

$('join-go').addEventListener('click', () => {
  const v = $('join-link').value.trim();
  if (!v) return;
  const m = v.match(/\/g\/([A-Za-z0-9]+)(#.*)?$/);
  if (m) location.href = '/g/' + m[1] + (m[2] || '');
  else if (/^[A-Za-z0-9]+$/.test(v)) location.href = '/g/' + v;
  else $('join-link').setCustomValidity(t('home.not-a-link'));
});
$('join-link').addEventListener('keydown', (e) => { if (e.key === 'Enter') $('join-go').click(); });

const recent = JSON.parse(localStorage.getItem('tablier:recent') || '[]');
if (recent.length) {
  const d = $('recent');
  d.innerHTML = `<p style="color:var(--muted);margin:.8rem 0 .3rem">${t('home.recent')}</p>`;
  for (const g of recent) {
    const a = document.createElement('a');
    const token = localStorage.getItem('tablier:token:' + g.id);
    a.href = '/g/' + g.id + (token ? '#t=' + token : '');
    a.textContent = `${t('family.' + g.family)} · ${g.id} · ${new Date(g.at).toLocaleString(document.documentElement.lang)}`;
    a.style.display = 'block';
    d.appendChild(a);
  }
}

// The open challenges, live: the server sends the list at once and whenever it changes
// (over the WebSocket /ws/lobby); a challenge of one's own is marked, any other can be
// taken with one click.
function describe(spec) {
  const parts = [t('family.' + spec.family)];
  if (spec.family === 'draughts') parts.push(t('variant.' + (spec.variant || 'international')));
  if (spec.family === 'backgammon') parts.push(spec.match_length ? t('lobby.points', { n: spec.match_length }) : t('home.money'));
  if (spec.family === 'trictrac' && spec.ecoles) parts.push(t('lobby.ecoles'));
  if (spec.clock) parts.push(t('lobby.clock', { m: Math.round(spec.clock.initial_s / 60), s: spec.clock.increment_s }));
  if (spec.start) parts.push(t('lobby.position'));
  return parts.join(' · ');
}

function showChallenges(list) {
  const box = $('challenge-list');
  if (!list.length) {
    box.innerHTML = `<p class="muted">${t('lobby.none')}</p>`;
    return;
  }
  box.innerHTML = '';
  for (const c of list) {
    const row = document.createElement('div');
    row.className = 'challenge';
    row.dataset.id = c.id;
    const mine = localStorage.getItem('tablier:token:' + c.id);
    const until = new Date(c.expires_ms).toLocaleTimeString(document.documentElement.lang, { hour: '2-digit', minute: '2-digit' });
    row.innerHTML = `<span class="what"></span> <span class="muted until"></span> `;
    row.querySelector('.what').textContent = describe(c.spec);
    row.querySelector('.until').textContent = t('lobby.until', { time: until });
    if (mine) {
      const a = document.createElement('a');
      a.href = '/g/' + c.id + '#t=' + mine;
      a.textContent = t('lobby.yours');
      row.appendChild(a);
    } else {
      const b = document.createElement('button');
      b.className = 'primary take';
      b.textContent = t('lobby.take', { side: t('side.' + c.side) });
      b.onclick = () => take(c, b, row);
      row.appendChild(b);
    }
    box.appendChild(row);
  }
}

async function take(c, button, row) {
  button.disabled = true;
  try {
    const r = await fetch(`/api/challenges/${c.id}/accept`, { method: 'POST' });
    const j = await r.json().catch(() => ({}));
    if (!r.ok) throw failure(j, r.statusText);
    localStorage.setItem('tablier:token:' + j.id, j.token);
    remember(j.id, c.spec.family);
    location.href = '/g/' + j.id + '#t=' + j.token;
  } catch (e) {
    const err = document.createElement('span');
    err.className = 'err';
    err.textContent = ' ' + e.message;
    row.appendChild(err);
  }
}

function lobby() {
  const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws/lobby`);
  ws.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    if (m.t === 'challenges') showChallenges(m.list);
  };
  ws.onclose = () => setTimeout(lobby, 3000);
}
lobby();
