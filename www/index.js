export * from "./pkg/in_page_playable.js";
