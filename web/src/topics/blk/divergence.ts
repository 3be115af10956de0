// The "find the divergence" lab's kernel (kernel-image/patches/0007): a token written to
// mq_deadline.diverge breaks one of mq-deadline's rules. The rule a token picks, as the patch
// computes it, and the rule a first divergence between the kernel and the model points at, as
// a learner reads it off the panel: `fslab labs key` answers with the first, the tests hold the
// second to it for every rule.
import type { DdVerdict } from "./dd-kernel";

/** The rules the patch can break, in its order (1..4), as the lab's questions name them. */
export const DIVERGE_RULES = ["batch length", "write starvation", "deadline check", "starvation reset"] as const;
export type DivergeRule = (typeof DIVERGE_RULES)[number];

/** The line of block/mq-deadline.c (Linux 7.2, upstream) that implements each rule. */
export const DIVERGE_LINES: Record<DivergeRule, string> = {
  "batch length": "if (rq && dd->batching < dd->fifo_batch) {",
  "write starvation": "(dd->starved++ >= dd->writes_starved))",
  "deadline check": "struct request *rq = rq_entry_fifo(per_prio->fifo_list[data_dir].next);",
  "starvation reset": "dd->starved = 0;",
};

/** The rule a token breaks: ((token * 2654435761) >> 30 & 3) + 1 in the patch's 64-bit arithmetic; null for 0. */
export function divergeRule(token: number): DivergeRule | null {
  if (!Number.isInteger(token) || token < 0 || token > 0xffffffff) throw new Error(`token ${token}: a whole number from 0 to 4294967295`);
  if (!token) return null;
  const n = Number(((BigInt(token) * 2654435761n) >> 30n) & 3n);
  return DIVERGE_RULES[n];
}

/**
 * Which rule the first decision where the kernel and the model part points at: the kernel went
 * on with a batch the model ended; it served reads where the model forced writes; it took the
 * next request in sector order where the model took the expired oldest; or it left the
 * starvation count where the model set it back to 0. null: a difference none of these explains.
 */
export function ruleOfDivergence(v: DdVerdict): DivergeRule | null {
  const { kernel: k, model: m } = v;
  if (k.because === "batch" && m.because !== "batch") return "batch length";
  if (k.because === "reads" && m.because === "starved") return "write starvation";
  if (k.pick === "sorted" && m.pick === "expired") return "deadline check";
  if (k.rq === m.rq && k.because === m.because && k.pick === m.pick && k.starved !== m.starved && m.starved === 0) return "starvation reset";
  return null;
}
