// The seed's own typings compile against this package unchanged (checked by
// `tsc --noEmit` under --strict): users switch by changing only the install.
import { installPlayable, type IInstallPlayableOptions, type IPlayable, type IPlayableDownlink } from "in-page-playable-page";

// The seed types the capturer `(scope: Element) => Promise<unknown>`: a
// capturer written for Elements only is accepted.
const capture = async (scope: Element): Promise<unknown> => ({ mime: "image/png", width: scope.clientWidth, height: 1, bytesBase64: "" });
const seedOptions: IInstallPlayableOptions = { root: document, window, captureScreenshot: capture };
const inline: IInstallPlayableOptions = { captureScreenshot: async (scope: Element) => scope.tagName };
// Contextually typed, the scope is any root.
const contextual: IInstallPlayableOptions = { captureScreenshot: (scope) => (scope instanceof Element ? scope.tagName : null) };

// A hand-written IPlayable of the seed's shape (pageId, phase, handle,
// attachWindowBridge): a test double needs nothing more.
const fake: IPlayable = {
  pageId: null,
  phase: "installed",
  async handle(request: IPlayableDownlink) {
    return { pageId: null, requestId: request.requestId, ok: false, error: { code: "NOT_LIVE", message: "a fake" } };
  },
  attachWindowBridge() {},
};
// What installPlayable returns is an IPlayable, with publishWebMcp besides.
const real: IPlayable = installPlayable(seedOptions);
installPlayable().publishWebMcp().stop();
// @ts-expect-error the seed's IPlayable has no publishWebMcp
fake.publishWebMcp();

void inline, contextual, real;
