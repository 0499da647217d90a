# Run INSIDE Debian's gnubg:
#   MATS="a.mat b.mat" PLIES=3 OUT=cube.jsonl /usr/games/gnubg -t -q -r -p scripts/bg_cube_errors.py
# Every cube decision of every game of the .mat files (gnubg's own export, as
# scripts/bg-error-rate.sh keeps them in target/bg-error-rate/), judged one by one by gnubg's
# cubeful evaluation at PLIES (3 by default): for each turn where the side on roll could double
# (not the Crawford game, the cube his or in the middle), the GNUbgID of the decision, gnubg's
# equities of no double, double/take and double/pass (units of the cube, for the side on roll)
# and its verdict, what the player did, the equity it cost, and for a double the answer and
# what that cost the taker. One JSON line per decision in OUT; then, on stdout, each player's
# totals and his costliest decisions, to be looked at with `tablier backgammon hint GNUBGID`.
# The left column of the .mat is gnubg's player X ("X" in OUT; tablier in bg-error-rate's files).
import gnubg, json, os

plies = int(os.environ.get('PLIES', '3'))
ec = {'cubeful': 1, 'plies': plies, 'deterministic': 1, 'noise': 0.0}
rows = []
with open(os.environ['OUT'], 'w') as out:
    for path in os.environ['MATS'].split():
        gnubg.command('import mat %s' % path)
        m = gnubg.match(analysis=0, boards=1, statistics=0)
        length = m['match-info']['match-length']
        for gi, g in enumerate(m['games']):
            sx, so = g['info']['score-X'], g['info']['score-O']
            one_away = length and (sx == length - 1 or so == length - 1)
            earlier = any(length and length - 1 in (p['info']['score-X'], p['info']['score-O'])
                          for p in m['games'][:gi])
            if one_away and not earlier:
                continue  # the Crawford game: no cube
            acts = g['game']
            cube, owner = 1, None
            for i, a in enumerate(acts):
                if a['action'] == 'take':
                    cube, owner = cube * 2, a['player']
                if a['action'] not in ('move', 'double') or owner not in (None, a['player']):
                    continue
                p = 0 if a['player'] == 'X' else 1
                board = gnubg.positionfromid(a['board'])
                ci = gnubg.cubeinfo(cube, -1 if owner is None else (0 if owner == 'X' else 1),
                                    p, length, (sx, so), 0)
                opt, nd, take, drop, _, text = gnubg.cfevaluate(board, ci, ec)
                doubled = a['action'] == 'double'
                rec = dict(file=path, game=gi + 1, player=a['player'], doubled=doubled,
                           gnubgid=gnubg.gnubgid(board, ci, gnubg.posinfo(p, 0, 0, 1, (0, 0))),
                           score=[sx, so], cube=cube, owner=owner, no_double=nd,
                           double_take=take, double_pass=drop, verdict=text,
                           cost=opt - (min(take, drop) if doubled else nd))
                if doubled and i + 1 < len(acts):
                    rec['answer'] = acts[i + 1]['action']
                    rec['answer_cost'] = abs(take - drop) if (take > drop) == (rec['answer'] == 'take') else 0.0
                out.write(json.dumps(rec) + '\n')
                rows.append(rec)

for who in ('X', 'O'):
    mine = [r for r in rows if r['player'] == who]
    missed = [r for r in mine if not r['doubled'] and r['cost'] > 1e-3]
    wrong = [r for r in mine if r['doubled'] and r['cost'] > 1e-3]
    answers = [r for r in rows if r['player'] != who and r.get('answer_cost', 0) > 1e-3]
    print('%s: %d decisions; missed doubles %d (%.3f), wrong doubles %d (%.3f), wrong answers %d (%.3f)'
          % (who, len(mine), len(missed), sum(r['cost'] for r in missed), len(wrong),
             sum(r['cost'] for r in wrong), len(answers), sum(r['answer_cost'] for r in answers)))
    worst = sorted(missed + wrong, key=lambda r: -r['cost'])[:10]
    worst += sorted(answers, key=lambda r: -r['answer_cost'])[:5]
    for r in worst:
        what = ('double, %s' % r.get('answer')) if r['doubled'] else 'no double'
        cost = r['cost'] if r in missed + wrong else r['answer_cost']
        who_cost = 'answer ' if r in answers else ''
        print('  %s game %d, score %d-%d, cube %d: %s; gnubg %d-ply: %s (%+.3f %+.3f %+.3f); %scost %.3f  %s'
              % (os.path.basename(r['file']), r['game'], r['score'][0], r['score'][1], r['cube'],
                 what, plies, r['verdict'], r['no_double'], r['double_take'], r['double_pass'],
                 who_cost, cost, r['gnubgid']))
