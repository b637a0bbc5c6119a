// Run payloads per event (issue 6), checked by tsc.
import type { IRunPayload, IRunResult, IRunScrollResult } from "in-page-playable-page";

const runs: IRunPayload[] = [
  { id: "save" },
  { id: "name", value: "Ada" },
  { id: "agree", value: true },
  { id: "tags", value: ["a", "b"] },
  { id: "list", to: "end", by: { x: 0, y: 40 } },
  { id: "card", to: "done" },
];
// @ts-expect-error a value is a string, a boolean or a list of strings
const badRun: IRunPayload = { id: "name", value: 3 };
// @ts-expect-error scroll alignment is start, center or end
const badScroll: IRunPayload = { id: "list", to: 5 };
const scrolled: IRunResult = { id: "list", scrollLeft: 0, scrollTop: 120 } satisfies IRunScrollResult;
void runs, badRun, badScroll, scrolled;
