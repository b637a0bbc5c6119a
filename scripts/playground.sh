#!/usr/bin/env bash
# Builds the package and serves the playground with Vite on localhost.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
exec node_modules/.bin/vite --config playground/vite.config.js "$@"
