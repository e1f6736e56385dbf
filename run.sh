#!/bin/sh
# Quick start, command 1: set up and run the product's main job on its built-in default:
# the appliance (`carolus run`) — on a Pi it watches the camera, elsewhere it plays the
# bundled demo game through the real vision and referee and serves the web page.
set -eu
cd "$(dirname "$0")"
sh scripts/venv.sh
exec .venv/bin/carolus run "$@"
