#!/usr/bin/env bash
# Every test, in three layers: native Rust, Rust in headless Chromium
# (wasm-pack), and the built npm package end to end in Chromium (node:test +
# playwright-core), plus the lint, format and TypeScript checks.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PATH="$HOME/.cargo/bin:$PATH"
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"

step() { printf '\n=== %s\n' "$*"; }

step "lint: cargo fmt --check, clippy (native and wasm32, warnings are errors), ESLint"
npm run lint

step "native tests (cargo test)"
cargo test --workspace

for dir in crates/*/; do
  if [ -f "$dir/webdriver.json" ]; then
    step "headless browser tests: wasm-pack test $dir"
    wasm-pack test --headless --chrome "$dir"
  fi
done

step "build the npm package (release wasm, wasm-opt)"
bash scripts/build.sh

step "TypeScript: tsc --noEmit"
node_modules/.bin/tsc --noEmit -p tsconfig.json

step "copy the package into the example extension" && node examples/extension/build.mjs
step "end-to-end in Chromium (node --test)"
node --test --test-concurrency=1 tests/*.test.mjs
