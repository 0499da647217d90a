"""A DXP follower made of pydraughts' pieces, for `tablier dxp --connect` (the initiator).

Usage: dxp_follower.py MAX_PLIES SEED

pydraughts 0.6.7 has no follower of its own, so this one is assembled from its DXP codec
(dxp_classes.DamExchange: parse() reads every message, msg_move/msg_gameend/msg_backacc write
ours) and its rules (draughts.Board validates every MOVE received, as its receiver does: the
move must match one legal move by from, to and the set of captured squares). Only the GAMEACC,
which pydraughts never sends, is written here by hand, to the same fixed layout. The follower
plays seeded random legal moves, ends a game (GAMEEND) when it is to move and pydraughts' Board
says the game is over or MAX_PLIES plies were played, answers the initiator's GAMEEND with its
own, and serves games until the initiator closes the connection.

Prints the port it listens on (first line), then one JSON object: the games and the protocol
errors seen (messages pydraughts cannot parse, illegal moves, messages out of turn).
"""

import json
import random
import socket
import sys

import draughts
from draughts.engines.dxp_communication.dxp_classes import DamExchange

dxp = DamExchange()
errors = []
games = []


def winner_name(w):
    return {None: None, 0: "draw", draughts.WHITE: "white", draughts.BLACK: "black"}[w]


def recv_messages(sock):
    buf = b""
    while True:
        chunk = sock.recv(4096)
        if not chunk:
            return
        buf += chunk
        while b"\0" in buf:
            msg, buf = buf.split(b"\0", 1)
            yield msg.decode("ascii")


def send(sock, text):
    sock.sendall(text.encode("ascii") + b"\0")


def main():
    max_plies, seed = int(sys.argv[1]), int(sys.argv[2])
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    print(server.getsockname()[1])
    sys.stdout.flush()
    server.settimeout(30)
    sock, _ = server.accept()
    sock.settimeout(30)
    board = None
    my_colour = None
    rng = random.Random(seed)
    game = None

    def my_turn():
        return board is not None and board.turn == my_colour

    def play_if_my_turn():
        nonlocal board
        if not my_turn():
            return
        if board.is_over() or len(board.move_stack) >= max_plies:
            reason = "0" if not board.is_over() else ("2" if board.winner() == 0 else "1")
            # pydraughts always writes stop code 1 (no next game); this follower wants more.
            send(sock, dxp.msg_gameend(reason)[:2] + "0")
            game["ended_by"] = "pydraughts"
            game["plies"] = len(board.move_stack)
            game["pydraughts_winner"] = winner_name(board.winner())
            games.append(game)
            board = None
            return
        m = rng.choice(board.legal_moves())
        board.push(m)
        send(sock, dxp.msg_move(m.steps_move, m.captures, 0))

    for text in recv_messages(sock):
        d = dxp.parse(text)
        kind = d["type"]
        if kind == "R":
            if board is not None:
                errors.append(f"GAMEREQ during a game: {text}")
            if d["posInd"] != "A":
                errors.append(f"unexpected set-up position: {text}")
            board = draughts.Board(variant="standard")
            my_colour = draughts.WHITE if d["fColor"] == "W" else draughts.BLACK
            game = {"follower": "white" if my_colour == draughts.WHITE else "black",
                    "initiator": d["name"], "minutes": d["gameTime"], "moves": d["numMoves"]}
            if len(text) != 43 or not d["gameTime"].isdigit():
                errors.append(f"GAMEREQ layout: {text!r}")
            send(sock, "A" + "pydraughts follower".ljust(32) + "0")
            play_if_my_turn()
        elif kind == "M":
            if board is None or my_turn():
                errors.append(f"MOVE out of turn: {text}")
                continue
            key = d["from"] + d["to"] + "".join(sorted(d["captures"], key=int))
            # pydraughts lists a capture once per path; paths taking the same pieces are one move.
            legal = [m for m in board.legal_moves() if m.hub_position_move == key]
            if not legal:
                errors.append(f"illegal move {text} in {board.fen}")
                continue
            board.push(legal[0])
            play_if_my_turn()
        elif kind == "E":
            if board is not None:
                # The initiator ends the game: answer with our own GAMEEND.
                send(sock, dxp.msg_gameend("0")[:2] + d["stop"])
                game["ended_by"] = "tablier"
                game["reason"] = d["reason"]
                game["plies"] = len(board.move_stack)
                game["pydraughts_winner"] = winner_name(board.winner())
                games.append(game)
                board = None
        elif kind == "C":
            if d["text"].lower().startswith("error"):
                errors.append(f"chat: {d['text']}")
        else:
            errors.append(f"unexpected message: {text!r}")
    if board is not None:
        errors.append("connection closed during a game")
    sock.close()
    server.close()
    print(json.dumps({"games": games, "errors": errors}))


if __name__ == "__main__":
    main()
