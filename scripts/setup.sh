#!/usr/bin/env bash
# Installs what this project needs and is missing. Idempotent: a second run
# only checks. Called by `npm test`, `npm run playground` and CI.
set -euo pipefail
cd "$(dirname "$0")/.."

WASM_BINDGEN_VERSION=0.2.130 # must equal the `=` pin in Cargo.toml
export PATH="$HOME/.cargo/bin:$PATH"
have() { command -v "$1" >/dev/null 2>&1; }
say() { echo "setup: $*"; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# cargo install --locked can fail when the registry does not serve the exact
# locked version of some dependency; the unlocked build then resolves a
# compatible one.
cargo_install() {
  cargo install "$@" --locked || cargo install "$@"
}

rustup component list --installed 2>/dev/null | grep -q '^clippy' || rustup component add clippy
rustup component list --installed 2>/dev/null | grep -q '^rustfmt' || rustup component add rustfmt
rustup target list --installed | grep -qx wasm32-unknown-unknown || {
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
}

if ! have wasm-bindgen || [ "$(wasm-bindgen --version | awk '{print $2}')" != "$WASM_BINDGEN_VERSION" ]; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 5 minutes)"
  cargo_install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
fi

if ! have wasm-pack; then
  say "installing wasm-pack (about 5 minutes)"
  cargo_install wasm-pack
fi

if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
  say "installing Debian's chromium and chromium-driver"
  as_root apt-get update
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-driver
fi

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ] \
  || [ package.json -nt node_modules/.package-lock.json ]; then
  say "installing npm dependencies"
  if [ -f package-lock.json ]; then npm ci --no-audit --no-fund; else npm install --no-audit --no-fund; fi
fi
