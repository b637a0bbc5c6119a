#!/usr/bin/env bash
# Release wasm → wasm-bindgen (ES module for browsers, no bundler) → wasm-opt
# → minified JS glue and snippets. Output: www/pkg/ (not committed).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

cargo build --release --target wasm32-unknown-unknown -p in-page-playable-wasm
rm -rf www/pkg
wasm-bindgen --target web --out-dir www/pkg --out-name in_page_playable \
  target/wasm32-unknown-unknown/release/in_page_playable.wasm
node_modules/.bin/wasm-opt -Oz --enable-bulk-memory --enable-reference-types --enable-multivalue \
  --enable-sign-ext --enable-nontrapping-float-to-int --enable-mutable-globals --strip-debug --strip-producers \
  www/pkg/in_page_playable_bg.wasm -o www/pkg/in_page_playable_bg.wasm
node scripts/minify.mjs
node scripts/size.mjs
