// A code step's recorded workload (code-grade.ts) kept in the lab store, so that a reload, or a
// visit the next day, grades against the same run of the learner's kernel instead of recording
// it again: the workload is most of a first grade's time. Kept per step, for the guest build and
// the workload (with the learner's values in it) it was recorded with; "Start over" drops it
// with the lab's other records. A cache: a store that refuses it costs a recording, nothing more.
import { gradeTraceKey, isCleared, open, type GradeTraceRecord } from "./lab-store";
import { GUEST_BUILD } from "../vm/browser/snapshot";
import { sha256Hex as sha256 } from "./report";

/** The run kept for this step, if it was recorded by this guest build for this workload. */
export async function keptGradeTrace(lab: string, step: number, workload: string): Promise<string | undefined> {
  const r = (await (await open()).get("labs", gradeTraceKey(lab, step))) as Partial<GradeTraceRecord> | undefined;
  if (!r || r.kind !== "grade-trace" || typeof r.trace !== "string" || r.guest !== GUEST_BUILD) return undefined;
  return r.workload === (await sha256(workload)) ? r.trace : undefined;
}

/** Keep the run a grade of this step recorded. */
export async function keepGradeTrace(lab: string, step: number, workload: string, trace: string): Promise<void> {
  const record: GradeTraceRecord = { kind: "grade-trace", lab, step, guest: GUEST_BUILD, workload: await sha256(workload), trace, at: Date.now() };
  if (isCleared(lab)) return; // started over while the grade ran
  await (await open()).put("labs", record, gradeTraceKey(lab, step));
}
