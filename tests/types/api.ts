// Compile-time checks of the public types (run by `tsc --noEmit` in npm test).
// Lines marked @ts-expect-error must fail to type-check, so loosening a type fails the build.
import {
  installPlayable,
  deriveEscapes,
  isEscapeAllowed,
  type IPlayable,
  type IPlayableDownlink,
  type IPlayableUplink,
  type TPlayableErrorCode,
  type IInstallPlayableOptions,
  type IIslandSlotTable,
  type IPlayablePorts,
  type ISnapshot,
  type IMenuItem,
  type IEscape,
  type IWebMcpPublication,
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
const playable: IPlayable = installPlayable(options);
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

void flow, badSlots, badDown, phase, publishing;
