#!/bin/sh
# Quick start, command 1: set up and run the product's main job on its built-in default.
set -eu
cd "$(dirname "$0")"
sh scripts/venv.sh
exec .venv/bin/carolus check "${@:-examples/club-night.json}"
