# Run INSIDE Debian's gnubg (scripts/bg-error-rate.sh does it):
#   EXT_PORT=P MATCHES=K MATCH_LEN=N SEED=S PLIES=J OPP_PLIES=O OUT=DIR /usr/games/gnubg -t -q -r -p bg_error_rate.py
# gnubg hosts K matches of N points between tablier (player 0, `tablier gnubg-external` on
# 127.0.0.1:P) and its own player at O plies (player 1; 0 by default), each with its own dice
# seed (S, S+1, ...), then analyses every match with its own J-ply evaluation (checker play and
# cube; 2 by default) and prints both players' statistics, match by match and summed: gnubg's
# error rates in mEMG, that is thousandths of a normalised money game per unforced move /
# close cube decision. With J above O the judge is stronger than both players.
import gnubg, json, os, sys

port = os.environ['EXT_PORT']
matches = int(os.environ.get('MATCHES', '3'))
length = int(os.environ.get('MATCH_LEN', '7'))
seed = int(os.environ.get('SEED', '1'))
plies = int(os.environ.get('PLIES', '2'))
opp_plies = int(os.environ.get('OPP_PLIES', '0'))
out = os.environ.get('OUT', '.')

for c in ['set player 0 name tablier', 'set player 1 name gnubg',
          'set player 1 gnubg',
          'set player 1 chequerplay evaluation plies %d' % opp_plies,
          'set player 1 cubedecision evaluation plies %d' % opp_plies,
          'set player 0 external 127.0.0.1:%s' % port,
          'set analysis chequerplay evaluation plies %d' % plies,
          'set analysis cubedecision evaluation plies %d' % plies,
          'set display off', 'set automatic game on', 'set automatic roll on']:
    gnubg.command(c)

KEYS = ('unforced', 'moves_error', 'close_cube', 'cube_error', 'wrong_take', 'wrong_drop',
        'missed_double', 'wrong_double')
total = {'tablier': dict.fromkeys(KEYS, 0.0), 'gnubg': dict.fromkeys(KEYS, 0.0)}
points = {'tablier': 0, 'gnubg': 0}


def rates(s):
    mv = 1000 * s['moves_error'] / max(s['unforced'], 1)
    cu = 1000 * s['cube_error'] / max(s['close_cube'], 1)
    ov = 1000 * (s['moves_error'] + s['cube_error']) / max(s['unforced'] + s['close_cube'], 1)
    return mv, cu, ov


def line(tag, who, s):
    mv, cu, ov = rates(s)
    print('%s %-7s checker %5.1f mEMG over %4d unforced moves; cube %6.1f mEMG over %3d close '
          'decisions (wrong takes %d, wrong drops %d, missed doubles %d, wrong doubles %d); '
          'overall %5.1f' % (tag, who, mv, s['unforced'], cu, s['close_cube'], s['wrong_take'],
                             s['wrong_drop'], s['missed_double'], s['wrong_double'], ov))


for k in range(matches):
    gnubg.command('set seed %d' % (seed + k))
    gnubg.command('new match %d' % length)
    gnubg.command('analyse match')
    m = gnubg.match(analysis=1, boards=0, statistics=1)
    names = {'X': m['match-info']['X']['name'], 'O': m['match-info']['O']['name']}
    gnubg.command('export match mat %s/match-%d.mat' % (out, seed + k))
    for side in ('X', 'O'):
        st = m['stats'][side]
        mv, cu = st['moves'], st['cube']
        s = {'unforced': mv['unforced-moves'], 'moves_error': abs(mv['error-skill']),
             'close_cube': cu['close-cube'], 'cube_error': abs(cu['error-skill']),
             'wrong_take': cu['wrong-take'], 'wrong_drop': cu['wrong-drop'],
             'missed_double': cu['missed-double-below-cp'] + cu['missed-double-above-cp'],
             'wrong_double': cu['wrong-double-below-dp'] + cu['wrong-double-above-tg']}
        # gnubg gives player 0 the name of player 1 after `new match` (see the CI test): map
        # by seat, X is player 0 = tablier.
        who = 'tablier' if side == 'X' else 'gnubg'
        for key in KEYS:
            total[who][key] += s[key]
        line('match %d' % (seed + k), who, s)
    sc = [g['info'] for g in m['games']]
    for g in sc:
        points['tablier' if g['winner'] == 'X' else 'gnubg'] += g['points-won']
    sys.stdout.flush()

print('points won over %d matches: tablier %d, gnubg %d' % (matches, points['tablier'], points['gnubg']))
for who in ('tablier', 'gnubg'):
    line('TOTAL', who, total[who])
