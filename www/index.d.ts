// Public types of in-page-playable-page. The wire contract is docs/protocol.md.

/** Every error code a playable uplink can carry. */
export type TPlayableErrorCode =
  | "BAD_REQUEST"
  | "UNKNOWN_CMD"
  | "NOT_LIVE"
  | "RETIRED"
  | "PAGE_MISMATCH"
  | "NOT_IN_MENU"
  | "AMBIGUOUS"
  | "NOT_ACTIONABLE"
  | "UNSUPPORTED_EVENT"
  | "ESCAPE_NOT_ALLOWED"
  | "DISPATCH_FAILED"
  | "INTERNAL";

export type TPlayableCmd = "hello" | "snapshot" | "run" | "escape";
export type TPlayablePhase = "installed" | "live" | "retired";
export type TPlayableEvent = "click" | "input" | "drag" | "scroll";

/** A request to the page. */
export interface IPlayableDownlink {
  /** `null` is only meaningful for hello. */
  pageId: string | null;
  /** 1..128 characters, echoed verbatim. */
  requestId: string;
  cmd: TPlayableCmd;
  /** `{}` when there is nothing to say. */
  payload: Record<string, unknown>;
}

/** Per-command downlink payloads. */
export interface IHelloPayload {}
export interface ISnapshotPayload {
  /** Ask the injected `captureScreenshot` for an image. */
  screenshot?: boolean;
}
/** run on a click item. */
export interface IRunClickPayload {
  id: string;
}
/** run on an input item: a string (text fields, textareas, contenteditable, a select's option value), a boolean (checkbox, radio) or option values (multiple select). */
export interface IRunInputPayload {
  id: string;
  value: string | boolean | string[];
}
export type TScrollAlign = "start" | "center" | "end";
/** run on a scroll item: at least one of `to` and `by`. */
export interface IRunScrollPayload {
  id: string;
  to?: TScrollAlign;
  by?: { x: number; y: number };
}
/** run on a drag item: `to` is the drop target's menu id. */
export interface IRunDragPayload {
  id: string;
  to: string;
}
export type IRunPayload = IRunClickPayload | IRunInputPayload | IRunScrollPayload | IRunDragPayload;
export interface IEscapePayload {
  type: "reload";
}

export interface IPlayableUplinkOk<P extends Record<string, unknown> = Record<string, unknown>> {
  pageId: string | null;
  requestId: string;
  ok: true;
  payload: P;
}
export interface IPlayableUplinkError {
  pageId: string | null;
  requestId: string;
  ok: false;
  error: { code: TPlayableErrorCode; message: string };
}
/** The page's answer. */
export type IPlayableUplink = IPlayableUplinkOk | IPlayableUplinkError;

/** Ok payloads per command. */
export interface IHelloResult {
  pageId: string;
}
export interface ISnapshotResult {
  snapshot: ISnapshot;
  escapes: IEscape[];
}
export interface IRunClickResult {
  id: string;
}
export interface IRunInputResult {
  id: string;
  value: string | boolean | string[];
}
export interface IRunScrollResult {
  id: string;
  /** The scroll container's new position. */
  scrollLeft: number;
  scrollTop: number;
}
export interface IRunDragResult {
  id: string;
  to: string;
}
export type IRunResult = IRunClickResult | IRunInputResult | IRunScrollResult | IRunDragResult;
export interface IEscapeResult {
  type: "reload";
  retired: true;
}

export interface IMenuItem {
  /** data-e2e-id, or "{islandId}:{slotName}". */
  id: string;
  /** data-e2e-event (default "click"); unknown values are reported as is. */
  event: TPlayableEvent | (string & {});
  /** data-e2e-title or "" (slots: the slot element's accessible name); at most 200 characters. */
  title: string;
  /** data-e2e-desc or ""; at most 1,000 characters. */
  desc: string;
  enabled: boolean;
  visible: boolean;
  /** Island slots only. */
  island?: string;
  /** The id is claimed by more than one element (listed once). */
  ambiguous?: true;
}

export interface IIslandSnapshot {
  id: string;
  slots: { name: string; id: string; resolved: boolean }[];
}

export interface IGenericRef {
  /** g0, g1, … positional and unstable; never runnable. */
  ref: string;
  role: string;
  name: string;
}

export interface ISnapshot {
  pageTitle: string | null;
  menu: IMenuItem[];
  islands: IIslandSnapshot[];
  generics: IGenericRef[];
  /** data-e2e-id (or "") of elements with data-e2e-dirty="true". */
  dirty: string[];
  noReload: boolean;
  /** Exactly what the injected captureScreenshot returned, when asked. */
  screenshot?: unknown;
}

export interface IEscape {
  type: "reload";
  allowed: boolean;
  reason?: string;
}

/** How a slot element is found inside its island. */
export type IIslandSlotSpec = { ariaLabel: string } | { role: string; name: string };

/** island id → slot name → spec. */
export interface IIslandSlotTable {
  [islandId: string]: { [slotName: string]: IIslandSlotSpec };
}

/** Stand-ins for the real sense / bot / bom (tests, integrations). Each is optional. */
export interface IPlayablePorts {
  sense?: {
    snapshot(): ISnapshot | Promise<ISnapshot>;
    /** The target a run acts on; without it, runs answer NOT_ACTIONABLE. */
    resolve?(id: string): unknown | Promise<unknown>;
  };
  bot?: {
    /** Return false or { ok: false }, or throw, to report a failed dispatch. */
    click(target: unknown): void | boolean | { ok: boolean } | Promise<void | boolean | { ok: boolean }>;
  };
  bom?: {
    run(action: { type: "reload" }): { ok: boolean; retired: boolean } | Promise<{ ok: boolean; retired: boolean }>;
  };
}

export interface IInstallPlayableOptions {
  /** Scan root (default: document). */
  root?: Document | ShadowRoot | Element;
  /** The browsing context (default: the root's window). */
  window?: Window;
  islandSlots?: IIslandSlotTable;
  captureScreenshot?: (scope: Document | ShadowRoot | Element) => unknown | Promise<unknown>;
  /** Exact origins the window bridge accepts; copied at install. "*" is not an origin. */
  allowedOrigins?: string[];
  ports?: IPlayablePorts;
}

export interface IPlayable {
  readonly pageId: string | null;
  readonly phase: TPlayablePhase;
  /** Never throws, never rejects. */
  handle(down: IPlayableDownlink): Promise<IPlayableUplink>;
  /** Throws when allowedOrigins is empty or holds "*". */
  attachWindowBridge(): void;
  /**
   * Publishes each runnable menu item as a WebMCP tool (`document.modelContext`)
   * and keeps the tools in line with the live menu; a no-op where WebMCP is
   * absent. Says hello first (the publication is a client like any other).
   * A second call while publishing returns the same publication. See docs/mcp.md.
   */
  publishWebMcp(): IWebMcpPublication;
}

/** What publishWebMcp() returns. */
export interface IWebMcpPublication {
  /** True while tools are published: false without WebMCP, after stop(), after retirement. */
  readonly active: boolean;
  /** Withdraws every tool and stops following the menu. Idempotent. */
  stop(): void;
}

/** Bridge wrappers posted on the page's window (channel "in-page-playable"). */
export interface IPlayableBridgeDown {
  channel: "in-page-playable";
  dir: "down";
  seq: number;
  envelope: IPlayableDownlink;
}
export interface IPlayableBridgeUp {
  channel: "in-page-playable";
  dir: "up";
  seq: number;
  envelope: IPlayableUplink;
}

/** Thrown by every entry point when the WebAssembly module could not load (e.g. CSP). */
export class PlayableLoadError extends Error {
  readonly code: "WASM_BLOCKED_BY_CSP" | "WASM_LOAD_FAILED";
}

export function installPlayable(options?: IInstallPlayableOptions): IPlayable;
export function resetPlayableForTests(): void;
export function detachWindowBridgeForTests(): void;
export function deriveEscapes(snapshot: Pick<ISnapshot, "dirty" | "noReload">): IEscape[];
export function isEscapeAllowed(snapshot: Pick<ISnapshot, "dirty" | "noReload">, type: "reload" | (string & {})): boolean;
