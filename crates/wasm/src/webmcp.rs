//! WebMCP publication (`playable.publishWebMcp()`, `surface.publishWebMcp()`):
//! `webmcp.js` keeps the publication: it reads the owner's menu or
//! capabilities, plans which tools that answer publishes (names,
//! descriptions, input schemas; the naming rules are documented there and in
//! docs/mcp.md) and talks to the browser's WebMCP API. `webmcp/publication.rs`
//! only carries each of its requests (reads and tool calls alike) to the
//! owner's `handle`.

mod publication;
pub(crate) use publication::{Owner, Publication, WebMcpPublication};
