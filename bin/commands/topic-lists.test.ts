// The generated sources against what the topic folders make of them now.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { eventsModule, generatedSources } from "./topic-lists";

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
