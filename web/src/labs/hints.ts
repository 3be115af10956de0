// Which hint a step offers next: a hint tied to a FAIL: line (```hint fail="…") when the check
// the learner asked for printed one containing its text, before the hints anyone is offered;
// a FAIL hint whose line was not printed is not offered at all.
import type { LabStep } from "./lab-format";

/** The step's hint blocks, in order: their text and, for a FAIL hint, the text it answers. */
export function hintsOf(step: LabStep): Array<{ text: string; fail?: string }> {
  return step.blocks.flatMap((b) => (b.kind === "hint" ? [{ text: b.text, fail: b.fail }] : []));
}

/**
 * The index (among the step's hints) of the hint to offer next, or null: none is left for
 * what failed. `failed` is what the failed check said (its FAIL: lines), empty when no check
 * the learner asked for has failed.
 */
export function nextHint(step: LabStep, seen: readonly number[], failed: readonly string[]): number | null {
  const hints = hintsOf(step);
  const said = failed.map((l) => l.toLowerCase());
  const open = hints.map((h, k) => ({ ...h, k })).filter((h) => !seen.includes(h.k));
  const answering = open.find((h) => h.fail !== undefined && said.some((l) => l.includes(h.fail!.toLowerCase())));
  if (answering) return answering.k;
  return open.find((h) => h.fail === undefined)?.k ?? null;
}
