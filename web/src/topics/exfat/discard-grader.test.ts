// The exfat-discard code step's grader on a trace our kernel wrote: the step's workload for
// learner "walk-e2e" (7 pieces of 64 KiB, three single clusters, a piece of 24 KiB), recorded as
// the page records it (labs/code-grade.ts recordWorkload). The replay program is built here by
// the host's C compiler from the grader's own sources, with the reference, the lab's starter and
// the grader's five mutants of the reference in the learner's place.
import { describe, expect, it } from "vitest";
import { DiscardTraceError, freeClusterDiscard, freeRun } from "./discard-grader";
import { gradedStep, itCatchesMutants } from "../../shared/grade-native";

const { text, starter, input, grade } = gradedStep(freeClusterDiscard, new URL("../../../../labs/exfat-discard/lab.md", import.meta.url), new URL("./traces/exfat-discard-grade.trace.gz", import.meta.url));

describe("the exFAT batched-discard grader", () => {
  it("reads the delete's requests and the chain they cover from the trace", () => {
    const ctx = freeRun(text);
    expect(ctx.name).toBe("frag");
    // 7 pieces of 16 clusters, each after a cluster of the other file; three single ones; 6 more
    expect(ctx.kernel.map((r) => r[1])).toEqual([16, 16, 16, 16, 16, 16, 16, 1, 1, 1, 6]);
    expect(ctx.kernel.slice(0, 2)).toEqual([[6, 16], [23, 16]]);
    expect(input.decisions).toBe(11);
    expect(input.stdin.split("\n")[0]).toBe("fslab-exfat-discard 1 121");
    expect(input.stdin.split("\n")[1].split(" ").slice(14, 18)).toEqual(["20", "21", "23", "24"]);
  });

  it("agrees with the kernel in every request when the function is the kernel's", () => {
    expect(grade(freeClusterDiscard.reference)).toEqual({ kind: "agree", decisions: 11, notJudged: 0 });
  });

  it("parts from the kernel at the first request with the lab's starter (Linux 6.14's rule)", () => {
    const v = grade(starter);
    expect(v.kind).toBe("diverge");
    if (v.kind !== "diverge") return;
    expect(v.at).toBe(1);
    expect(v.agreed).toBe(0);
    expect(v.kernel).toBe("clusters 6-21 in one request (count 16)");
    expect(v.yours).toBe("cluster 6 in one request (count 1)");
    expect(v.inputs[0]).toBe("request 1 of 11: the run clusters 6-21, after which the chain goes on to cluster 23, not 22");
    expect(v.inputs[2]).toBe("your function was called for each cluster of this run in turn, the chain's first run");
  });

  it("names a request the learner sent after the kernel's last", () => {
    // every run right, and the chain's end sent once more
    const twice = freeClusterDiscard.reference.replace("\t\t*nr_clu = 1;\n", "\t\t*nr_clu = 1;\n\t\tif (n_clu == EXFAT_EOF_CLUSTER)\n\t\t\texfat_discard_cluster(sb, clu, 1);\n");
    const v = grade(twice);
    expect(v.kind).toBe("diverge");
    if (v.kind !== "diverge") return;
    expect(v.at).toBe(11);
    expect(v.kernel).toBe("clusters 131-136 in one request (count 6), and no request after it");
    expect(v.yours).toBe("clusters 131-136 in one request (count 6), then cluster 136 in one request (count 1)");
    expect(v.inputs[0]).toMatch(/after which the chain goes on to its end \(EXFAT_EOF_CLUSTER\)$/);
    expect(v.inputs[2]).toMatch(/in turn, after the 10 runs before it$/);
  });

  itCatchesMutants(freeClusterDiscard, grade, freeClusterDiscard.mutants!, (at) => new RegExp(`^request ${at} of 11: `));

  it("refuses a trace it cannot grade, saying why", () => {
    const lines = text.split("\n");
    const noMark = lines.filter((l) => !l.includes("fslab: exfat-free")).join("\n");
    expect(() => freeRun(noMark)).toThrow(/marked no delete/);
    const perCluster = text.replace(/batched 1/g, "batched 0");
    expect(() => freeRun(perCluster)).toThrow(/one cluster at a time \(batch_discard 0\)/);
    const oneRun = lines.filter((l) => !/exfat_discard: .* clu (?!6 )/.test(l)).join("\n");
    expect(() => freeRun(oneRun)).toThrow(/was one request/);
    const lost = text.replace("# tracer: nop", "# tracer: nop\nCPU:0 [LOST 12 EVENTS]");
    expect(() => freeRun(lost)).toThrow(DiscardTraceError);
    // another volume's discards in the trace are not this delete's
    const other = text.replace(/(clu 131 count 6 batched 1)/, "$1\n              rm-111     [000] .....     5.811000: exfat_discard: dev 7,1 clu 900 count 3 batched 1");
    expect(freeRun(other).kernel).toHaveLength(11);
  });
});
