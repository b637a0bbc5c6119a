// The seed's type entry for MCP, in a Node project without the DOM lib
// (tests/types/node/tsconfig.json).
import type { IPlayableDownlink, IPlayableUplink, TPlayableErrorCode } from "in-page-playable-page";

const down: IPlayableDownlink = { pageId: null, requestId: "req-1", cmd: "hello", payload: {} };
const up: IPlayableUplink = { pageId: null, requestId: "req-1", ok: false, error: { code: "NOT_LIVE", message: "" } };
const code: TPlayableErrorCode = "NOT_IN_MENU";
export { down, up, code };
