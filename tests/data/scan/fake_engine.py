#!/usr/bin/env python3
"""A stand-in UCI engine for tests.  By default it misjudges every position as +9.00
for White (like an engine that does not see a fortress) and plays its first legal move.
Faults, one per flag: --crash dies on "go"; --slow thinks for 0.1 s (to interrupt a scan
in the middle); --hang-go never answers "go"; --hang-quit ignores "quit"; --no-score
sends "bestmove" without an "info ... score"; --illegal answers "bestmove a1a8";
--garbage answers "go" with noise and no best move; --flood-stderr writes megabytes to
standard error first."""

import os
import sys
import time

try:
    import chess
except ImportError:  # started by a python3 without python-chess: use the tests' interpreter
    os.execv(os.environ["PAWNFENCE_PYTHON"], [os.environ["PAWNFENCE_PYTHON"], *sys.argv])

flags = set(sys.argv[1:])
board = chess.Board()
if "--flood-stderr" in flags:
    for _ in range(2000):
        sys.stderr.write("x" * 1000 + "\n")
    sys.stderr.flush()
for line in sys.stdin:
    cmd = line.strip()
    if cmd == "uci":
        print("id name fake-misjudging-engine\nuciok", flush=True)
    elif cmd == "isready":
        print("readyok", flush=True)
    elif cmd.startswith("position"):
        parts = cmd.split(" moves ")
        head = parts[0][len("position "):]
        board = chess.Board() if head.startswith("startpos") else chess.Board(head[4:])
        for uci in (parts[1].split() if len(parts) > 1 else []):
            board.push_uci(uci)
    elif cmd.startswith("go"):
        if "--crash" in flags:
            sys.exit(3)
        if "--hang-go" in flags:
            time.sleep(3600)
        if "--slow" in flags:
            time.sleep(0.1)
        if "--garbage" in flags:
            print("\x00\x01 bogus ☃ line\ninfo nonsense here", flush=True)
            continue
        move = next(iter(board.legal_moves), None)
        best = "a1a8" if "--illegal" in flags else move.uci() if move else "0000"
        if "--no-score" not in flags:
            print(f"info depth 1 score cp 900 pv {best}", flush=True)
        print(f"bestmove {best}", flush=True)
    elif cmd == "quit":
        if "--hang-quit" in flags:
            time.sleep(3600)
        break
