# How tests/data/gnubg_selfplay_*.mat were made (run once by hand, not by the tests):
#   cd crates/backgammon/tests/data && /usr/games/gnubg -t -q -r -p ../oracle/gnubg_selfplay_mat.py
# Debian's gnubg (1.07) plays itself at 0-ply with the cube in use: matches to 7, 5 and 9
# points and a money session of a few games (Jacoby on), each exported with `export match mat`.
import gnubg

def setup(seed):
    for c in ['set seed %d' % seed, 'set player 0 gnubg', 'set player 1 gnubg',
              'set player 0 chequerplay evaluation plies 0', 'set player 1 chequerplay evaluation plies 0',
              'set player 0 cubedecision evaluation plies 0', 'set player 1 cubedecision evaluation plies 0',
              'set cube use on', 'set display off', 'set automatic game on']:
        gnubg.command(c)

for length, seed in [(7, 20261122), (5, 5), (9, 9)]:
    setup(seed)
    gnubg.command('new match %d' % length)
    gnubg.command('export match mat gnubg_selfplay_%dpt.mat' % length)

setup(7)
gnubg.command('set jacoby on')
gnubg.command('set automatic game off')
gnubg.command('new session')
for _ in range(5):
    gnubg.command('new game')
gnubg.command('export match mat gnubg_selfplay_money.mat')
