# Run INSIDE Debian's gnubg:  /usr/games/gnubg -t -q -r -p gnubg_hosts_match.py
# gnubg is the referee and player 1 (0-ply); player 0 is `tablier gnubg-external` on
# 127.0.0.1:$EXT_PORT. Plays a $MATCH_LEN-point match with dice seed $SEED, prints the result
# and exports the match as a .mat file to $MAT_OUT.
import gnubg, os, time
port = os.environ['EXT_PORT']
n = int(os.environ.get('MATCH_LEN', '3'))
out = os.environ.get('MAT_OUT', '/tmp/ext/match.mat')
for c in ['set player 0 name tablier', 'set player 1 name gnubg', 'set seed %s' % os.environ.get('SEED', '7'),
          'set player 1 gnubg',
          'set player 1 chequerplay evaluation plies 0', 'set player 1 cubedecision evaluation plies 0',
          'set player 0 external 127.0.0.1:%s' % port,
          'set display off', 'set automatic game on', 'set automatic roll on']:
    gnubg.command(c)
t = time.time()
gnubg.command('new match %d' % n)
m = gnubg.match(analysis=0, boards=0)
print('RESULT match-info', m['match-info'])
print('RESULT games', [(g['info']['winner'], g['info']['points-won'], g['info'].get('resigned')) for g in m['games']])
print('RESULT seconds %.2f' % (time.time() - t))
gnubg.command('export match mat %s' % out)
