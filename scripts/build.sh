#!/usr/bin/env bash
# Release wasm → wasm-bindgen (ES module for browsers, no bundler) → wasm-opt
# → the JS glue and snippets bundled into one minified file. Output: www/pkg/ (not committed).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

# The shipped module rebuilds std with the immediate-abort panic strategy: a
# panic (a bug; JS inputs are bounded and checked before they reach Rust)
# traps at once instead of formatting a message nobody sees, which drops the
# panic and formatting machinery (about 8 KB gzip). -Zlocation-detail=none
# drops the file/line/column of those panics, which nothing reads (0.6 KB),
# and std's optimize_for_size feature picks its smaller implementations of
# the same behaviour (merge/heap sort, integer formatting, float parsing:
# 1.8 KB). -Zcross-crate-inline-threshold=always makes every function
# available for inlining into other crates, as `#[inline]` does: about
# 8.5 KB gzip less at opt-level "z" (the MIR inliner, -Zinline-mir=yes, saves
# 1.7 KB alone but costs 1.7 KB on top of this, so it stays off). Inlining
# decisions only: the code's behaviour is the same.
# -Zbuild-std, -Cpanic=immediate-abort, -Zlocation-detail and
# -Zcross-crate-inline-threshold are unstable; RUSTC_BOOTSTRAP=1 allows them on the
# machine's stable toolchain for this one command only. A target dir of its
# own keeps the cache of the ordinary (test) builds valid.
if ! rustup component list --installed 2>/dev/null | grep -q '^rust-src'; then
  echo "build: the rust-src component is missing (the shipped module rebuilds std):" >&2
  echo "       run 'npm run setup', or 'rustup component add rust-src'" >&2
  exit 1
fi
RUSTC_BOOTSTRAP=1 RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort -Zlocation-detail=none -Zcross-crate-inline-threshold=always" \
  cargo build --release --target wasm32-unknown-unknown -p in-page-playable-wasm \
  -Z build-std=std,panic_abort -Z build-std-features=optimize_for_size --target-dir target/shipped
rm -rf www/pkg
wasm-bindgen --target web --out-dir www/pkg --out-name in_page_playable \
  target/shipped/wasm32-unknown-unknown/release/in_page_playable.wasm
FEATURES="--enable-bulk-memory --enable-reference-types --enable-multivalue --enable-sign-ext
  --enable-nontrapping-float-to-int --enable-mutable-globals"
# Every import and export gets a one- or two-letter name and every import one
# module ("a") instead of wasm-bindgen's hashed names and snippet paths (about
# 2 KB gzip). A pass of its own (it prints the mapping on stdout, once), and
# first: -Oz does a little better on the renamed module. scripts/rename.mjs
# rewrites the glue to the mapping before it is bundled.
node_modules/.bin/wasm-opt --minify-imports-and-exports-and-modules $FEATURES \
  www/pkg/in_page_playable_bg.wasm -o www/pkg/in_page_playable_bg.wasm > target/shipped/names.json
# --low-memory-unused lets wasm-opt fold added constants into load/store
# offsets (--optimize-added-constants-propagate: through locals too): true
# here, the first 1 KB is the bottom of the 1 MB stack (wasm-ld puts the
# stack first), reached only by an overflow. --converge repeats the last
# pass while it still shrinks the module (about 0.9 KB gzip for both).
# Before that, twice: --flatten --rereloop rebuilds every function's control
# flow from scratch (the Relooper) and -Os cleans up after it, which finds
# smaller block structures than -Oz alone (about 0.6 KB gzip). -Os, not
# -Oz: a few bytes more raw, less gzip.
RELOOP="--flatten --rereloop -Os"
node_modules/.bin/wasm-opt --low-memory-unused --optimize-added-constants-propagate -Os $RELOOP $RELOOP -Os --converge $FEATURES \
  --strip-debug --strip-producers --strip-target-features \
  www/pkg/in_page_playable_bg.wasm -o www/pkg/in_page_playable_bg.wasm
# Then the glue: trimmed to the paths www/entry.js takes, renamed to match.
node scripts/trim.mjs
node scripts/rename.mjs target/shipped/names.json www/pkg/in_page_playable_bg.wasm
node scripts/bundle.mjs
node scripts/size.mjs
