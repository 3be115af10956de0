// The exfat-discard code step's grader on a trace our kernel wrote: the step's workload for
// learner "walk-e2e" (7 pieces of 64 KiB, three single clusters, a piece of 24 KiB, and 8 KiB on a
// full volume, back where a removed file was), recorded as
// the page records it (labs/code-grade.ts recordWorkload). The replay program is built here by
// the host's C compiler from the grader's own sources, with the reference, the lab's starter and
// the grader's six mutants of the reference in the learner's place.
import { describe, expect, it } from "vitest";
import { DiscardTraceError, freeClusterDiscard, freeRun } from "./discard-grader";
import { gradedStep, itCatchesMutants } from "../../shared/grade-native";
import { mutate } from "../../shared/grade";

const { text, starter, input, grade } = gradedStep(freeClusterDiscard, new URL("../../../../labs/exfat-discard/lab.md", import.meta.url), new URL("./traces/exfat-discard-grade.trace.gz", import.meta.url));

describe("the exFAT batched-discard grader", () => {
  it("reads the delete's requests and the chain they cover from the trace", () => {
    const ctx = freeRun(text);
    expect(ctx.name).toBe("frag");
    // 7 pieces of 16 clusters, each after a cluster of the other file; three single ones; 6 more;
    // then the 2 clusters the removed file left near the volume's start: the chain goes back
    expect(ctx.kernel.map((r) => r[1])).toEqual([16, 16, 16, 16, 16, 16, 16, 1, 1, 1, 6, 2]);
    expect(ctx.kernel.slice(0, 2)).toEqual([[8, 16], [25, 16]]);
    expect(ctx.kernel.slice(-2)).toEqual([[133, 6], [6, 2]]);
    expect(input.decisions).toBe(12);
    expect(input.stdin.split("\n")[0]).toBe("fslab-exfat-discard 1 123");
    expect(input.stdin.split("\n")[1].split(" ").slice(14, 18)).toEqual(["22", "23", "25", "26"]);
    expect(input.stdin.split("\n")[1].split(" ").slice(-3)).toEqual(["138", "6", "7"]);
  });

  it("agrees with the kernel in every request when the function is the kernel's", () => {
    expect(grade(freeClusterDiscard.reference)).toEqual({ kind: "agree", decisions: 12, notJudged: 0 });
  });

  it("parts from the kernel at the first request with the lab's starter (Linux 6.14's rule)", () => {
    const v = grade(starter);
    expect(v.kind).toBe("diverge");
    if (v.kind !== "diverge") return;
    expect(v.at).toBe(1);
    expect(v.agreed).toBe(0);
    expect(v.kernel).toBe("clusters 8-23 in one request (count 16)");
    expect(v.yours).toBe("cluster 8 in one request (count 1)");
    expect(v.inputs[0]).toBe("request 1 of 12: the run clusters 8-23, after which the chain goes on to cluster 25, not 24");
    expect(v.inputs[2]).toBe("your function was called for each cluster of this run in turn, the chain's first run");
  });

  it("names a request the learner sent after the kernel's last", () => {
    // every run right, and the chain's end sent once more
    const twice = freeClusterDiscard.reference.replace("\t\t*nr_clu = 1;\n", "\t\t*nr_clu = 1;\n\t\tif (n_clu == EXFAT_EOF_CLUSTER)\n\t\t\texfat_discard_cluster(sb, clu, 1);\n");
    const v = grade(twice);
    expect(v.kind).toBe("diverge");
    if (v.kind !== "diverge") return;
    expect(v.at).toBe(12);
    expect(v.kernel).toBe("clusters 6-7 in one request (count 2), and no request after it");
    expect(v.yours).toBe("clusters 6-7 in one request (count 2), then cluster 7 in one request (count 1)");
    expect(v.inputs[0]).toMatch(/after which the chain goes on to its end \(EXFAT_EOF_CLUSTER\)$/);
    expect(v.inputs[2]).toMatch(/in turn, after the 11 runs before it$/);
  });

  it("catches a run that goes on where the chain goes back, at the run before the jump", () => {
    const v = grade(mutate(freeClusterDiscard.reference, freeClusterDiscard.mutants!.find((m) => m.to.includes("<="))!));
    expect(v.kind).toBe("diverge");
    if (v.kind !== "diverge") return;
    expect(v.at).toBe(11);
    expect(v.inputs[0]).toBe("request 11 of 12: the run clusters 133-138, after which the chain goes on to cluster 6, not 139");
  });

  itCatchesMutants(freeClusterDiscard, grade, freeClusterDiscard.mutants!, (at) => new RegExp(`^request ${at} of 12: `));

  it("refuses a trace it cannot grade, saying why", () => {
    const lines = text.split("\n");
    const noMark = lines.filter((l) => !l.includes("fslab: exfat-free")).join("\n");
    expect(() => freeRun(noMark)).toThrow(/marked no delete/);
    const perCluster = text.replace(/batched 1/g, "batched 0");
    expect(() => freeRun(perCluster)).toThrow(/one cluster at a time \(batch_discard 0\)/);
    const oneRun = lines.filter((l) => !/exfat_discard: .* clu (?!8 )/.test(l)).join("\n");
    expect(() => freeRun(oneRun)).toThrow(/was one request/);
    const lost = text.replace("# tracer: nop", "# tracer: nop\nCPU:0 [LOST 12 EVENTS]");
    expect(() => freeRun(lost)).toThrow(DiscardTraceError);
    // another volume's discards in the trace are not this delete's
    const other = text.replace(/(clu 133 count 6 batched 1)/, "$1\n              rm-111     [000] .....     7.211000: exfat_discard: dev 7,1 clu 900 count 3 batched 1");
    expect(freeRun(other).kernel).toHaveLength(12);
  });
});
