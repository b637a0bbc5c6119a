// Compile-time checks of the public types (run by `tsc --noEmit` in npm test).
// Lines marked @ts-expect-error must fail to type-check, so loosening a type fails the build.
import init, {
  installPlayable,
  deriveEscapes,
  isEscapeAllowed,
  type IPlayable,
  type IInstalledPlayable,
  type IPlayableDownlink,
  type IPlayableUplink,
  type TPlayableErrorCode,
  type IInstallPlayableOptions,
  type IStandInWindow,
  type IIslandSlotTable,
  type IPlayablePorts,
  type ISnapshot,
  type IMenuItem,
  type IEscape,
  type IWebMcpPublication,
  type ISnapshotPayload,
} from "in-page-playable-page";

const slots: IIslandSlotTable = {
  "list-pagination": { next: { ariaLabel: "Next page" }, prev: { role: "button", name: "Previous" } },
};
// @ts-expect-error a slot spec needs ariaLabel or role+name
const badSlots: IIslandSlotTable = { x: { y: { label: "nope" } } };

const ports: IPlayablePorts = {
  bom: { run: async () => ({ ok: false, retired: false }) },
  bot: { click: () => true },
};
const options: IInstallPlayableOptions = { root: document, window, islandSlots: slots, allowedOrigins: [location.origin], ports };
const playable: IInstalledPlayable = installPlayable(options);
const seedShaped: IPlayable = playable;
// @ts-expect-error pageId is read-only
playable.pageId = "x";
const phase: "installed" | "live" | "retired" = playable.phase;

const down: IPlayableDownlink = { pageId: null, requestId: "req-1", cmd: "hello", payload: {} };
// @ts-expect-error cmd is one of four
const badDown: IPlayableDownlink = { pageId: null, requestId: "r", cmd: "click", payload: {} };

async function flow(): Promise<void> {
  const up: IPlayableUplink = await playable.handle(down);
  if (up.ok) {
    const pageId = up.payload.pageId as string;
    const snap = await playable.handle({ pageId, requestId: "req-2", cmd: "snapshot", payload: {} });
    if (snap.ok) {
      const s = snap.payload.snapshot as ISnapshot;
      const first: IMenuItem | undefined = s.menu[0];
      const escapes: IEscape[] = deriveEscapes(s);
      const allowed: boolean = isEscapeAllowed(s, "reload");
      void first, escapes, allowed;
      const windowed: ISnapshotPayload = { query: "approve 739", offset: 0, limit: 20 };
      // @ts-expect-error a query is text
      const badQuery: ISnapshotPayload = { query: 739 };
      const w = await playable.handle({ pageId, requestId: "req-3", cmd: "snapshot", payload: { ...windowed } });
      if (w.ok) {
        const ws = w.payload.snapshot as ISnapshot;
        const total: number | undefined = ws.menuWindow?.total;
        const hidden: number | undefined = ws.genericsWindow?.hidden;
        const islands: number | undefined = ws.islandsTotal;
        void total, hidden, islands;
      }
      void badQuery;
    }
  } else {
    const code: TPlayableErrorCode = up.error.code;
    // @ts-expect-error not an error code
    const wrong: TPlayableErrorCode = "NOPE";
    void code, wrong;
  }
}
const publication: IWebMcpPublication = playable.publishWebMcp();
const publishing: boolean = publication.active;
publication.stop();
// @ts-expect-error active is read-only
publication.active = true;

// deriveEscapes / isEscapeAllowed: an absent field counts as [] or false (docs/protocol.md §2).
const noFields: IEscape[] = deriveEscapes({});
const dirtyOnly: boolean = isEscapeAllowed({ dirty: [] }, "reload");
// @ts-expect-error dirty is a list of ids
deriveEscapes({ dirty: "form" });

// A stand-in window (docs/protocol.md §4): postMessage and the two listener methods, no document.
const standIn: IStandInWindow = {
  postMessage: (message: unknown, targetOrigin: string) => void [message, targetOrigin],
  addEventListener: () => {},
  removeEventListener: () => {},
};
const viaStandIn: IInstallPlayableOptions = { window: standIn };
// @ts-expect-error a stand-in must be able to reply
const mute: IInstallPlayableOptions = { window: { addEventListener() {}, removeEventListener() {} } };

// The glue's initialiser, exported as the default: resolves to the wasm exports.
const exportsOf: Promise<WebAssembly.Exports> = init();

void flow, badSlots, badDown, phase, publishing, seedShaped, noFields, dirtyOnly, viaStandIn, mute, exportsOf;

// ---- Surface
import {
  createSurface,
  type CapabilityDeclaration,
  type ICreateSurfaceOptions,
  type ISurface,
  type ISurfaceRequest,
  type ISurfaceResponse,
  type ISurfaceDescribeResult,
  type ISurfaceInvokeResult,
  type ISurfaceBridgeDown,
  type TSurfaceProtocolErrorCode,
  type TSurfaceBusinessErrorCode,
} from "in-page-playable-page";

const registry: CapabilityDeclaration[] = [
  { id: "orders.search", title: "Search orders", input: { type: "object", properties: { q: { type: "string", maxLength: 100 } } } },
  { id: "orders.update_note@order", title: "Update note", input: { type: "object", properties: { note: { type: "string" } }, required: ["note"] }, expect: { text: "Note saved", within: 1500 } },
  { id: "orders.refund@order", title: "Refund", risk: "high" },
];
// @ts-expect-error risk is "low" | "high"
const badDecl: CapabilityDeclaration = { id: "x", title: "x", risk: "medium" };
// @ts-expect-error an input schema is an object schema
const badSchema: CapabilityDeclaration = { id: "x", title: "x", input: { type: "string" } };

const surfaceOptions: ICreateSurfaceOptions = {
  registry: () => registry,
  execute: async (id, args) => (id === "orders.search" ? { ok: true, value: { hits: 2, q: args.q } } : { ok: false, error: { code: "ACTION_UNAVAILABLE", message: "记录已锁定" } }),
  app: "orders",
  expose: ["orders.search", "orders.open", "orders.update_note@order"],
  session: () => ({ id: "s1", scope: ["orders.*"], expiresAt: Date.now() + 60_000 }),
  recordLimit: 8,
  rateLimit: { invokes: 10, perMs: 1000 },
  confirm: async (capabilityId) => capabilityId !== "orders.refund@order",
  root: document,
  allowedOrigins: [location.origin],
};
// @ts-expect-error session is a function, read per request
const badSurfaceOptions: ICreateSurfaceOptions = { registry, app: "a", expose: [], session: { id: "s", scope: [] } };
// Handlers typed for narrower arguments than the options promise are accepted (methods).
const narrowHandlers: ICreateSurfaceOptions = {
  ...surfaceOptions,
  execute: async (id: "orders.search", args: { q?: string }) => ({ ok: true, value: [id, args.q] }),
  confirm: (capabilityId: "orders.refund@order") => capabilityId.length > 0,
};
// A registry may be read asynchronously, like the session.
const asyncRegistry: ICreateSurfaceOptions = { ...surfaceOptions, registry: async () => registry };
const surface: ISurface = createSurface(surfaceOptions);
surface.attachWindowBridge();
const surfaceTools: IWebMcpPublication = surface.publishWebMcp();
surfaceTools.stop();

const describeReq: ISurfaceRequest = { protocol: "pling.surface/0.1", id: "req-1", method: "describe", input: { limit: 8, capabilities: "changed" } };
const invokeReq: ISurfaceRequest = { protocol: "pling.surface/0.1", id: "req-2", method: "invoke", capability: "orders.update_note@order", input: { record: "SO-1002", note: "周五前回电" } };
// @ts-expect-error invoke needs a capability
const badInvoke: ISurfaceRequest = { protocol: "pling.surface/0.1", id: "r", method: "invoke" };
// @ts-expect-error the protocol is exact
const badProtocol: ISurfaceRequest = { protocol: "pling.surface/1", id: "r", method: "describe" };
const bridgeDown: ISurfaceBridgeDown = { channel: "pling.surface", dir: "down", seq: 1, envelope: describeReq };

async function surfaceFlow(): Promise<void> {
  const described: ISurfaceResponse = await surface.handle(describeReq);
  if (described.ok) {
    const result = described.result as ISurfaceDescribeResult;
    // On every describe result, id reads included.
    const total: number = result.recordWindow.total;
    const note: string | undefined = result.records[0]?.fields.note;
    void total, note;
  } else {
    const code: TSurfaceProtocolErrorCode = described.error.code;
    const retry: number | undefined = described.error.retryAfterMs;
    void code, retry;
  }
  const invoked = await surface.handle(invokeReq);
  if (invoked.ok) {
    const result = invoked.result as ISurfaceInvokeResult;
    if (result.error) {
      const code: TSurfaceBusinessErrorCode | (string & {}) = result.error.code;
      void code;
    }
    const changed: string[] | undefined = result.after?.capabilities;
    const removed: { kind: string; id: string }[] | undefined = result.after?.removedRecords;
    void changed, removed;
  }
  // @ts-expect-error not a protocol error code
  const wrong: TSurfaceProtocolErrorCode = "ACTION_UNAVAILABLE";
  void wrong;
}
void surfaceFlow, narrowHandlers, asyncRegistry, badDecl, badSchema, badSurfaceOptions, badInvoke, badProtocol, bridgeDown;
