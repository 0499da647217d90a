// The home page: start a game (against the engine or a friend) or open one by its link.
import { t } from './i18n.js';

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
  const engine = document.querySelector('input[name=opp]:checked').value === 'engine';
  let colour = $('colour').value;
  if (colour === 'random') colour = Math.random() < 0.5 ? 'white' : 'black';
  const other = engine ? { kind: 'engine', level: Number($('level').value) } : { kind: 'human' };
  spec.seats = colour === 'white' ? [{ kind: 'human' }, other] : [other, { kind: 'human' }];
  if ($('clock').checked) {
    spec.clock = { initial_s: Math.round(Number($('minutes').value) * 60), increment_s: Number($('increment').value) };
    const delay = Number($('delay').value);
    if (delay > 0) spec.clock.delay_s = delay;
  }
  return { spec, mine: colour === 'white' ? 0 : 1, friend: !engine };
}

$('create').addEventListener('click', async () => {
  $('create-err').textContent = '';
  const { spec, mine, friend } = body();
  $('create').disabled = true;
  try {
    const r = await fetch('/api/games', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(spec) });
    const j = await r.json();
    if (!r.ok) throw new Error(j.error || r.statusText);
    const token = j.tokens[mine];
    localStorage.setItem('tablier:token:' + j.id, token);
    if (friend) {
      const other = j.tokens[1 - mine];
      localStorage.setItem('tablier:invite:' + j.id, other);
    }
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
    const t = localStorage.getItem('tablier:token:' + g.id);
    a.href = '/g/' + g.id + (t ? '#t=' + t : '');
    a.textContent = `${t('family.' + g.family)} · ${g.id} · ${new Date(g.at).toLocaleString(document.documentElement.lang)}`;
    a.style.display = 'block';
    d.appendChild(a);
  }
}
