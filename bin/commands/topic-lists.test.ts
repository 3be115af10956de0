// The generated sources against what the topic folders make of them now.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { eventsModule, generatedSources } from "./topic-lists";
import { topicsWith } from "../../web/src/topics/folders";

describe("the sources gathered from the topic folders", () => {
  for (const [path, text] of Object.entries(generatedSources())) {
    it(`${path} is what the folders make of it (else: npx fslab readme)`, () => {
      expect(readFileSync(path, "utf8"), `${path} has fallen behind the topic folders or was edited by hand: run npx fslab readme`).toBe(text);
    });
  }

  it("an entry kept by hand, or a topic's missing, differs from the generated text", () => {
    const now = eventsModule(["blk", "exfat", "f2fs"]);
    expect(eventsModule(["blk", "exfat"])).not.toBe(now);
    expect(eventsModule(["blk", "exfat", "f2fs", "sd"])).toContain(`import * as sd from "./sd/events";`);
    expect(eventsModule(["write-path"])).toContain(`...write_path.traceEvents`);
  });
});

describe("a topic is its folders", () => {
  // outside the topic folders, which source files name three topics or more: a topic's id in
  // their code or strings (comments aside), tests aside. The course's own words (shared/stack.ts
  // names the filesystems, schedulers and devices of each layer) and the generated sources are
  // what may; a fifth is a list someone keeps by hand
  const ROOT = new URL("../../", import.meta.url).pathname;
  const topics = topicsWith();
  const inTopic = (f: string) => topics.some((t) => f.startsWith(`web/src/topics/${t}/`) || f.startsWith(`wasm/src/${t}/`));
  const isTest = (f: string) => /\.(test|e2e)\.tsx?$/.test(f) || /^(e2e|wasm\/tests|wasm\/fuzz\/regressions)\//.test(f);
  const isSource = (f: string) => /\.(tsx?|mjs|js|c|h|css|sh|py|mk)$/.test(f) || /(^|\/)Makefile$/.test(f) || f.startsWith("kernel-image/rootfs/overlay/usr/local/bin/");
  const outside = (f: string) => !/^(labs|docs|kernel-image\/dist|kernel-image\/patches)\//.test(f);
  /** the text without its comments (a URL's // in a string may go too: that only names fewer) */
  const code = (f: string, s: string) =>
    /\.(tsx?|mjs|js|c|h|css)$/.test(f) ? s.replace(/\/\*[^]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1") : s.replace(/(^|\s)#(?!!).*$/gm, "$1");
  const named = (text: string) => topics.filter((t) => new RegExp(`(^|[^A-Za-z0-9])${t.replace(/-/g, "[-_]")}([^A-Za-z0-9]|$)`, "i").test(text));

  it("outside them, at most four source files name three topics or more", () => {
    expect(topics.length).toBeGreaterThan(3);
    const files = execFileSync("git", ["ls-files"], { cwd: ROOT, encoding: "utf8" }).split("\n").filter(Boolean);
    const many = files
      .filter((f) => !inTopic(f) && !isTest(f) && isSource(f) && outside(f) && existsSync(`${ROOT}${f}`))
      .map((f) => ({ f, n: named(code(f, readFileSync(`${ROOT}${f}`, "utf8"))) }))
      .filter(({ n }) => n.length >= 3);
    // each with its reason; a file not here is a list to move into the topics or to generate
    const allowed: Record<string, string> = {
      "web/src/shared/stack.ts": "the course's words for each layer of the storage stack",
      "web/src/topics/events.gen.ts": "generated from the topic folders",
    };
    const seen = many.map(({ f, n }) => `${f}: ${n.join(", ")}`).join("\n");
    expect(many.map(({ f }) => f).sort(), seen).toEqual(Object.keys(allowed).sort());
    expect(many.length).toBeLessThanOrEqual(4);
  });

  it("a list of the topics in code is seen, in a comment it is not", () => {
    expect(named(code("x.ts", `const T = ["exfat", "f2fs", "vfat"]; // blk sd`))).toEqual(["exfat", "f2fs", "vfat"]);
    expect(named(code("x.sh", `echo write_path # ext4`))).toEqual(["write-path"]);
  });
});
