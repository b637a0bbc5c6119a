// Prints the built module's size: raw, gzip and brotli, wasm plus JS glue.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync, brotliCompressSync, constants } from "node:zlib";

export function moduleFiles(dir = "www/pkg") {
  const out = [];
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith(".wasm") || (p.endsWith(".js") && !p.endsWith(".d.ts"))) out.push(p);
    }
  };
  walk(dir);
  out.push("www/index.js");
  return out;
}

export function measure(files = moduleFiles()) {
  const sum = { raw: 0, gzip: 0, brotli: 0 };
  for (const f of files) {
    const buf = readFileSync(f);
    sum.raw += buf.length;
    sum.gzip += gzipSync(buf, { level: 9 }).length;
    sum.brotli += brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  }
  return sum;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const s = measure();
  const kb = (n) => (n / 1024).toFixed(1) + " KiB";
  console.log(`module size (wasm + JS glue): raw ${kb(s.raw)}, gzip ${kb(s.gzip)}, brotli ${kb(s.brotli)}`);
}
