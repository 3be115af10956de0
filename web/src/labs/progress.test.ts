// The snapshot store's head: which stored machine a reload restores and which a reset uses,
// as each new machine lands, and what a store in the layout before heads reads as. (The
// transactions themselves run on real IndexedDB in Chromium: e2e/reload.e2e.ts.)
import { describe, expect, it } from "vitest";
import { legacyHead, newerProgress, nextHead, type MachineHead } from "./progress";

const LAB = "exfat-discard";

describe("nextHead", () => {
  it("a first machine is the newest, and the step's start if it is one", () => {
    expect(nextHead(undefined, LAB, "latest", "k1", 10)).toEqual({ head: { lab: LAB, newest: "k1", newestAt: 10, newestKind: "latest" }, drop: [`${LAB}/step`, `${LAB}/latest`] });
    expect(nextHead(undefined, LAB, "step", "k1", 10)?.head).toEqual({ lab: LAB, newest: "k1", newestAt: 10, newestKind: "step", step: "k1", stepAt: 10 });
  });

  it("a step passed: the newest, and the step's start is kept for a reset", () => {
    const head: MachineHead = { lab: LAB, newest: "s1", newestAt: 10, newestKind: "step", step: "s1", stepAt: 10 };
    const next = nextHead(head, LAB, "latest", "p1", 20)!;
    expect(next.head).toEqual({ lab: LAB, newest: "p1", newestAt: 20, newestKind: "latest", step: "s1", stepAt: 10 });
    expect(next.drop).not.toContain("s1");
  });

  it("the next step's start replaces both, and the passed machine goes", () => {
    const head: MachineHead = { lab: LAB, newest: "p1", newestAt: 20, newestKind: "latest", step: "s1", stepAt: 10 };
    const next = nextHead(head, LAB, "step", "s2", 30)!;
    expect(next.head).toEqual({ lab: LAB, newest: "s2", newestAt: 30, newestKind: "step", step: "s2", stepAt: 30 });
    expect(next.drop).toEqual(expect.arrayContaining(["p1", "s1"]));
  });

  it("an older machine landing late stands over nothing newer", () => {
    const head: MachineHead = { lab: LAB, newest: "p2", newestAt: 40, newestKind: "latest", step: "s2", stepAt: 30 };
    expect(nextHead(head, LAB, "latest", "p1", 20)).toBeNull();
    expect(nextHead(head, LAB, "step", "s1", 25)).toBeNull();
    // a step's start newer than the step's, older than the newest: the step's start only
    const next = nextHead(head, LAB, "step", "s3", 35)!;
    expect(next.head).toMatchObject({ newest: "p2", step: "s3", stepAt: 35 });
    expect(next.drop).toContain("s2");
    expect(next.drop).not.toContain("p2");
  });

  it("never drops what the new head names, the layout before heads' keys included", () => {
    const head = legacyHead(LAB, { savedAt: 10 }, { savedAt: 20 })!;
    const next = nextHead(head, LAB, "latest", "p2", 30)!;
    expect(next.head).toMatchObject({ newest: "p2", step: `${LAB}/step` });
    expect(next.drop).toEqual([`${LAB}/latest`]);
  });
});

describe("legacyHead: a store written by the page before heads", () => {
  it("restores the newer of <lab>/step and <lab>/latest, and resets to <lab>/step", () => {
    expect(legacyHead(LAB, { savedAt: 10 }, { savedAt: 20 })).toEqual({ lab: LAB, newest: `${LAB}/latest`, newestAt: 20, newestKind: "latest", step: `${LAB}/step`, stepAt: 10 });
    expect(legacyHead(LAB, { savedAt: 30 }, { savedAt: 20 })).toEqual({ lab: LAB, newest: `${LAB}/step`, newestAt: 30, newestKind: "step", step: `${LAB}/step`, stepAt: 30 });
    expect(legacyHead(LAB, undefined, { savedAt: 20 })).toEqual({ lab: LAB, newest: `${LAB}/latest`, newestAt: 20, newestKind: "latest" });
    expect(legacyHead(LAB, undefined, undefined)).toBeUndefined();
  });
});

describe("newerProgress: IndexedDB's progress against the journal a reload found", () => {
  const p = (step: number, updatedAt: number) => ({ lab: LAB, labHash: "h", guest: "g", step, startedAt: 1, updatedAt, steps: [] });
  it("a journal newer than the store wins: the save IndexedDB lost to the reload", () => {
    expect(newerProgress(p(0, 10), p(1, 11))).toEqual(p(1, 11));
  });
  it("the store wins over an older or equal journal, and stands alone without one", () => {
    expect(newerProgress(p(2, 12), p(1, 11))).toEqual(p(2, 12));
    expect(newerProgress(p(2, 12), p(1, 12))).toEqual(p(2, 12));
    expect(newerProgress(p(2, 12), undefined)).toEqual(p(2, 12));
  });
  it("a journal with nothing stored, or a damaged record, is the journal", () => {
    expect(newerProgress(undefined, p(1, 11))).toEqual(p(1, 11));
    expect(newerProgress("junk", p(1, 11))).toEqual(p(1, 11));
  });
});
