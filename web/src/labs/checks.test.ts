// What a guest alone can judge of a step: its checks and its event expectations, not a view's
// verdict (which only the page has). The page's walk and `fslab labs test` share this rule.
import { describe, expect, it } from "vitest";
import { parseLab } from "./lab-format";
import { guestJudged, guestSide } from "./checks";

const lab = (blocks: string) =>
  parseLab(`---\nid: t\ntitle: T\nsummary: s\ntopics: [exfat]\ndisks: []\nviews: [exfat-dir]\n---\n\n## Step\n\nText.\n\n${blocks}`, ["exfat-dir"], "lab.md", "t");

describe("a step's guest side", () => {
  it("keeps checks and event expectations, drops verdicts, and a block of verdicts only", () => {
    const step = lab("```check\ntrue\n```\n\n```expect\n- event: exfat_discard\n- verdict: exfat-dir\n```\n\n```expect\nverdict: exfat-dir\n```\n").steps[0];
    expect(guestJudged(step)).toEqual([true, true, false, false]);
    const side = guestSide(step);
    expect(side.blocks.filter((b) => b.kind === "check" || b.kind === "expect").map((b) => (b.kind === "expect" ? b.expect.map((x) => x.event ?? x.verdict) : b.kind))).toEqual([
      "check",
      ["exfat_discard"],
    ]);
    expect(guestJudged(side)).toEqual([true, true]);
    // the step it came from is untouched
    expect(guestJudged(step)).toHaveLength(4);
  });
});
