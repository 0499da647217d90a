# Run INSIDE Debian's gnubg (scripts/bg-vs-gnubg.sh does it):
#   PORTS="PA PB" PLIES=N PAIRS=K SEED=S MATCH_LEN=L RESULTS=FILE \
#     /usr/games/gnubg -t -q -r -p bg_duplicate.py
# gnubg hosts games between tablier (`tablier gnubg-external`, listening on 127.0.0.1:PA and
# 127.0.0.1:PB) and its own player at N plies (checker play and cube, pruning on, cubeful, no
# noise), with duplicate dice: for each dice seed S, S+1, ... one game with tablier as player 0
# (X) and one with tablier as player 1 (O), both after `set seed`, so that each side gets the
# other's rolls. MATCH_LEN=0 (the default) plays money games (gnubg's rules: Jacoby, beavers);
# MATCH_LEN=L plays L-point matches instead of single games.
#
# Every game is appended to RESULTS as a JSON line; a later run with the same settings plays
# only the seeds the file lacks (resumable; Ctrl-C loses at most the game in progress). A game
# that gnubg leaves unfinished (no winner: Debian's gnubg 1.07 does it, rarely, after it
# beavers) is kept in the file and its pair is left out of the score, with a count.
#
# ANALYSE=J (optional) has gnubg analyse every game at J plies (checker play and cube, cubeful)
# once it is over and keeps both sides' errors in the results (EMG: normalised money points):
# the report then says where the points went, checker play or cube, and the wrong cube actions.
import gnubg, json, math, os, sys, time

ports = os.environ['PORTS'].split()
plies = int(os.environ.get('PLIES', '2'))
pairs = int(os.environ.get('PAIRS', '10'))
seed0 = int(os.environ.get('SEED', '1'))
length = int(os.environ.get('MATCH_LEN', '0'))
results = os.environ['RESULTS']
settings = {'plies': plies, 'match_length': length, 'level': os.environ.get('LEVEL', '?')}
if os.environ.get('TABLIER_ARGS', '').strip():
    settings['tablier_args'] = os.environ['TABLIER_ARGS'].strip()
analyse = os.environ.get('ANALYSE', '')

done = {}
if os.path.exists(results):
    with open(results) as f:
        for n, line in enumerate(f):
            if not line.strip():
                continue
            r = json.loads(line)
            if 'settings' in r:
                if r['settings'] != settings:
                    print('REFUSED: %s was written with %s, this run is %s: use another file'
                          % (results, r['settings'], settings))
                    sys.stdout.flush()
                    sys.exit(1)
                continue
            done[(r['seed'], r['tablier'])] = r
out = open(results, 'a')
if os.path.getsize(results) == 0:
    out.write(json.dumps({'settings': settings}) + '\n')
    out.flush()

GNUBG_PLAYER = ['chequerplay evaluation plies %d' % plies, 'cubedecision evaluation plies %d' % plies,
                'chequerplay evaluation prune on', 'cubedecision evaluation prune on',
                'chequerplay evaluation cubeful on', 'cubedecision evaluation cubeful on',
                'chequerplay evaluation noise 0.0', 'cubedecision evaluation noise 0.0']
for c in ['set display off', 'set automatic game %s' % ('on' if length else 'off'),
          'set automatic roll on', 'set player 0 name p0', 'set player 1 name p1']:
    gnubg.command(c)
if analyse:
    for c in ['set analysis chequerplay evaluation plies %d' % int(analyse),
              'set analysis cubedecision evaluation plies %d' % int(analyse),
              'set analysis chequerplay evaluation cubeful on',
              'set analysis cubedecision evaluation cubeful on']:
        gnubg.command(c)
ERRS = ('unforced', 'moves_error', 'close_cube', 'cube_error', 'wrong_take', 'wrong_drop',
        'missed_double', 'wrong_double')


def errors(m, side):
    """One side's errors in an analysed game or match, from gnubg's statistics."""
    st = m['stats'][side]
    mv, cu = st['moves'], st['cube']
    return {'unforced': mv['unforced-moves'], 'moves_error': round(abs(mv['error-skill']), 4),
            'close_cube': cu['close-cube'], 'cube_error': round(abs(cu['error-skill']), 4),
            'wrong_take': cu['wrong-take'], 'wrong_drop': cu['wrong-drop'],
            'missed_double': cu['missed-double-below-cp'] + cu['missed-double-above-cp'],
            'wrong_double': cu['wrong-double-below-dp'] + cu['wrong-double-above-tg']}


def seat(tablier):
    """tablier as player `tablier` (0 = X, 1 = O), gnubg the other."""
    g = 1 - tablier
    gnubg.command('set player %d gnubg' % g)
    for c in GNUBG_PLAYER:
        gnubg.command('set player %d %s' % (g, c))
    gnubg.command('set player %d external 127.0.0.1:%s' % (tablier, ports[tablier]))


def play(seed, tablier):
    seat(tablier)
    gnubg.command('set seed %d' % seed)
    t = time.time()
    gnubg.command('new match %d' % length if length else 'new session')
    wall = time.time() - t
    m = gnubg.match(analysis=0, boards=0)
    me = 'XO'[tablier]
    errs = None
    if analyse:
        gnubg.command('analyse match')
        a = gnubg.match(analysis=1, boards=0, statistics=1)
        errs = {'tablier': errors(a, me), 'gnubg': errors(a, 'XO'[1 - tablier])}
    won = lost = 0
    moves = {'tablier': 0, 'gnubg': 0}
    finished = True
    for g in m['games']:
        info = g['info']
        if info.get('winner') is None:
            finished = False
        elif info['winner'] == me:
            won += info['points-won']
        else:
            lost += info['points-won']
        for a in g['game']:
            if a.get('action') == 'move' and a.get('move'):
                moves['tablier' if a.get('player') == me else 'gnubg'] += 1
    r = {'seed': seed, 'tablier': tablier, 'points': won - lost, 'won': won, 'lost': lost,
         'finished': finished, 'games': len(m['games']), 'seconds': round(wall, 2),
         'moves': moves}
    if length:
        r['match_won'] = finished and won >= length
    if errs:
        r['errors'] = errs
    return r


def report(final):
    pair_sums, unfinished, games, wins = [], 0, 0, 0
    seeds = sorted({s for s, _ in done})
    for s in seeds:
        a, b = done.get((s, 0)), done.get((s, 1))
        if not (a and b):
            continue
        if not (a['finished'] and b['finished']):
            unfinished += 1
            continue
        pair_sums.append(a['points'] + b['points'])
        games += 2
        if length:
            wins += int(a['match_won']) + int(b['match_won'])
        else:
            wins += int(a['points'] > 0) + int(b['points'] > 0)
    n = len(pair_sums)
    if n == 0:
        print('no pair finished yet')
        return
    unit = 'match' if length else 'game'
    mean = sum(pair_sums) / (2.0 * n)
    se = float('nan')
    if n > 1:
        var = sum((p / 2.0 - mean) ** 2 for p in pair_sums) / (n - 1)
        se = math.sqrt(var / n)
    head = 'RESULT' if final else 'so far'
    what = ('%d-point matches' % length) if length else 'money games'
    print('%s: tablier against gnubg %d-ply, %d %s (%d duplicate pairs): %s won %d, '
          'points %+d, %+.3f points per %s +- %.3f (standard error over the pairs)%s'
          % (head, plies, games, what, n, unit + 'es' if length else unit + 's', wins,
             sum(pair_sums), mean, unit, se,
             '; %d pairs left out, unfinished by gnubg' % unfinished if unfinished else ''))
    judged = [r for r in done.values() if 'errors' in r]
    if judged:
        for who in ('tablier', 'gnubg'):
            t = {k: sum(r['errors'][who][k] for r in judged) for k in ERRS}
            print('%s errors: %s judged by gnubg %s-ply over %d games: checker %.3f EMG a game '
                  '(%.1f mEMG over %d unforced moves), cube %.3f EMG a game (%.1f mEMG over %d '
                  'close decisions; wrong takes %d, wrong drops %d, missed doubles %d, wrong '
                  'doubles %d)' % (head, who, analyse or '?', len(judged),
                                   t['moves_error'] / len(judged),
                                   1000 * t['moves_error'] / max(t['unforced'], 1), t['unforced'],
                                   t['cube_error'] / len(judged),
                                   1000 * t['cube_error'] / max(t['close_cube'], 1),
                                   t['close_cube'], t['wrong_take'], t['wrong_drop'],
                                   t['missed_double'], t['wrong_double']))
    if final and played:
        t = sum(r['seconds'] for r in played)
        mv = [sum(r['moves'][w] for r in played) for w in ('tablier', 'gnubg')]
        print('TIME wall %.0f s for %d tablier moves and %d gnubg moves' % (t, mv[0], mv[1]))
    sys.stdout.flush()


played = []  # this run's games, for the thinking times
for k in range(pairs):
    s = seed0 + k
    for tablier in (0, 1):
        if (s, tablier) in done:
            continue
        r = play(s, tablier)
        done[(s, tablier)] = r
        played.append(r)
        out.write(json.dumps(r) + '\n')
        out.flush()
    if (k + 1) % 5 == 0 and k + 1 < pairs and played and played[-1]['seed'] == s:
        report(False)
report(True)
