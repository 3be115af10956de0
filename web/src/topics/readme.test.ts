// The README's view list and playground routes are the manifests'.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { TOPICS } from ".";
import { GENERATED_IN, generatedSections, rewriteReadme } from "./readme";

describe("the README", () => {
  it("lists the views and playgrounds the manifests declare (fslab readme rewrites them)", () => {
    const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8");
    const sections = generatedSections(TOPICS);
    expect(sections.views.split("\n")).toHaveLength(TOPICS.flatMap((t) => t.views).length);
    for (const [file, names] of Object.entries(GENERATED_IN)) {
      const text = readFileSync(new URL(`../../../${file}`, import.meta.url), "utf8");
      expect(rewriteReadme(text, sections, names, file), `${file} is behind the manifests: npx fslab readme`).toBe(text);
    }
    expect(readme).toMatch(/<!-- generated:playgrounds -->/);
  });

  it("refuses a README without a section's markers", () => {
    expect(() => rewriteReadme("# x\n", { views: "- a" })).toThrow(/no <!-- generated:views -->/);
  });
});
