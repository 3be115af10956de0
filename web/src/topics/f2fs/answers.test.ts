// The free-NID model's answers held to what the guest's kernel did and to what a learner can work
// out: f2fs-clue's challenge asks how many NAT entry scans creates would have run themselves at
// the learner's own file count and sync spacing, from the figures the lab gives (the mount lists
// 3636 NIDs, a NAT entry scan lists 3640, a background build runs at a sync with fewer than 455
// left).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { topicAnswers } from "./answers";
import { loadCoreModule } from "../../shared/node-load";
import { parse as parseYaml } from "yaml";

const lab = readFileSync(new URL("../../../../labs/f2fs-clue/lab.md", import.meta.url), "utf8");

/** the learner's reasoning: a mkdir and the creates take a NID each; an empty list makes the create scan; a sync with fewer than 455 left builds in the background */
function byHand(files: number, every: number): { creates: number; deferred: number } {
  let free = 3636 - 1;
  let creates = 0;
  let deferred = 0;
  for (let done = 0; done < files; ) {
    const n = Math.min(every, files - done);
    for (let i = 0; i < n; i++) {
      if (free === 0) {
        free += 3640;
        creates++;
      }
      free--;
    }
    done += n;
    if (free < 455) {
      free += 3640;
      deferred++;
    }
  }
  return { creates, deferred };
}

describe("f2fs.create-nat-scans", () => {
  it("is what the guest's kernel did (its f2fs_free_nid_scan records, sync = 1 after the mount's)", async () => {
    const m = await loadCoreModule("f2fs");
    const scans = (files: number, sync_every: number, clue = 4) => Number(topicAnswers.answers["create-nat-scans"](m, { files, sync_every, clue }));
    // measured in the guest (clue 4, a fresh 256 MiB volume): a sync every 1000 let the list run
    // dry at the 3637th NID; every 400, two scans were put off and none ran in a create
    expect(scans(4000, 1000)).toBe(1);
    expect(scans(7200, 400)).toBe(0);
    expect(() => scans(0, 400)).toThrow(/files/);
  });

  it("can be worked out from the lab's figures for every problem the lab draws", async () => {
    const text = lab.replace(/\s+/g, " ");
    for (const said of ["listed 3636 free NIDs", "fewer than 455 of them left", "read the next 8 blocks (NIDs 3640 to 7279)"]) expect(text).toContain(said);
    const m = await loadCoreModule("f2fs");
    // the seed's two forms the lab uses: "7000..12000 by 500" and a list (a topic reads no labs/ code)
    const seed = parseYaml(lab.split(/^---$/m)[1]).seed as Record<string, string | number[]>;
    const values = (name: string): number[] => {
      const v = seed[name];
      if (Array.isArray(v)) return v;
      const [, from, to, by] = v.match(/^(\d+)\.\.(\d+) by (\d+)$/)!.map(Number);
      return Array.from({ length: (to - from) / by + 1 }, (_, i) => from + i * by);
    };
    expect(values("q_files")).toContain(12000);
    const answers = new Set<number>();
    for (const files of values("q_files"))
      for (const every of values("q_every")) {
        const key = Number(topicAnswers.answers["create-nat-scans"](m, { files, sync_every: every, clue: 4 }));
        expect(key, `${files} files, a sync every ${every}`).toBe(byHand(files, every).creates);
        answers.add(key);
      }
    // not the same answer for everyone
    expect(answers.size).toBeGreaterThan(2);
  });
});
