// The progress IndexedDB holds against the journal a reload found.
import { describe, expect, it } from "vitest";
import { newerProgress } from "./progress";

const LAB = "exfat-discard";

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
