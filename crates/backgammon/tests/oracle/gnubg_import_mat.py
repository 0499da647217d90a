# Run inside Debian's gnubg:  /usr/games/gnubg -t -q -r -p gnubg_import_mat.py
# For each .mat file named in $TABLIER_MAT_FILES (colon-separated), gnubg imports it
# (`import mat`), replaying every move under its own rules, and this prints one JSON line per
# game: the file, the winner's name, the points won, whether it was resigned, and the scores
# gnubg had at the game's start; then one FINAL line with the GNUbgID where the file ends.
import json
import os

import gnubg

for path in os.environ['TABLIER_MAT_FILES'].split(':'):
    gnubg.command('import mat %s' % path)
    m = gnubg.match(analysis=0, boards=0)
    names = {k: m['match-info'][k]['name'] for k in ('X', 'O')}
    for g in m['games']:
        info = g['info']
        print('GAME ' + json.dumps({
            'file': os.path.basename(path),
            'winner': names.get(info.get('winner'), None),
            'points': info.get('points-won'),
            'resigned': bool(info.get('resigned')),
            'score': {names['X']: info.get('score-X'), names['O']: info.get('score-O')},
            'moves': len(g['game']),
        }))
    print('FINAL ' + json.dumps({'file': os.path.basename(path), 'gnubgid': gnubg.gnubgid()}))
