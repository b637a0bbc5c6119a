// A tiny static server for the end-to-end tests: serves the repository root
// on 127.0.0.1 with correct MIME types. A `csp` query parameter adds a
// Content-Security-Policy header (used to prove the clear CSP error); every
// response is no-store but one asked for with a `store` query parameter.
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".css": "text/css",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};
/**
 * The URL path (on this server) of what `import "in-page-playable-page"`
 * loads: the file package.json's exports name.
 */
export const ENTRY_PATH =
  "/" + JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).exports["."].import.replace(/^\.\//, "");

const POLICIES = {
  // Scripts from self only and no 'wasm-unsafe-eval': WebAssembly cannot compile.
  strict: "script-src 'self'",
};

export async function startServer(port = 0) {
  const hits = new Map(); // pathname → requests served, so tests can wait for a reload instead of sleeping
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://x");
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    // /__redirect?to=URL: a 302 to URL (the MCP origin guard's redirect tests).
    if (url.pathname === "/__redirect") {
      res.writeHead(302, { location: url.searchParams.get("to") ?? "/" }).end();
      return;
    }
    const path = normalize(join(ROOT, decodeURIComponent(url.pathname)));
    if (!path.startsWith(ROOT)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(path.endsWith("/") ? join(path, "index.html") : path);
      const headers = { "content-type": TYPES[extname(path)] || "application/octet-stream" };
      // `?store`: a page the back/forward cache may keep (no-store keeps it out).
      if (!url.searchParams.has("store")) headers["cache-control"] = "no-store";
      const csp = POLICIES[url.searchParams.get("csp")];
      if (csp) headers["content-security-policy"] = csp;
      res.writeHead(200, headers).end(body);
    } catch {
      res.writeHead(404).end("not found");
    }
  });
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  const { port: actual } = server.address();
  const count = (pathname) => hits.get(pathname) ?? 0;
  return {
    origin: `http://127.0.0.1:${actual}`,
    close: () => new Promise((r) => server.close(r)),
    /** How many requests for `pathname` were served so far. */
    hits: count,
    /** Resolves once `pathname` has been requested at least `n` times; rejects after `timeoutMs`. */
    async waitForHits(pathname, n, timeoutMs = 10000) {
      const deadline = Date.now() + timeoutMs;
      while (count(pathname) < n) {
        if (Date.now() > deadline) throw new Error(`${pathname} was requested ${count(pathname)} times, not ${n}, within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}
