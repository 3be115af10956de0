// `fslab bench snapshots` measures the labs of labs/ (every one whose step 1 is taken through
// its solution), not a list: a new lab is measured with nothing edited.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { snapshotLabs } from "./snapshots";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const LABS = readdirSync(`${REPO}labs`).filter((d) => existsSync(`${REPO}labs/${d}/lab.md`));

const lab = (id: string, order: number, step1: string) => `---
id: ${id}
title: "${id}"
summary: a lab
time: 1 min
topics: [x]
order: ${order}
---

## One step

${step1}

## Two

\`\`\`vm
true
\`\`\`
`;
const run = "```vm\ntouch /tmp/made\n```\n\n```check\ntest -e /tmp/made\n```\n\n```solution\ntouch /tmp/made\n```";

describe("the labs bench snapshots measures", () => {
  it("are labs of labs/, the two it always measured among them, in the course's order", async () => {
    const ids = await snapshotLabs();
    expect(ids).toEqual(expect.arrayContaining(["exfat-discard", "mq-deadline"]));
    for (const id of ids) expect(LABS).toContain(id);
    expect(ids.indexOf("exfat-discard")).toBeLessThan(ids.indexOf("mq-deadline")); // order: 2, then 7
  });

  it("a new lab in the folder is measured when its step 1 has a solution and a check; bench/snapshots.ts names no lab", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fslab-labs-"));
    try {
      const put = (id: string, text: string) => {
        mkdirSync(join(dir, id));
        writeFileSync(join(dir, id, "lab.md"), text);
      };
      put("zz-new", lab("zz-new", 2, run));
      put("aa-later", lab("aa-later", 3, run));
      put("reading", lab("reading", 1, "Read this first."));
      put("challenge", lab("challenge", 4, `<!-- challenge -->\n\n${run.replace(/```vm[^`]*```\n\n/, "")}`));
      expect(await snapshotLabs(`${dir}/`)).toEqual(["zz-new", "aa-later"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const text = readFileSync(`${REPO}bench/snapshots.ts`, "utf8");
    for (const id of LABS) expect(text, `bench/snapshots.ts names the lab ${id}`).not.toContain(`"${id}"`);
  });
});
