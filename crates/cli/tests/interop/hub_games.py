"""pydraughts' HubEngine drives `tablier hub` through whole games.

Usage: hub_games.py TABLIER GAMES SEED MOVE_TIME MAX_PLIES

pydraughts 0.6.7 starts the engine (`TABLIER hub`), reads `id`/`param` up to `wait`, sends
`init` and waits for `ready`, then for each move of the engine's side sends
`pos pos=<start> moves="<every move so far>"`, `level move-time=<s>`, `go think` and reads
`info` lines up to `done move=...`; its Move(hub_move=...) reads the engine's move, which must
then be one of the legal moves of pydraughts' own Board. The other side plays seeded random
legal moves; colours alternate (the engine has White in game 1). A game ends when pydraughts'
Board says it is over, or after MAX_PLIES plies. `ping` is checked once per game.

Prints one JSON object: the games (plies, winner by pydraughts' rules), the engine's id, and
the protocol errors seen (pydraughts' warnings about unexpected engine lines, `error` lines,
moves it cannot read or that are not legal).
"""

import json
import logging
import random
import re
import sys

import draughts
from draughts.engine import HubEngine, Limit


class Recorder(logging.Handler):
    def __init__(self):
        super().__init__()
        self.lines = []

    def emit(self, record):
        self.lines.append((record.levelno, record.getMessage()))


rec = Recorder()
log = logging.getLogger("pydraughts")
log.setLevel(logging.DEBUG)
log.addHandler(rec)


def protocol_errors():
    errs = [msg for level, msg in rec.lines if level >= logging.WARNING]
    errs += [msg for level, msg in rec.lines if re.search(r">> %s \d+ error\b", msg)]
    return errs


def winner_name(w):
    return {None: None, 0: "draw", draughts.WHITE: "white", draughts.BLACK: "black"}[w]


def main():
    tablier, games, seed, move_time, max_plies = sys.argv[1], int(sys.argv[2]), int(
        sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
    eng = HubEngine([tablier, "hub"])
    eng.init()
    errors = []
    results = []
    for g in range(games):
        board = draughts.Board(variant="standard")
        rng = random.Random(seed * 1000 + g)
        engine_white = g % 2 == 0
        engine_moves = 0
        eng.ping()
        while not board.is_over() and len(board.move_stack) < max_plies:
            engine_to_move = (board.turn == draughts.WHITE) == engine_white
            if engine_to_move:
                try:
                    res = eng.play(board, Limit(movetime=move_time), ponder=False)
                except Exception as e:  # a move pydraughts cannot read
                    errors.append(f"game {g + 1}: {type(e).__name__}: {e}")
                    break
                # pydraughts lists a capture once per path; paths taking the same pieces are one move.
                key = res.move.hub_position_move
                legal = [m for m in board.legal_moves() if m.hub_position_move == key]
                if not legal:
                    errors.append(
                        f"game {g + 1}: engine move {res.move.hub_move} is not legal in {board.fen}")
                    break
                board.push(legal[0])
                engine_moves += 1
            else:
                board.push(rng.choice(board.legal_moves()))
        results.append({
            "game": g + 1,
            "engine": "white" if engine_white else "black",
            "plies": len(board.move_stack),
            "engine_moves": engine_moves,
            "over": board.is_over(),
            "pydraughts_winner": winner_name(board.winner()),
        })
    eng.quit()
    try:
        code = eng.p.wait(timeout=10)
    except Exception:
        errors.append("the engine did not exit after quit")
        eng.kill_process()
        code = None
    print(json.dumps({"id": eng.id, "games": results, "exit_code": code,
                      "errors": errors + protocol_errors()}))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
