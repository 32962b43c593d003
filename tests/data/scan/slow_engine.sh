#!/bin/sh
exec "${PAWNFENCE_PYTHON:-python3}" "$(dirname "$0")/fake_engine.py" --slow
