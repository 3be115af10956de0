import { describe, expect, it } from "vitest";
import { DiscardPolicy, type ExfatDiscard } from "./events";
import { deletesOf, discardVerdict, discardsOfLines, fileOnDisk, runsAt } from "./KernelDiscards";
import type { ExfatReport } from "./inspect-report";
import { rewindLine } from "../../shared/event-table";

const perCluster = (start: number, n: number): ExfatDiscard[] => Array.from({ length: n }, (_, i) => ({ start: start + i, count: 1, policy: DiscardPolicy.PerCluster }));
const batched = (runs: [number, number][]): ExfatDiscard[] => runs.map(([start, count]) => ({ start, count, policy: DiscardPolicy.Batched }));

// the lab's step 2: a four-run file of 16-cluster runs deleted per cluster, then again batched
const runs: [number, number][] = [[10, 16], [27, 16], [44, 16], [61, 16]];
const kernel = [...runs.flatMap(([s, n]) => perCluster(s, n)), ...batched(runs)];

describe("discardVerdict: the exfat-clusters view's answer to a lab's expect", () => {
  const groups = deletesOf(kernel);

  it("waits while there are no deletes, or the model has not made one yet", () => {
    expect(discardVerdict([], () => undefined).state).toBe("waiting");
    expect(discardVerdict(groups, (g) => (g[0].policy === DiscardPolicy.PerCluster ? g : undefined))).toEqual({
      state: "waiting",
      detail: "the model is deleting the same file as the kernel's delete 2",
    });
  });

  it("agrees when every delete's requests are the model's, in number and length", () => {
    expect(groups.map((g) => g.length)).toEqual([64, 4]);
    // the model places the file elsewhere: what must match is the requests' lengths
    const model = (g: ExfatDiscard[]) => g.map((d) => ({ ...d, start: d.start + 1000 }));
    expect(discardVerdict(groups, model)).toEqual({ state: "agree", detail: "all 2 deletes: the model sent the kernel's 68 requests, of the same lengths" });
  });

  it("names the delete where the model sent other requests", () => {
    // a model that batched the old way's delete would send 4, not 64
    const model = (g: ExfatDiscard[]) => (g[0].policy === DiscardPolicy.PerCluster ? batched(runs) : g);
    const v = discardVerdict(groups, model);
    expect(v.state).toBe("disagree");
    expect(v.detail).toMatch(/^delete 1: the kernel sent 64 requests \(1,1,.*\), the model 4 \(16,16,16,16\)$/);
  });
});

// tracefs lines as fslab-trace streams them: the task, its pid, the cpu, the time, the event
const line = (pid: number, clu: number, count: number, batched: 0 | 1) => `rm-${pid} [000] ..... 12.${String(clu).padStart(6, "0")}: exfat_discard: dev 7,0 clu ${clu} count ${count} batched ${batched}`;

describe("the kernel's deletes, from the trace lines", () => {
  it("reads the clusters, the policy and the task; a reset's rewind undoes the lines before it", () => {
    const lines = [line(40, 10, 1, 0), "bash-1 [000] ..... 12.5: tracing_mark_write: fslab: x", line(40, 11, 1, 0), rewindLine(2), line(41, 10, 4, 1)];
    expect(discardsOfLines(lines)).toEqual([
      { start: 10, count: 1, policy: DiscardPolicy.PerCluster, pid: 40 },
      { start: 10, count: 4, policy: DiscardPolicy.Batched, pid: 41 },
    ]);
  });

  it("parts deletes by task and by a cluster freed twice, not only by policy", () => {
    // two `rm`s under one policy, then one `rm` whose clusters the next delete frees again
    const d = discardsOfLines([line(40, 10, 4, 1), line(40, 20, 4, 1), line(41, 30, 2, 1), line(42, 50, 1, 0), line(42, 51, 1, 0), line(42, 50, 1, 0)]);
    expect(deletesOf(d).map((g) => g.length)).toEqual([2, 1, 2, 1]);
  });

  it("merges adjacent requests into runs in cluster order", () => {
    expect(runsAt(batched([[20, 4], [10, 4], [14, 2]]))).toEqual([[10, 6], [20, 4]]);
  });
});

describe("the newest delete against the learner's disk", () => {
  const report = (files: Array<{ path: string; runs: [number, number][] }>) =>
    ({ fs: "exfat", files: files.map((f) => ({ ...f, dir: false })) }) as unknown as ExfatReport;
  const disk = report([{ path: "/log", runs: [[16, 1], [33, 1]] }, { path: "/frag", runs: [[10, 6], [17, 6], [24, 6]] }]);
  const frag: [number, number][] = [[10, 6], [17, 6], [24, 6]];
  const same = (g: ExfatDiscard[]) => g; // a model that sends what the kernel sent

  it("finds the file whose clusters the delete freed, and no other", () => {
    expect(fileOnDisk(batched(frag), disk)?.path).toBe("/frag");
    expect(fileOnDisk(perCluster(10, 6), disk)).toBeNull(); // part of /frag only
    expect(fileOnDisk(batched(frag), null)).toBeNull();
  });

  it("waits for the image, then agrees when each batched request is one of the file's runs", () => {
    const groups = deletesOf(batched(frag));
    expect(discardVerdict(groups, same, { report: null, file: "exfat.img" })).toMatchObject({ state: "waiting", detail: expect.stringMatching(/Inspect exfat\.img/) });
    expect(discardVerdict(groups, same, { report: disk, file: "exfat.img" })).toMatchObject({ state: "agree", detail: expect.stringMatching(/the newest freed \/frag: one request per run .*\(10–15, 17–22, 24–29\)/) });
  });

  it("refuses a delete of a file the image does not hold: another file, or the image copied after the delete", () => {
    const other = deletesOf(batched([[40, 3]]));
    expect(discardVerdict(other, same, { report: disk, file: "exfat.img" })).toMatchObject({ state: "disagree", detail: expect.stringMatching(/^delete 1 freed clusters 40–42, and no file on the inspected exfat\.img holds exactly those/) });
  });

  it("holds a per-cluster delete to one request per cluster of the file", () => {
    const groups = deletesOf(frag.flatMap(([s, n]) => perCluster(s, n)));
    expect(discardVerdict(groups, same, { report: disk, file: "exfat.img" }).state).toBe("agree");
    // a request the kernel never sent: the model agrees on lengths, the disk does not
    const odd = deletesOf([...perCluster(10, 6), ...perCluster(17, 6), ...batched([[24, 6]]).map((d) => ({ ...d, policy: DiscardPolicy.PerCluster }))]);
    expect(discardVerdict(odd, (g) => g, { report: disk, file: "exfat.img" }).state).toBe("disagree");
  });
});
