#!/usr/bin/env bash
# Release wasm → wasm-bindgen (ES module for browsers, no bundler) → wasm-opt
# → www/entry.js, the JS glue and the crates' snippets bundled into one
# minified file. Output: www/pkg/ (not committed).
#
# Stable Rust, nothing patched: no unstable-feature override, no -Z flag, no rebuilt
# std. The workspace's release profile (Cargo.toml) does the size work:
# opt-level "z", LTO, one codegen unit, panic = "abort". wasm-bindgen's glue
# is used as it generates it; only the bundler (rolldown, a devDependency)
# joins and minifies it.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

cargo build --release --target wasm32-unknown-unknown -p in-page-playable-wasm
rm -rf www/pkg
wasm-bindgen --target web --out-dir www/pkg --out-name in_page_playable \
  target/wasm32-unknown-unknown/release/in_page_playable.wasm

# The WebAssembly features rustc's wasm32-unknown-unknown target enables by
# default, which the module uses (wasm-bindgen's externref table needs
# reference types). The --strip-* passes drop custom sections only (names,
# producers, target features), which nothing reads at run time.
FEATURES="--enable-bulk-memory --enable-reference-types --enable-multivalue --enable-sign-ext
  --enable-nontrapping-float-to-int --enable-mutable-globals"
# shellcheck disable=SC2086 # FEATURES is a list of flags
node_modules/.bin/wasm-opt -Oz $FEATURES --strip-debug --strip-producers --strip-target-features \
  www/pkg/in_page_playable_bg.wasm -o www/pkg/in_page_playable_bg.wasm

node scripts/bundle.mjs
node scripts/size.mjs
