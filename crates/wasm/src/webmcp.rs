//! WebMCP publication (`playable.publishWebMcp()`, `surface.publishWebMcp()`):
//! `webmcp/publication.rs` reads the owner's menu or capabilities through its
//! `handle` and runs every tool call the same way; `webmcp.js` plans which
//! tools that answer publishes (names, descriptions, input schemas; the
//! naming rules are documented there and in docs/mcp.md) and talks to the
//! browser's WebMCP API.

mod publication;
pub(crate) use publication::{Owner, Publication, WebMcpPublication};
