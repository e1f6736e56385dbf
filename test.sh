#!/bin/sh
# Quick start, command 2: set up and run the whole test suite (lint, types, tests).
set -eu
cd "$(dirname "$0")"
sh scripts/venv.sh test
# The browser tests drive Debian's chromium through Playwright (never a downloaded browser).
if [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null 2>&1; then
    echo "== installing Debian's chromium for the browser tests" >&2
    sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
    if ! { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium; } >/dev/null; then
        echo "carolus: could not install chromium; the browser tests will be skipped" >&2
    fi
fi
echo "== ruff" >&2
.venv/bin/ruff check --no-cache .
echo "== mypy --strict referee vision web firmware" >&2
.venv/bin/mypy --strict referee vision web firmware
echo "== pytest" >&2
# One worker a core (pytest-xdist): the whole demo game through the vision fits in.
exec .venv/bin/pytest -n auto --dist worksteal "$@"
