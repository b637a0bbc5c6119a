// Copies the built npm package (www/index.js + www/pkg) into ./playable/, the
// folder the manifest lists under web_accessible_resources. Run after
// `npm run build`; the copy is git-ignored. Usage: node examples/extension/build.mjs
import { cp, mkdir, rm, stat } from "node:fs/promises";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const www = fileURLToPath(new URL("../../www/", import.meta.url));
const out = here + "playable/";

// Exactly the package's published files (package.json "files").
const FILES = ["index.js", "pkg/in_page_playable.js", "pkg/in_page_playable_bg.wasm"];

for (const file of FILES) {
  try {
    await stat(www + file);
  } catch {
    console.error(`extension build: ${www + file} is missing; run \`npm run build\` first`);
    process.exit(1);
  }
}
await rm(out, { recursive: true, force: true });
await mkdir(out + "pkg", { recursive: true });
for (const file of FILES) await cp(www + file, out + file, { recursive: true });
console.log(`extension build: copied the package into ${out}`);
