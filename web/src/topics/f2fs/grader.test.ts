// The f2fs-clue code step's grader on a trace our kernel wrote: the step's workload for learner
// "learner-c" (4000 files, a sync every 500; removed and created again, twice; clue 2),
// recorded as the page records it (labs/code-grade.ts recordWorkload). The replay program is
// built here by the host's C compiler from the grader's own sources (the guest's tcc builds the
// same files in a lab), with the reference, the lab's starter and a plausible mistake in the
// learner's place, and five mutants of the reference.
import { describe, expect, it } from "vitest";
import { NidTraceError, nidRunOf, scanFreeNidBits } from "./grader";
import { gradedStep, itCatchesMutants } from "../../shared/grade-native";

const { text, starter, input, run, grade } = gradedStep(scanFreeNidBits, new URL("../../../../labs/f2fs-clue/lab.md", import.meta.url), new URL("./traces/f2fs-nid-grade.trace.gz", import.meta.url));


describe("the F2FS free-NID scan grader", () => {
  it("reads the run's operations and the kernel's scans of the workload's volume", () => {
    const ctx = nidRunOf(text);
    expect(ctx.clue).toBe(2);
    // three fills of a mkdir and 8 x 500 creates, each batch synced, and a sync after; two removals
    expect(ctx.ops.filter((o) => o.op === "alloc")).toHaveLength(3 * 9);
    expect(ctx.ops.filter((o) => o.op === "sync")).toHaveLength(3 * 9 + 2);
    expect(ctx.ops.filter((o) => o.op === "unlink")).toHaveLength(2);
    expect(ctx.kernel[0]).toMatchObject({ op: 0, scan: { start: 0, end: 3640, scanned: 3640, found: 3636 } }); // the mount's
    expect(input.decisions).toBe(5);
    expect(input.stdin.split("\n")[0]).toBe(`fslab-f2fs-nid 1 512 2 ${ctx.ops.length}`);
  });

  it("agrees with the kernel in every scan when the walk is the kernel's", () => {
    expect(grade(scanFreeNidBits.reference)).toEqual({ kind: "agree", decisions: 5, notJudged: 0 });
  });

  it("parts from the kernel where upstream's walk starts at block 0 again (the lab's starter)", () => {
    const v = grade(starter);
    expect(v.kind).toBe("diverge");
    if (v.kind !== "diverge") return;
    expect(v.at).toBe(5);
    expect(v.agreed).toBe(4);
    expect(v.kernel).toMatch(/^bitmap scan from NID 6825 to 6370: 3960 entries walked, 3501 NIDs listed, 512 blocks/);
    expect(v.yours).toMatch(/^bitmap scan from NID 0 to 6825:/);
    expect(v.inputs[1]).toMatch(/^as that operation began: \d+ NIDs listed, next_bitmap_blk 15; loaded NAT blocks/);
  });

  itCatchesMutants(scanFreeNidBits, grade, scanFreeNidBits.mutants!, (at) => new RegExp(`^scan ${at}, in `));

  it("catches a heuristic walk that does not go round past the last block", () => {
    const noWrap = scanFreeNidBits.reference.replace("i = (i + 1 == nm->nat_blocks) ? 0 : i + 1", "i++");
    expect(noWrap).not.toBe(scanFreeNidBits.reference);
    // i runs off the end: the loop must stop there too (the learner's version would crash)
    const bounded = noWrap.replace("n < nm->nat_blocks; n++, i++", "n < nm->nat_blocks && i < nm->nat_blocks; n++, i++");
    const v = grade(bounded);
    expect(v.kind).toBe("diverge");
    if (v.kind === "diverge") expect(v.at).toBe(5);
  });

  it("says which operation a replay that crashed or never returned was in, from the lines it left", () => {
    const out = run(scanFreeNidBits.reference);
    const cut = out.slice(0, out.indexOf("op 10 ")) + out.slice(out.indexOf("op 10 ")).split("\n")[0] + "\n";
    expect(scanFreeNidBits.reached!(input, cut)).toBe("in operation 10 (alloc 500)");
    expect(scanFreeNidBits.reached!(input, "")).toBeNull(); // the mount itself: no operation begun
  });

  it("refuses a trace it cannot replay, saying why", () => {
    const lines = text.split("\n");
    const without = (re: RegExp) => lines.filter((l) => !re.test(l)).join("\n");
    expect(() => nidRunOf(without(/f2fs-nid mount /))).toThrow(/an operation marked before `fslab: f2fs-nid mount size=256M clue=N`/);
    expect(() => nidRunOf(without(/f2fs-nid /))).toThrow(/no `fslab: f2fs-nid mount size=256M clue=N` line/);
    expect(() => nidRunOf(without(/phase = nat, start = 0,/))).toThrow(/does not start with the mount's NAT entry scan/);
    expect(() => nidRunOf(text.replace("size=256M", "size=128M"))).toThrow(/128 MiB/);
    expect(() => nidRunOf(`${text}\nCPU:0 [LOST 3 EVENTS]\n`)).toThrow(NidTraceError);
    // another volume's scans (the learner's own, written back by the workload's sync) are not the workload's
    const other = text.replace(/dev = \(7,0\), phase = bitmap, start = 0, end = 0,/, "dev = (7,5), phase = bitmap, start = 0, end = 0,");
    expect(scanFreeNidBits.input(other).decisions).toBe(4);
    expect(() => scanFreeNidBits.judge(input, "op 1 0 0\n")).toThrow(/ran 1 of the trace's/);
    expect(() => scanFreeNidBits.judge(input, "nonsense\n")).toThrow(/neither an operation nor a record/);
  });
});
