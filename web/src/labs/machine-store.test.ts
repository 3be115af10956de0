// The machine store's head: which stored machine a reload restores and which a reset uses, as
// each new machine lands. (The transactions themselves run on real IndexedDB in Chromium:
// e2e/reload.e2e.ts.)
import { describe, expect, it } from "vitest";
import { nextHead, type MachineHead } from "./machine-store";

const LAB = "exfat-discard";

describe("nextHead", () => {
  it("a first machine is the newest, and the step's start if it is one", () => {
    expect(nextHead(undefined, LAB, "latest", "k1", 10)).toEqual({ head: { lab: LAB, newest: "k1", newestAt: 10, newestKind: "latest" }, drop: [] });
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

  it("a machine left mid-step is the newest, over the machine as the step passed, and the step's start stays for a reset", () => {
    const head: MachineHead = { lab: LAB, newest: "p1", newestAt: 20, newestKind: "latest", step: "s1", stepAt: 10 };
    const next = nextHead(head, LAB, "left", "l1", 25)!;
    expect(next.head).toEqual({ lab: LAB, newest: "l1", newestAt: 25, newestKind: "left", step: "s1", stepAt: 10 });
    expect(next.drop).toEqual(["p1"]);
    // left again, later: the newer replaces it; a left machine landing after a newer one does not
    expect(nextHead(next.head, LAB, "left", "l2", 30)).toEqual({ head: { ...next.head, newest: "l2", newestAt: 30 }, drop: ["l1"] });
    expect(nextHead(next.head, LAB, "left", "l0", 22)).toBeNull();
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
});
