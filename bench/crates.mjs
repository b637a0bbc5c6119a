// What each crate costs in the shipped module: twiggy's per-function sizes of
// the release .wasm after wasm-bindgen (which drops its describe functions)
// and before wasm-opt (which would drop the function names), summed by the crate a function's name
// starts with. Generic code is counted where its name puts it: serde's
// derive output for our types is named after the trait's crate
// (`<sense::MenuItem as serde::Serialize>::serialize` counts for sense, the
// type's crate; `serde_json::ser::…` for serde_json). Raw bytes, not gzip:
// the shares, not the sum, are what to read.
//
//   node bench/crates.mjs            # prints the table (needs `cargo install twiggy` and a release build)
//
// twiggy is the bench's one tool that scripts/setup.sh does not install: the
// bench looks for it before any timing and, without it, leaves the table out
// (saying so at its start and in the report) rather than install anything.
import { execFileSync } from "node:child_process";
import { accessSync, constants, mkdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, join } from "node:path";

export const RELEASE_WASM = "target/wasm32-unknown-unknown/release/in_page_playable.wasm";

const GROUPS = {
  // Primitive types' methods and `T` (blanket impls) are std's code too.
  std: ["std", "core", "alloc", "compiler_builtins", "__rustc", "__rust", "T", "str", "char", "f32", "f64", "u8", "u16", "u32", "u64", "u128", "i8", "i16", "i32", "i64", "i128", "usize", "isize", "bool", "__multi3"],
  serde: ["serde", "serde_core", "serde_derive"],
  "wasm-bindgen": ["wasm_bindgen", "__wbindgen", "__wbg", "__externref"],
  ours: ["sense", "bot", "bom", "playable", "surface", "in_page_playable"],
};

/** The crate a twiggy item name belongs to ("" for sections and unnamed code). */
export function crateOf(name) {
  if (/^(custom section|data segment|"function names"|type\[|global\[|table\[|elem\[|import |export |code\[)/.test(name)) return "";
  let s = name.replace(/^<+/, "").replace(/^&(mut )?/, "").replace(/^dyn /, "");
  const m = /^([A-Za-z_][A-Za-z0-9_]*)/.exec(s);
  return m ? m[1] : "";
}

/** How to get the crate table when twiggy is missing (printed by the bench, written into the report). */
export const TWIGGY_HINT = "the crate table needs twiggy, which the bench does not install: `cargo install twiggy`, then `npm run bench -- --size`";

const isExecutable = (path) => {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/**
 * twiggy's path: in ~/.cargo/bin (where `cargo install` puts it), else on
 * PATH; null when it is in neither.
 */
export function findTwiggy(env = process.env, executable = isExecutable) {
  const dirs = [env.HOME && join(env.HOME, ".cargo/bin"), ...(env.PATH ?? "").split(delimiter)].filter(Boolean);
  return dirs.map((dir) => join(dir, "twiggy")).find(executable) ?? null;
}

/**
 * The crate table for the bench: `crateCosts`, or `{ skipped }` saying how to
 * get it when twiggy is missing (`found` is findTwiggy's answer).
 */
export function crateTable(found = findTwiggy(), release = RELEASE_WASM) {
  return found ? crateCosts(release, found) : { skipped: TWIGGY_HINT };
}

export function crateCosts(release = RELEASE_WASM, twiggy = findTwiggy()) {
  if (!twiggy) throw new Error(TWIGGY_HINT);
  const dir = "bench/tmp/crates";
  mkdirSync(dir, { recursive: true });
  execFileSync(join(homedir(), ".cargo/bin/wasm-bindgen"), ["--target", "web", "--out-dir", dir, "--out-name", "m", release]);
  const wasm = join(dir, "m_bg.wasm");
  const csv = execFileSync(twiggy, ["top", "-n", "1000000", "--format", "csv", wasm], { encoding: "utf8", maxBuffer: 1 << 28 });
  const costs = new Map();
  let code = 0;
  for (const line of csv.split("\n").slice(1)) {
    const m = /^("(?:[^"]|"")*"|[^,]*),(\d+),/.exec(line);
    if (!m) continue;
    const name = m[1].startsWith('"') ? m[1].slice(1, -1).replace(/""/g, '"') : m[1];
    const crate = crateOf(name);
    if (!crate || name.startsWith("Σ") || name.startsWith("...")) continue;
    const bytes = Number(m[2]);
    code += bytes;
    const group = Object.entries(GROUPS).find(([, members]) => members.includes(crate) || members.some((p) => p.startsWith("__") && crate.startsWith(p)));
    // A bare name is an export shim wasm-bindgen generated (`installPlayable`).
    const key = !name.includes("::") && !group ? "wasm-bindgen" : group && group[0] !== "ours" ? group[0] : crate;
    costs.set(key, (costs.get(key) ?? 0) + bytes);
  }
  const rows = [...costs].map(([crate, bytes]) => ({ crate, bytes, share: bytes / code })).sort((a, b) => b.bytes - a.bytes);
  return { code, rows };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { code, rows } = crateCosts();
  console.log(`function bytes by crate (after wasm-bindgen, before wasm-opt; ${code} B of code):`);
  for (const r of rows) console.log(`${r.crate.padEnd(22)} ${String(r.bytes).padStart(8)} B  ${(r.share * 100).toFixed(1)} %`);
}
