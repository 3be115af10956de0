// The divergence lab's rules: the token's rule as kernel patch 0007 computes it, and the rule a
// first divergence points at (the Node e2e holds the two equal on the real kernel's runs).
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { DIVERGE_LINES, DIVERGE_RULES, divergeRule, ruleOfDivergence } from "./divergence";
import { ddRunVerdict } from "./KernelDeadline";
import type { DdChoice, DdReplay, DdVerdict } from "./dd-kernel";

const patch = readFileSync(new URL("../../../../kernel-image/patches/0007-block-mq-deadline-divergence-switch.patch", import.meta.url), "utf8");
const upstream = readFileSync(new URL("../../../../kernel-image/patches/0003-block-mq-deadline-dispatch-tracepoint.patch", import.meta.url), "utf8");

describe("the divergence switch", () => {
  it("computes the patch's rule from a token, every rule reachable from the lab's range", () => {
    // the same formula as the patch, written there in C
    expect(patch).toContain("(((u64)token * 2654435761ULL) >> 30 & 3) + 1");
    expect(divergeRule(0)).toBeNull();
    const seen = new Map<string, number>();
    for (let t = 1000; t <= 9999; t++) seen.set(divergeRule(t)!, (seen.get(divergeRule(t)!) ?? 0) + 1);
    expect([...seen.keys()].sort()).toEqual([...DIVERGE_RULES].sort());
    for (const n of seen.values()) expect(n).toBeGreaterThan(1800); // about a quarter each
    expect(() => divergeRule(-1)).toThrow(/whole number/);
  });

  it("names lines that are upstream's, in the order of the patch's rules", () => {
    // each is a whole line of upstream's file: a removed or context line of 0003 (written against
    // upstream), or of 0007 (written on top of 0003) where 0003 did not add it
    const hunkLines = (p: string, signs: string) => p.split("\n").filter((l) => signs.includes(l[0]) && !/^(---|\+\+\+) /.test(l)).map((l) => l.slice(1).trim());
    const ours = new Set(hunkLines(upstream, "+"));
    const upstreamLines = new Set([...hunkLines(upstream, " -"), ...hunkLines(patch, " -").filter((l) => !ours.has(l))]);
    for (const r of DIVERGE_RULES) expect(upstreamLines.has(DIVERGE_LINES[r]), `${r}: ${DIVERGE_LINES[r]}`).toBe(true);
    expect(patch.indexOf("1 batch:")).toBeLessThan(patch.indexOf("2 starve:"));
    expect(patch.indexOf("3 expiry:")).toBeLessThan(patch.indexOf("4 reset:"));
  });

  const choice = (c: Partial<DdChoice>): DdChoice => ({ rq: 1, because: "reads", pick: "sorted", batching: 1, starved: 0, ...c });
  const verdict = (kernel: Partial<DdChoice>, model: Partial<DdChoice>): DdVerdict => ({
    kernel: choice(kernel),
    model: choice(model),
    same: false,
    sameReasons: false,
    listsAgree: true,
    couldChange: [],
    judged: true,
  });

  it("reads the rule off a first divergence as a learner would", () => {
    expect(ruleOfDivergence(verdict({ because: "batch", batching: 5 }, { because: "reads", rq: 2 }))).toBe("batch length");
    expect(ruleOfDivergence(verdict({ because: "reads", starved: 3 }, { because: "starved", rq: 7, starved: 0 }))).toBe("write starvation");
    expect(ruleOfDivergence(verdict({ pick: "sorted" }, { pick: "expired", rq: 4 }))).toBe("deadline check");
    expect(ruleOfDivergence(verdict({ because: "starved", starved: 3 }, { because: "starved", starved: 0 }))).toBe("starvation reset");
    expect(ruleOfDivergence(verdict({ rq: 1 }, { rq: 2 }))).toBeNull();
  });

  it("the panel's verdict: waiting, the first differing decision, or all agreed", () => {
    const replay = (vs: DdVerdict[]): DdReplay => ({ verdicts: vs, lacked: [], couldChange: {}, judged: vs.filter((v) => v.judged).length, same: 0, sameReasons: vs.filter((v) => v.sameReasons).length });
    expect(ddRunVerdict(0, null).state).toBe("waiting");
    expect(ddRunVerdict(1, null).state).toBe("waiting");
    const ok = { ...verdict({}, {}), same: true, sameReasons: true };
    const okAs = (k: Partial<DdVerdict["kernel"]>) => ({ ...ok, kernel: { ...ok.kernel, ...k } });
    // agreement over a run that took every rule the divergence switch can break to its limit
    const every = [okAs({ because: "batch", batching: 16 }), okAs({ because: "starved", pick: "expired" }), okAs({ because: "reads", pick: "expired" }), okAs({ because: "reads", pick: "sorted" })];
    expect(ddRunVerdict(1, replay(every), undefined, { fifoBatch: 16, deadlineDecided: [false, false, false, true] })).toEqual({ state: "agree", detail: "the model made all 4 judged decisions of the newest run as the kernel did, batches, forced writes and expired deadlines among them" });
    // under a fifo_batch no batch reached, a kernel that lets batches run on agrees all the same
    const long = ddRunVerdict(1, replay(every), undefined, { fifoBatch: 256, deadlineDecided: [false, false, false, true] });
    expect(long.state).toBe("waiting");
    expect(long.detail).toMatch(/no batch that ran to fifo_batch \(256 requests\)/);
    // with every deadline passed as a batch begins, which request's deadline is checked does not matter
    const allExpired = ddRunVerdict(1, replay(every.slice(0, 3)), undefined, { fifoBatch: 16, deadlineDecided: [false, false, false, true] });
    expect(allExpired.state).toBe("waiting");
    expect(allExpired.detail).toMatch(/no batch begun in sector order while its FIFO's oldest request had time left/);
    // reads that have all missed their deadline and writes that never reach theirs: a kernel that
    // checks the FIFO's newest request decides as upstream at every batch begun
    const noneDecided = ddRunVerdict(1, replay(every), undefined, { fifoBatch: 16, deadlineDecided: [false, false, false, false] });
    expect(noneDecided.state).toBe("waiting");
    expect(noneDecided.detail).toMatch(/no batch begun while its FIFO's oldest request had passed its deadline and its newest had not/);
    // one such decision that could not be judged (lists short of the kernel's) tries nothing either
    const unjudged = ddRunVerdict(1, replay(every.map((v, k) => (k === 3 ? { ...v, judged: false } : v))), undefined, { fifoBatch: 16, deadlineDecided: [false, false, false, true] });
    expect(unjudged.detail).toMatch(/no batch begun while its FIFO's oldest request had passed its deadline/);
    // a run that never forced a write cannot show a kernel that breaks write starvation
    const noStarve = ddRunVerdict(1, replay([okAs({ because: "batch" }), okAs({ because: "reads", pick: "expired" }), okAs({ because: "reads" })]));
    expect(noStarve.state).toBe("waiting");
    expect(noStarve.detail).toMatch(/no write forced after starving \(because=starved\): a rule it did not use is not tried$/);
    const bad = verdict({ because: "batch", batching: 5 }, { because: "reads", rq: 2 });
    const v = ddRunVerdict(1, replay([ok, bad, ok]));
    expect(v.state).toBe("disagree");
    // its requests numbered as the panel numbers them (R36: the request at index 36), not one more
    expect(v.detail).toMatch(/^decision 2 of 3: the kernel dispatched request 1 \(because batch, pick sorted; batching 5, starved 0 after\), the model request 2/);
    expect(ddRunVerdict(1, replay([ok, bad, ok]), (rq) => `R${rq}`).detail).toMatch(/the kernel dispatched request R1 .*, the model request R2/);
  });
});
