"""pydraughts' DXPEngine as DXP initiator against `tablier dxp --listen` (the follower).

Usage: dxp_initiator.py HOST PORT GAMES SEED MAX_PLIES

pydraughts 0.6.7 connects with DXPEngine ({'engine-opened': True}: the engine is already
running), sends the GAMEREQ through DXPEngine._start (the same call its play() makes), and its
receiver thread checks every MOVE it gets against its own Board's legal moves (an illegal one
is logged as "Error: received move is illegal" and never handed over). Its own side plays
seeded random legal moves. Games on one connection alternate colours: the follower plays White
in game 1, where DXPEngine.takeback also asks (BACKREQ) to go back to move 4 after 11 plies.
pydraughts' own play() waits for a MOVE forever, so the wait is written here with a timeout
and also watches for a GAMEEND (the follower ends the game when it is to move and the game is
over by its rules).

Prints one JSON object: the games (plies, how each ended) and the protocol errors seen (lines
of pydraughts' log that report errors, chats from the follower that start with "error").
Exits through os._exit: pydraughts' receiver thread never returns once the socket is closed
by the other side.
"""

import json
import logging
import os
import random
import sys
import time

import draughts
from draughts.engine import DXPEngine


class Recorder(logging.Handler):
    def __init__(self):
        super().__init__()
        self.lines = []

    def emit(self, record):
        self.lines.append(record.getMessage())


rec = Recorder()
log = logging.getLogger("pydraughts")
log.setLevel(logging.DEBUG)
log.addHandler(rec)

ERROR_MARKS = ("Error", "illegal", "rcv UNKNOWN", "NOT accepted")


def protocol_errors():
    errs = [line for line in rec.lines if any(m in line for m in ERROR_MARKS)]
    for line in rec.lines:
        if line.startswith("\nChat message: "):
            text = line[len("\nChat message: "):]
            if text.lower().startswith("error"):
                errs.append("chat: " + text)
    return errs


def gameends_received():
    return sum(1 for line in rec.lines if line.startswith("rcv GAMEEND"))


def fail(why):
    print(json.dumps({"fatal": why, "errors": protocol_errors(), "log": rec.lines[-40:]}))
    sys.stdout.flush()
    os._exit(1)


def wait(cond, seconds, what):
    end = time.time() + seconds
    while not cond():
        if time.time() > end:
            fail(f"timeout after {seconds} s waiting for {what}")
        time.sleep(0.002)


def winner_name(w):
    return {None: None, 0: "draw", draughts.WHITE: "white", draughts.BLACK: "black"}[w]


def main():
    host, port, games, seed, max_plies = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(
        sys.argv[4]), int(sys.argv[5])
    eng = DXPEngine(None, {"engine-opened": True, "ip": host, "port": port, "initial-time": 60})
    results = []
    for g in range(games):
        board = draughts.Board(variant="standard")
        rng = random.Random(seed * 1000 + g)
        follower_white = g % 2 == 0
        # DXPEngine asks for the game with the follower on the side to move at its first
        # play(); with our own waiting loop the request is made here, with the same calls.
        eng.receiver.last_move_changed = False
        if g == 0:
            eng._start(board, eng.initial_time)  # connects, GAMEREQ, waits for GAMEACC
            eng.game_started = True
        else:
            eng.receiver.accepted = None
            eng.sender.setup(board.initial_fen, board.variant)
            eng.sender.gamereq("B" if follower_white else "W", 1, 0)
            wait(lambda: eng.receiver.accepted is not None, 10, "GAMEACC")
        if not eng.receiver.accepted:
            fail(f"game {g + 1} refused")
        ended_by = None
        reason = None
        engine_moves = 0
        pending = None  # our last move, not yet sent
        took_back = False
        while True:
            follower_to_move = (board.turn == draughts.WHITE) == follower_white
            if g == 0 and len(board.move_stack) == 11 and not took_back:
                # BACKREQ through DXPEngine.takeback: back to move 4 with White (the follower)
                # to move; it answers BACKACC 0, then plays from there.
                took_back = True
                accepted, _, res = eng.takeback(4, draughts.WHITE)
                if not accepted:
                    fail("take-back refused")
                while len(board.move_stack) > 6:
                    board.pop()
                eng.receiver.last_move_changed = False
                # pydraughts lists a capture once per path; paths taking the same pieces are one move.
                key = res.move.hub_position_move
                legal = [m for m in board.legal_moves() if m.hub_position_move == key]
                if not legal:
                    fail(f"move {res.move.hub_move} after the take-back is not legal in {board.fen}")
                board.push(legal[0])
                engine_moves += 1
                continue
            if board.is_over() or len(board.move_stack) >= max_plies:
                capped = not board.is_over()
                if follower_to_move and pending is not None and not capped:
                    # The follower must see the final move: it is to move, so it ends the game.
                    eng.sender.send_move(pending)
                    wait(lambda: not eng.sender.current.started or eng.receiver.last_move_changed,
                         20, "the follower's GAMEEND")
                    if not eng.sender.current.started:
                        ended_by, reason = "follower", eng.sender.current.result
                        break
                    fail("the follower played on in a finished game: "
                         f"{eng.receiver.last_move.hub_move}")
                before = gameends_received()
                eng.sender.gameend()
                wait(lambda: gameends_received() > before, 10, "the GAMEEND answer")
                ended_by = "cap" if capped else "pydraughts"
                break
            if follower_to_move:
                if pending is not None:
                    eng.sender.send_move(pending)
                    pending = None
                wait(lambda: eng.receiver.last_move_changed or not eng.sender.current.started,
                     20, "the follower's move")
                if not eng.receiver.last_move_changed:
                    # The follower ended the game (a draw rule counted otherwise than here).
                    ended_by, reason = "follower", eng.sender.current.result
                    break
                eng.receiver.last_move_changed = False
                got = eng.receiver.last_move
                # pydraughts lists a capture once per path; paths taking the same pieces are one move.
                key = got.hub_position_move
                legal = [m for m in board.legal_moves() if m.hub_position_move == key]
                if not legal:
                    fail(f"move {got.hub_move} is not legal in {board.fen}")
                board.push(legal[0])
                engine_moves += 1
            else:
                pending = rng.choice(board.legal_moves())
                board.push(pending)
        results.append({
            "game": g + 1,
            "follower": "white" if follower_white else "black",
            "plies": len(board.move_stack),
            "engine_moves": engine_moves,
            "took_back": took_back,
            "ended_by": ended_by,
            "reason": reason,
            "pydraughts_winner": winner_name(board.winner()),
        })
    print(json.dumps({"games": results, "errors": protocol_errors()}))
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
