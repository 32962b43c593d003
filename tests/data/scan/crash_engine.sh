#!/bin/sh
exec python3 "$(dirname "$0")/fake_engine.py" --crash
