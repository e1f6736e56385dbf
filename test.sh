#!/bin/sh
# Quick start, command 2: set up and run the whole test suite (lint, types, tests).
set -eu
cd "$(dirname "$0")"
sh scripts/venv.sh test
echo "== ruff" >&2
.venv/bin/ruff check .
echo "== mypy --strict referee" >&2
.venv/bin/mypy --strict referee
echo "== pytest" >&2
exec .venv/bin/pytest "$@"
