#!/usr/bin/env python3
"""A stand-in UCI engine for tests: it misjudges every position as +9.00 for White
(like an engine that does not see a fortress); --crash dies on "go", --slow thinks for
0.1 s (to interrupt a scan in the middle)."""

import sys
import time

crash = "--crash" in sys.argv
slow = "--slow" in sys.argv
for line in sys.stdin:
    cmd = line.strip()
    if cmd == "uci":
        print("id name fake-misjudging-engine\nuciok", flush=True)
    elif cmd == "isready":
        print("readyok", flush=True)
    elif cmd.startswith("go"):
        if crash:
            sys.exit(3)
        if slow:
            time.sleep(0.1)
        print("info depth 1 score cp 900 pv 0000", flush=True)
        print("bestmove 0000", flush=True)
    elif cmd == "quit":
        break
