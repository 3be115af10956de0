// Each topic's code graders (shared/grade.ts) are the ones its manifest declares, and each
// replaces the function the manifest names: its reference defines it, and its C sources are
// the model's files with a main to replay (none of them defines the learner's function).
import { describe, expect, it } from "vitest";
import { TOPICS } from ".";
import { mutate } from "../shared/grade";

describe("code graders", () => {
  for (const t of TOPICS.filter((x) => x.graders))
    it(`${t.id}: grader.ts has exactly the manifest's graders, each replacing its function`, async () => {
      const graders = await t.graders!.load();
      expect(Object.keys(graders).sort()).toEqual(t.graders!.specs.map((s) => s.id).sort());
      for (const spec of t.graders!.specs) {
        const g = graders[spec.id];
        const defines = new RegExp(`^\\w[\\w\\s*]*\\b${spec.function}\\s*\\([^;]*\\)\\s*\\{`, "m");
        expect(g.reference, `${spec.id}: the reference defines ${spec.function}`).toMatch(defines);
        const cFiles = Object.entries(g.sources).filter(([p]) => p.endsWith(".c"));
        expect(cFiles.some(([, src]) => /\bint main\s*\(/.test(src)), `${spec.id}: a main to replay`).toBe(true);
        for (const [p, src] of cFiles) expect(src, `${spec.id}: ${p} leaves ${spec.function} to the learner`).not.toMatch(defines);
        expect(g.file).toMatch(/^[\w.-]+\.c$/);
        // at least five mistakes to catch, each a change the reference can take
        expect(g.mutants?.length ?? 0, `${spec.id}: mutants`).toBeGreaterThanOrEqual(5);
        for (const m of g.mutants ?? []) expect(mutate(g.reference, m), `${spec.id}: ${m.name}`).not.toBe(g.reference);
      }
    });
});
