// `npm run lint`'s JavaScript half: ESLint's recommended rules over every
// JS file of the repository that is not built output. Browser code (the
// npm entry, the crates' snippets, the playground, fixtures) sees browser
// globals; Node code (the MCP server, the bench, the test suites, scripts)
// sees Node's, plus the browser's where it passes functions to
// page.evaluate, which run in the page.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["www/pkg/**", "target/**", "node_modules/**", "dist/**", "bench/tmp/**", "tests/artifacts/**", "playground/dist/**"] },
  js.configs.recommended,
  {
    files: ["**/*.js", "**/*.mjs"],
    languageOptions: { ecmaVersion: 2024, sourceType: "module", globals: { ...globals.browser } },
    rules: {
      // `catch {}` and `catch (e) {}` without using e are deliberate: a
      // snippet must never throw across into wasm.
      "no-empty": ["error", { allowEmptyCatch: true }],
      "no-unused-vars": ["error", { caughtErrors: "none", argsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["mcp/**", "bench/**", "tests/**/*.mjs", "scripts/**", "examples/extension/build.mjs", "eslint.config.js", "playground/vite.config.js"],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    // What the suites' page.evaluate callbacks find in the page: the
    // fixtures' helpers (tests/fixtures/*.html), the suites' own in-page
    // helpers, and the extension's `chrome` in its service worker.
    files: ["tests/**/*.mjs"],
    languageOptions: {
      globals: {
        ...Object.fromEntries(
          ["makeSurface", "req", "invoke", "REGISTRY", "EXPOSE", "SESSION", "__clicks", "__executed",
            "__hello", "__post", "__down", "__settle", "__until", "__ups"].map((name) => [name, "writable"]),
        ),
        chrome: "readonly",
      },
    },
  },
  {
    files: ["examples/extension/**/*.js"],
    languageOptions: { globals: { ...globals.browser, ...globals.webextensions, ...globals.serviceworker } },
  },
];
