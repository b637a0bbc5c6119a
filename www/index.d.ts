/// <reference lib="dom" />
// Public types of in-page-playable-page. The wire contract is docs/protocol.md.
// The DOM lib is referenced so that a project without it (a Node MCP server
// that imports only the protocol types) still compiles with skipLibCheck off.

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
  /**
   * Keep only the menu items whose id, title or desc contain every
   * whitespace-separated word (ignoring case), and the generics whose role or
   * name do. With `query`, `offset` or `limit` the snapshot is windowed:
   * it carries `menuWindow`, `genericsWindow` and `islandsTotal`, and only
   * the islands the menu window concerns; without them it is the full
   * snapshot the seed defines.
   */
  query?: string;
  /** First row of each window (menu and visible generics), default 0. */
  offset?: number;
  /** Rows per window; none: to the end. */
  limit?: number;
}
/** run on a click item. */
export interface IRunClickPayload {
  id: string;
}
/**
 * run on an input item: a string (text fields, textareas, contenteditable, a select's option value), a boolean (checkbox, radio) or option values (multiple select).
 * BAD_REQUEST for a text longer than the field's maxlength, and for false on a checked radio (a radio is unchecked by checking another of its group);
 * DISPATCH_FAILED when the page's beforeinput handler cancels the text (nothing is set).
 */
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
  /**
   * Every island; in a windowed snapshot only those with a slot among the
   * window's menu rows or a slot not found (`resolved: false`).
   */
  islands: IIslandSnapshot[];
  generics: IGenericRef[];
  /** data-e2e-id (or "") of elements with data-e2e-dirty="true". */
  dirty: string[];
  noReload: boolean;
  /** Exactly what the injected captureScreenshot returned, when asked. */
  screenshot?: unknown;
  /** Only in a windowed snapshot (`query`, `offset` or `limit` asked): total = matching menu items. */
  menuWindow?: IWindow;
  /** Only in a windowed snapshot: total = matching visible generics; hidden = matching generics left out as not visible. */
  genericsWindow?: IWindow & { hidden: number };
  /** Only in a windowed snapshot: the islands of the whole page, `islands` being those the window concerns. */
  islandsTotal?: number;
}

/** A window over a list: the rows [offset, offset + limit) of `total`. */
export interface IWindow {
  offset: number;
  limit: number;
  total: number;
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

/**
 * What `installPlayable({ window })` needs of a window that is not one (docs/protocol.md §4):
 * the bridge listens for `message` events and replies with `postMessage(reply, origin)`.
 */
export interface IStandInWindow {
  postMessage(message: unknown, targetOrigin: string): void;
  addEventListener(type: "message", listener: (event: MessageEvent) => void): void;
  removeEventListener(type: "message", listener: (event: MessageEvent) => void): void;
}

export interface IInstallPlayableOptions {
  /**
   * Scan root (default: `window`'s document when `window` is given, else this
   * document). With `window`, it must not be a node of another window's
   * document: that is a TypeError and nothing is installed.
   */
  root?: Document | ShadowRoot | Element;
  /**
   * The browsing context: marked, bridged and reloaded (default: the root's
   * window). One of another origin without `root` is a TypeError: its
   * document cannot be read. A stand-in with `postMessage`,
   * `addEventListener` and `removeEventListener` but no `document` (a
   * relay's, a test harness's) is accepted: the root then defaults to this
   * document, and the bridge listens and replies through the stand-in.
   */
  window?: Window | IStandInWindow;
  islandSlots?: IIslandSlotTable;
  /**
   * Called with the scan root when a snapshot asks for a screenshot; its result
   * (awaited if it is a promise) is `snapshot.screenshot`. A method, so a
   * capturer typed for the root it will get (`async (scope: Element) => …`,
   * as the seed types it) is accepted under --strict.
   */
  captureScreenshot?(scope: Document | ShadowRoot | Element): unknown;
  /**
   * Exact origins the window bridge accepts, as `event.origin` writes them
   * (`"https://app.example"`, `"http://localhost:5173"`); copied at install.
   * `"*"`, `"null"`, a path, a pattern, a trailing slash or a default port (`:443` after `https`) is not an origin
   * (in a srcdoc or about:blank iframe, `location.origin` is `"null"`: use `window.origin`).
   * Only the first `installPlayable` in a window reads it: a later call returns that instance as it is.
   */
  allowedOrigins?: string[];
  ports?: IPlayablePorts;
}

/** The seed's IPlayable: what a client or a test double needs. */
export interface IPlayable {
  readonly pageId: string | null;
  readonly phase: TPlayablePhase;
  /** Never throws, never rejects. */
  handle(down: IPlayableDownlink): Promise<IPlayableUplink>;
  /**
   * Throws when allowedOrigins is empty or holds an entry that is not an origin ("*", "null", a path…),
   * and when the page's addEventListener or removeEventListener throws (nothing is attached; a later call may attach).
   * Again while attached: still one reply per downlink. Call it again after `document.open()`, which erases the window's listeners.
   */
  attachWindowBridge(): void;
}

/**
 * What `installPlayable` returns: an IPlayable and publishWebMcp. Every method
 * is bound to the instance (`const { handle, attachWindowBridge } = playable` works).
 */
export interface IInstalledPlayable extends IPlayable {
  /**
   * Publishes each runnable menu item as a WebMCP tool (`document.modelContext`)
   * and keeps the tools in line with the live menu; a no-op where WebMCP is
   * absent. Says hello first (the publication is a client like any other).
   * A second call while publishing returns the same publication. Each tool is
   * annotated `untrustedContentHint` (its results carry page text). See docs/mcp.md.
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

/**
 * wasm-bindgen's initialiser of the module, as the glue exports it. The
 * entry has already awaited it when the import resolves, so a call resolves
 * at once to the module's WebAssembly exports (the bench reads its memory
 * through it). Nothing else needs it.
 */
export default function init(): Promise<WebAssembly.Exports>;

/**
 * Installs the module once per window and document: a second call for the
 * same window returns the same instance, whatever its options, while that
 * window still holds the document the instance was built for. Once it does
 * not (a frame that reloaded or navigated), the old instance answers
 * `RETIRED` and this call installs the new document's (docs/protocol.md §4).
 */
export function installPlayable(options?: IInstallPlayableOptions): IInstalledPlayable;
export function resetPlayableForTests(): void;
export function detachWindowBridgeForTests(): void;
/** A field that is absent counts as `[]` (`dirty`) or `false` (`noReload`). */
export function deriveEscapes(snapshot: Partial<Pick<ISnapshot, "dirty" | "noReload">>): IEscape[];
export function isEscapeAllowed(snapshot: Partial<Pick<ISnapshot, "dirty" | "noReload">>, type: "reload" | (string & {})): boolean;

// ---- Surface (pling.surface/0.1): describe / invoke over declared capabilities. See docs/surface.md.

/** The JSON Schema subset Surface enforces (see docs/surface.md, "Schema validation"). */
export interface ISurfaceSchema {
  type?: TSurfaceSchemaType | TSurfaceSchemaType[];
  enum?: unknown[];
  const?: unknown;
  properties?: { [name: string]: ISurfaceSchema | boolean };
  required?: string[];
  additionalProperties?: ISurfaceSchema | boolean;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  items?: ISurfaceSchema | boolean;
  minItems?: number;
  maxItems?: number;
  title?: string;
  description?: string;
  default?: unknown;
  examples?: unknown[];
  format?: string;
  $schema?: string;
  $id?: string;
  $comment?: string;
  readOnly?: boolean;
  writeOnly?: boolean;
  deprecated?: boolean;
  $defs?: { [name: string]: ISurfaceSchema | boolean };
  definitions?: { [name: string]: ISurfaceSchema | boolean };
}
export type TSurfaceSchemaType = "null" | "boolean" | "object" | "array" | "number" | "string" | "integer";

/** One capability the page declares; shared with the page's own helper. */
export interface CapabilityDeclaration {
  /** "orders.search", or "name@kind" for a row action over records of that kind (target: input.record). */
  id: string;
  title: string;
  description?: string;
  /** An object schema; row actions get a required string `record` added. */
  input?: ISurfaceSchema & { type?: "object" };
  /** "high" needs the `confirm` hook to approve. */
  risk?: "low" | "high";
  /** The capability changes nothing (a search, a read): WebMCP tools get `readOnlyHint`. */
  readOnly?: boolean;
  /** Success text that must appear in status or feedback within `within` ms (default 2000). */
  expect?: { text: string; within?: number };
}

/** Protocol failures: `ok: false`. */
export type TSurfaceProtocolErrorCode =
  | "INVALID_REQUEST"
  | "CAPABILITY_NOT_EXPOSED"
  | "SESSION_EXPIRED"
  | "SESSION_REVOKED"
  | "RATE_LIMITED"
  | "REPLAY_DETECTED"
  | "INTERNAL_ERROR";

/** Business failures inside a valid exchange: `ok: true`, `result.error`. */
export type TSurfaceBusinessErrorCode =
  | "ACTION_NOT_FOUND"
  | "ACTION_UNAVAILABLE"
  | "INVALID_PARAMS"
  | "PERMISSION_DENIED"
  | "EXPECTATION_FAILED"
  | "EXECUTION_FAILED";

export interface ISurfaceDescribeRequest {
  protocol: "pling.surface/0.1";
  /** 1..256 characters, never reused within a session. */
  id: string;
  method: "describe";
  input?: {
    limit?: number;
    offset?: number;
    /** Exactly these records; not together with limit/offset. */
    record?: string | string[];
    capabilities?: "all" | "changed";
  };
}
export interface ISurfaceInvokeRequest {
  protocol: "pling.surface/0.1";
  id: string;
  method: "invoke";
  capability: string;
  /** Row actions (`name@kind`) name their target in `input.record`. */
  input?: Record<string, unknown>;
}
export type ISurfaceRequest = ISurfaceDescribeRequest | ISurfaceInvokeRequest;

export interface ISurfaceCapability {
  id: string;
  title: string;
  description?: string;
  /** The schema actually enforced. */
  input: ISurfaceSchema;
  risk?: "high";
  readOnly?: true;
}
export interface ISurfaceRegion {
  id: string;
  title: string;
  active: boolean;
}
export interface ISurfaceRecord {
  id: string;
  kind: string;
  /** data-e2e-field name → trimmed text (at most 1,000 characters). */
  fields: { [name: string]: string };
  state?: string;
  region?: string;
}
export interface ISurfaceFeedback {
  text: string;
  level?: string;
}
/** A capability invoke's availability check would refuse now (the same rule). */
export interface ISurfaceUnavailable {
  capability: string;
  record?: string;
  /** invoke's ACTION_UNAVAILABLE message: the page's words, or what stops it ("disabled" for a disabled control). */
  reason: string;
}
export interface ISurfaceDescribeResult {
  app: string;
  protocol: "pling.surface/0.1";
  /** Empty with capabilitiesUnchanged: true means unchanged, not none. */
  capabilities: ISurfaceCapability[];
  capabilitiesUnchanged?: boolean;
  context?: { page: { title?: string; documentTitle?: string } };
  regions: ISurfaceRegion[];
  records: ISurfaceRecord[];
  /** On every describe; for an id read (`record`) it is { offset: 0, limit: the ids given, total }. */
  recordWindow: { offset: number; limit: number; total: number };
  /** Id reads only: asked-for ids not on the page. */
  missing?: string[];
  /** Id reads only: more than 100 records hold the ids asked for (several kinds may share an id); `records` has the first 100. */
  recordsTruncated?: true;
  status: string[];
  feedback: ISurfaceFeedback[];
  unavailable: ISurfaceUnavailable[];
}
/** Evidence of what the page showed after an invoke: not proof of approval or of a committed transaction. */
export interface ISurfaceAfter {
  /** Capability ids visible after the run but not before. */
  capabilities: string[];
  /** Records new or changed (fields, state or region), at most recordLimit. */
  records: ISurfaceRecord[];
  /** Records read before the run and gone after it, at most recordLimit; absent when none. */
  removedRecords?: ISurfaceRecordRef[];
  /** Either record list was cut at recordLimit: describe again. */
  recordsTruncated?: true;
  status: string[];
}
export interface ISurfaceRecordRef {
  kind: string;
  id: string;
}
export interface ISurfaceInvokeResult {
  value?: unknown;
  /** Absent when the document changed: describe again. */
  after?: ISurfaceAfter;
  error?: { code: TSurfaceBusinessErrorCode | (string & {}); message: string };
}

export interface ISurfaceResponseOk<R = ISurfaceDescribeResult | ISurfaceInvokeResult> {
  protocol: "pling.surface/0.1";
  /** The request's id, or "" when it had none. */
  id: string;
  ok: true;
  result: R;
}
export interface ISurfaceResponseError {
  protocol: "pling.surface/0.1";
  id: string;
  ok: false;
  error: { code: TSurfaceProtocolErrorCode; message: string; retryAfterMs?: number };
}
export type ISurfaceResponse<R = ISurfaceDescribeResult | ISurfaceInvokeResult> = ISurfaceResponseOk<R> | ISurfaceResponseError;

/** The host's verified delegation. */
export interface ISurfaceSession {
  id: string;
  /** Capability ids, or prefixes ending in "*" ("orders.*"). */
  scope: string[];
  /** Milliseconds since the epoch. */
  expiresAt?: number;
  revoked?: boolean;
}

/**
 * What `execute` returns (or resolves to). An error with a protocol code
 * (`SESSION_REVOKED`, `RATE_LIMITED`…) refuses the exchange: the client gets
 * `ok: false` with that code and this message. `value` crosses as JSON writes
 * it (NaN → null, a function left out); one JSON cannot write (a BigInt, a
 * cycle) is left out of the success, with a console warning.
 */
export type TSurfaceExecuteResult =
  | { ok: true; value?: unknown }
  | { ok: false; error: { code: TSurfaceBusinessErrorCode | (string & {}); message: string } };

export interface ICreateSurfaceOptions {
  /**
   * The declarations, or a function returning them or a Promise of them (called and awaited per request, like `session`).
   * Read as JSON writes them: other members are ignored (a handler function the page's helper calls is left out);
   * a declaration that is no JSON (a BigInt, NaN, a cycle, a function under a member it defines, such as
   * `risk`, or nested in one) is skipped alone, with a console warning.
   */
  registry: CapabilityDeclaration[] | (() => CapabilityDeclaration[] | Promise<CapabilityDeclaration[]>);
  /** The page's own execution path; omitted → click the capability's declared playable. A method: a handler typed for narrower args is accepted. */
  execute?(id: string, args: Record<string, unknown>): TSurfaceExecuteResult | Promise<TSurfaceExecuteResult>;
  app: string;
  /** The site's allow-list: exact capability ids. */
  expose: string[];
  /** Read per request; null (or a throw) means no session. */
  session: () => ISurfaceSession | null | Promise<ISurfaceSession | null>;
  /** Default describe window, 1..100 (default 8). */
  recordLimit?: number;
  /** Default 30 invokes per 10,000 ms per session. */
  rateLimit?: { invokes: number; perMs: number };
  /** Human approval for risk "high"; only the primitive `true` approves (not `new Boolean(true)`). */
  confirm?(capabilityId: string, input: Record<string, unknown>): boolean | Promise<boolean>;
  /** Scan root (default: document). */
  root?: Document | ShadowRoot | Element;
  /** Exact origins the "pling.surface" window bridge accepts. "*" is not an origin. */
  allowedOrigins?: string[];
}

/** Every method is bound to its object (`const { handle } = surface` works). */
export interface ISurface {
  /** Never throws, never rejects. */
  handle(request: ISurfaceRequest): Promise<ISurfaceResponse>;
  /**
   * Answers "pling.surface" bridge messages; throws when allowedOrigins is empty or holds an entry that is not an origin ("*", "null", a path…),
   * and when the page's addEventListener or removeEventListener throws (nothing is attached; a later call may attach).
   * While attached, the window's marker `__PLING_SURFACE_V0_1__` reads `true` (no API; a page script cannot delete it).
   * Again while attached: still one reply per request. Call it again after `document.open()`, which erases the window's listeners.
   */
  attachWindowBridge(): void;
  /** Stops answering; the window's `__PLING_SURFACE_V0_1__` marker reads `undefined` once no Surface bridge is left attached there. */
  detachWindowBridge(): void;
  /**
   * Publishes the capabilities this session may use (less those unavailable as
   * a whole) as WebMCP tools with their input schemas; a call is an invoke
   * through handle(). Annotations: `untrustedContentHint` on every tool,
   * `readOnlyHint` for a capability declared `readOnly`, `consequentialHint`
   * for risk "high". A no-op where WebMCP is absent. See docs/mcp.md.
   */
  publishWebMcp(): IWebMcpPublication;
}

/** Bridge wrappers posted on the page's window (channel "pling.surface"). */
export interface ISurfaceBridgeDown {
  channel: "pling.surface";
  dir: "down";
  seq: number;
  envelope: ISurfaceRequest;
}
export interface ISurfaceBridgeUp {
  channel: "pling.surface";
  dir: "up";
  seq: number;
  envelope: ISurfaceResponse;
}

/** Throws a TypeError for invalid options. */
export function createSurface(options: ICreateSurfaceOptions): ISurface;
