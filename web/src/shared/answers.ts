// Model answers: what a topic's wasm model computes for one learner's problem, named by a lab's
// `key:` (`<topic>.<id>`, lab-format.ts). A topic declares its answers in its manifest (ids and
// parameters, read without loading anything) and writes them in `answers.ts` beside it, over the
// same core classes its views and CLI use, so the key an instructor prints, the page shows and
// `fslab labs test` holds against the kernel is the model's own. The module is handed in by the
// host: Node loads it with node-load.ts, the page with core-web.ts.
import type { CoreModules } from "@wasm/cores.mjs";
import type { InspectedReport } from "./inspect/inspect";
/** a parameter's value: a number, or a word (a lab's seed values are these too) */
export type AnswerParams = Record<string, number | string>;

/** One model answer a lab's `key:` may name, as the manifest declares it. */
export interface AnswerSpec {
  id: string;
  /** what it computes, for `fslab labs key` and the format's errors */
  summary: string;
  /** the parameters it takes (each required), with what each means */
  params: Record<string, string>;
  /**
   * It reads the learner's own disk: the key names an image the learner copied to /mnt/host
   * (`image: exfat.img`), read from their guest as they answer and parsed by the inspectors; what
   * this says is what it reads there. Without it the answer is the model's alone.
   */
  image?: string;
}

/** A learner's own disk, as an image answer gets it: the bytes and the inspector's report of them. */
export interface LearnerDisk {
  name: string;
  bytes: Uint8Array;
  report: InspectedReport;
}

/** A topic's answers module (`answers.ts`): its core and one function per answer id. */
export interface TopicAnswers<C extends keyof CoreModules = keyof CoreModules> {
  core: C;
  /** an image answer (AnswerSpec.image) gets the learner's disk as its third argument */
  answers: Record<string, (module: CoreModules[C], p: AnswerParams, disk?: LearnerDisk) => number | string>;
}

/**
 * An image answer's disk, checked to be there and of the filesystem it reads (`name` for the
 * learner: "exFAT"): its inspector report, typed for that filesystem.
 */
export function diskReport<R extends InspectedReport>(disk: LearnerDisk | undefined, fs: R["fs"], name: string): R {
  if (!disk) throw new Error("this answer reads the learner's volume: no image was given");
  if (disk.report.fs !== fs) throw new Error(`${disk.name} is a ${disk.report.fs} volume, not ${name}`);
  return disk.report as R;
}

/** A number parameter, checked: a whole number within [min, max]. */
export function intParam(p: AnswerParams, name: string, min: number, max: number): number {
  const v = p[name];
  if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max) throw new Error(`${name} is ${JSON.stringify(v)}: a whole number from ${min} to ${max}`);
  return v;
}
