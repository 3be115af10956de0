// The exfat core's worker: a volume (ExfatLab) kept between requests, and the directory model
// replayed per request. Protocol: shared/worker-protocol.ts; results' typed arrays are transferred.
import createExfat from "@wasm/exfat.mjs";
import wasmUrl from "@wasm/exfat.wasm?url";
import { serve } from "../../shared/worker-protocol";
import type { DiscardPolicy } from "./events";
import { ExfatCore, type ExfatSnapshot } from "./exfat-core";
import { ExfatLab } from "./exfat-scenario";
import { dirRun, dirSweeps } from "./exfat-dir";
import { topicAnswers } from "./answers";
import type { AnswerParams } from "../../shared/answers";

let lab: ExfatLab | null = null;

function need(): ExfatLab {
  if (!lab) throw new Error("the volume is not made yet");
  return lab;
}

const made = (id: number): { id: number; snapshot: ExfatSnapshot } => ({ id, snapshot: need().snapshot() });

const handlers = serve(createExfat({ locateFile: () => wasmUrl }), {
  /** a new, empty volume */
  reset(module, clusters: number, sectPerClusBits: number) {
    lab?.core.dispose();
    lab = new ExfatLab(ExfatCore.create(module, clusters, sectPerClusBits));
    return lab.snapshot();
  },
  createContiguous: (_m, clusters: number) => made(need().createContiguous(clusters)),
  createFragmented: (_m, clusters: number, runs: number) => made(need().createFragmented(clusters, runs)),
  createRuns: (_m, lengths: number[]) => made(need().createRuns(lengths)),
  delete: (_m, id: number, policy: DiscardPolicy) => ({ result: need().delete(id, policy), snapshot: need().snapshot() }),
  /** one directory per setting of empty_hint (with it, then without), replayed from its first step */
  dir: (module, ops: string[]) => [true, false].map((hint) => dirRun(module, hint, ops)),
  /** the first creates' searches, with the hint and without */
  dirSweeps: (module, ops: string[]) => [true, false].map((hint) => dirSweeps(module, hint, ops)),
  /** a model answer (answers.ts) as a lab's key computes it: a view holds back a figure equal to one still to be given */
  answer(module, id: string, params: AnswerParams) {
    if (!Object.hasOwn(topicAnswers.answers, id)) throw new Error(`no exfat answer "${id}"`);
    return topicAnswers.answers[id](module, params);
  },
});

export type ExfatWorker = typeof handlers;
