// in-page-playable-page: the npm entry (code: www/entry.js, bundled by scripts/bundle.mjs).
export * from "./pkg/in_page_playable.js";
