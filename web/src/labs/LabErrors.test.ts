// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { LabErrors } from "./LabErrors";
import { entryOf } from "./registry";

describe("a broken lab on the page", () => {
  it("shows every error the parser found, one item each with file:line", () => {
    const e = entryOf("broken", "---\ntitle: Broken\ncolour: blue\n---\n## S\n```chek\nexit 1\n```\n## T\n```hnit\nLook.\n```\n", "labs/broken/lab.md", "broken");
    expect(e.lab).toBeUndefined();
    const d = document.createElement("div");
    d.innerHTML = renderToStaticMarkup(createElement(LabErrors, { intro: "This lab has an error:", many: "This lab has errors:", error: e.error }));
    expect([...d.querySelectorAll("li")].map((li) => li.textContent)).toEqual([
      'labs/broken/lab.md:3: unknown frontmatter key "colour" (known: title, summary, id, time, walk, think, topics, disks, views, order, difficulty, requires, layers, files, seed)',
      expect.stringMatching(/^labs\/broken\/lab\.md:6: no block is called "chek": did you mean `check`\?/),
      expect.stringMatching(/^labs\/broken\/lab\.md:10: no block is called "hnit": did you mean `hint`\?/),
    ]);
    expect(d.querySelector("p")?.textContent).toBe("This lab has errors:");
  });

  it("one error stays one line", () => {
    const e = entryOf("broken", "---\ntitle: Broken\ncolour: blue\n---\n## S\ntext\n", "labs/broken/lab.md", "broken");
    const html = renderToStaticMarkup(createElement(LabErrors, { intro: "Lab broken cannot be shown:", error: e.error }));
    expect(html).toBe('<p class="error">Lab broken cannot be shown: labs/broken/lab.md:3: unknown frontmatter key &quot;colour&quot; (known: title, summary, id, time, walk, think, topics, disks, views, order, difficulty, requires, layers, files, seed)</p>');
  });
});
