// The design card's entry fee, measured: builds bench/floor (each card crate
// used once for its job, trivial logic) exactly as scripts/build.sh builds the
// shipped module (release profile, wasm-bindgen --target web, wasm-opt -Oz,
// glue minified by rolldown) and prints its size as scripts/size.mjs counts it,
// beside the shipped module's. Usage: node bench/floor.mjs [--json]
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { rolldown } from "rolldown";
import { measure, moduleFiles } from "../scripts/size.mjs";

const root = new URL("..", import.meta.url).pathname;
const out = join(root, "target/floor/pkg");
const run = (cmd, args, cwd = root) =>
  execFileSync(cmd, args, { cwd, stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, PATH: `${process.env.HOME}/.cargo/bin:${process.env.PATH}` } });

/**
 * One build of bench/floor: `card` true for the card's crates, false for
 * wasm-bindgen alone; `types20` adds twenty more serde-derived wire types.
 */
export async function floor(card = true, types20 = false) {
  const features = card ? (types20 ? ["--features", "types20"] : []) : ["--no-default-features"];
  // A workspace member: the workspace's wasm-bindgen pin, Cargo.lock and
  // release profile. Its own target dir keeps its features from touching the
  // module's build.
  run("cargo", ["build", "--release", "--target", "wasm32-unknown-unknown", "-p", "card-floor", "--target-dir", join(root, "target/floor"), ...features]);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  run("wasm-bindgen", ["--target", "web", "--out-dir", out, "--out-name", "floor", join(root, "target/floor/wasm32-unknown-unknown/release/card_floor.wasm")]);
  const enable = ["bulk-memory", "reference-types", "multivalue", "sign-ext", "nontrapping-float-to-int", "mutable-globals"].map((f) => `--enable-${f}`);
  run(join(root, "node_modules/.bin/wasm-opt"), ["-Oz", ...enable, "--strip-debug", "--strip-producers", "--strip-target-features", join(out, "floor_bg.wasm"), "-o", join(out, "floor_bg.wasm")]);
  const bundle = await rolldown({ input: join(out, "floor.js"), treeshake: true, logLevel: "warn" });
  await bundle.write({ file: join(out, "floor.min.js"), format: "esm", minify: true, comments: false });
  await bundle.close();
  return measure([join(out, "floor_bg.wasm"), join(out, "floor.min.js")]);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const bare = await floor(false);
  const card = await floor(true);
  const types20 = await floor(true, true);
  const shipped = measure(moduleFiles());
  const result = { bare, card, types20, shipped };
  if (process.argv.includes("--json")) console.log(JSON.stringify(result));
  else {
    const row = (name, s) => console.log(`${name.padEnd(40)} raw ${s.raw} B, gzip ${s.gzip} B, brotli ${s.brotli} B`);
    row("wasm-bindgen alone (bench/floor, bare)", bare);
    row("the card's crates (bench/floor)", card);
    row("… and twenty more wire types", types20);
    row("shipped module (www/pkg)", shipped);
  }
  writeFileSync(join(out, "sizes.json"), JSON.stringify(result, null, 2));
}
