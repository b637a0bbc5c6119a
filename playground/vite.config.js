import { defineConfig } from "vite";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL(".", import.meta.url));
const repo = fileURLToPath(new URL("..", import.meta.url));

export default defineConfig({
  root,
  server: {
    host: "127.0.0.1",
    port: Number(process.env.PORT) || 5173,
    fs: { allow: [repo] },
  },
  // The package initialises its wasm with new URL(..., import.meta.url); keep
  // it out of dependency pre-bundling so that URL stays next to the module.
  optimizeDeps: { exclude: ["in-page-playable-page"] },
  build: {
    target: "es2022",
    rollupOptions: { input: { main: root + "index.html", shell: root + "shell.html", surface: root + "surface.html" } },
  },
});
