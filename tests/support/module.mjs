// The built package in Node, without a browser: the entry's own load (a
// fetch of the .wasm beside it) cannot work from the file system, so the
// module is instantiated here from the file's bytes. Only exports that need
// no DOM (the pure ones, like the WebMCP plan) are meaningful in Node.
import { readFile } from "node:fs/promises";
import * as pkg from "../../www/index.js";
import init from "../../www/pkg/in_page_playable.js";

const bytes = await readFile(new URL("../../www/pkg/in_page_playable_bg.wasm", import.meta.url));
await init({ module_or_path: bytes });

export default pkg;
