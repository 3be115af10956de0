// A lab's per-learner problem (seed.ts) and the model answers its blocks name (keys.ts).
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { drawSeed, fillLine, parseSeed } from "./seed";
import { hash32 } from "../shared/hash";
import { parseLab } from "./lab-format";
import { formatErrors } from "./format-errors";
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { NeedsLearnerDisk, computeKey, keyError, knownAnswers } from "./keys";
import { ANSWERS, TOPICS, VIEW_IDS } from "../topics";
import { loadCoreModule } from "../shared/node-load";

const lab = (seed: string, body: string) => `---\ntitle: T\n${seed}---\n## One\n\n${body}\n`;
const errorsOf = formatErrors;

describe("seed: parameters", () => {
  it("reads ranges, stepped ranges and lists", () => {
    const r = parseSeed({ a: "3..7", b: "16..64 by 16", c: [437, "cp850"] });
    expect(r.errors).toEqual([]);
    expect(r.params.map((p) => p.values)).toEqual([[3, 4, 5, 6, 7], [16, 32, 48, 64], [437, "cp850"]]);
  });

  it("refuses what would give everyone the same value, or is no parameter", () => {
    expect(parseSeed({ a: "3..3" }).errors[0]).toMatch(/one value or none/);
    expect(parseSeed({ a: [1] }).errors[0]).toMatch(/at least two/);
    expect(parseSeed({ a: [1, 1] }).errors[0]).toMatch(/listed twice/);
    expect(parseSeed({ a: "1..10 by 4" }).errors[0]).toMatch(/not reached/);
    expect(parseSeed({ A: "1..2" }).errors[0]).toMatch(/not a parameter name/);
    expect(parseSeed({ a: "1..99999" }).errors[0]).toMatch(/at most/);
    expect(parseSeed({ a: "lots" }).errors[0]).toMatch(/neither a range/);
    expect(parseSeed([1, 2]).errors[0]).toMatch(/mapping/);
  });

  it("draws the same values for the same learner and lab, every time", () => {
    const { params } = parseSeed({ pieces: "3..7", kib: "16..64 by 8" });
    expect(drawSeed(params, "alice", "exfat-discard")).toEqual(drawSeed(params, "alice", "exfat-discard"));
    // a class of 30: the pairs of values spread over the combinations (not one for all)
    const seen = new Set(Array.from({ length: 30 }, (_, i) => JSON.stringify(drawSeed(params, `student-${i}`, "exfat-discard"))));
    expect(seen.size).toBeGreaterThan(15);
    // and another lab draws differently for the same learner
    const other = Array.from({ length: 20 }, (_, i) => drawSeed(params, `s${i}`, "lab-a").pieces === drawSeed(params, `s${i}`, "lab-b").pieces);
    expect(other.filter(Boolean).length).toBeLessThan(15);
  });

  it("hash32 spreads over every value of a small range", () => {
    const counts = new Array(5).fill(0);
    for (let i = 0; i < 5000; i++) counts[hash32(`learner ${i}`) % 5]++;
    for (const c of counts) expect(c).toBeGreaterThan(850);
  });
});

describe("templates", () => {
  const v = { pieces: 5, kib: 24, cp: "cp850" };
  it("fills names and arithmetic", () => {
    expect(fillLine("dd bs={{kib}}K count=1; size {{pieces * kib * 1024}}; {{ (pieces + 1) / 2 }} {{cp}}", v)).toEqual({ text: "dd bs=24K count=1; size 122880; 3 cp850", errors: [] });
    expect(fillLine("{{kib / 7}}", v).text).toBe("3.428571");
    expect(fillLine("{{-pieces % 3}}", v).text).toBe("-2");
  });

  it("names what is wrong", () => {
    expect(fillLine("{{nope}}", v).errors[0]).toMatch(/no seed parameter "nope" \(this lab's: pieces, kib, cp\)/);
    expect(fillLine("{{cp * 2}}", v).errors[0]).toMatch(/a word/);
    expect(fillLine("{{pieces / 0}}", v).errors[0]).toMatch(/division by zero/);
    expect(fillLine("{{pieces +}}", v).errors[0]).toMatch(/ends too soon/);
    expect(fillLine("{{pieces; rm -rf /}}", v).errors[0]).toMatch(/cannot read/);
    expect(fillLine("a {{pieces", v).errors[0]).toMatch(/never closed/);
    expect(fillLine("{{}}", v).errors[0]).toMatch(/empty/);
  });

  it("never throws, whatever the line (fast-check)", () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const r = fillLine(`{{${s}}} and {{ ${s}`, v);
        expect(typeof r.text).toBe("string");
      }),
    );
  });
});

describe("a seeded lab", () => {
  const text = lab("seed:\n  n: 3..9\n", "Write {{n}} files.\n\n```check\n[ $(ls /x | wc -l) = {{n}} ] || { echo \"FAIL: not {{n}} files\"; exit 1; }\n```\n\n```hint fail=\"not {{n}} files\"\nCount them.\n```");

  it("is read with the learner's values, in the text, the checks and the hints alike", () => {
    const a = parseLab(text, VIEW_IDS, "lab.md", "t", { identity: "alice" });
    const n = a.seed.values.n;
    expect(a.steps[0].blocks.map((b) => b.text).join("\n")).toContain(`Write ${n} files.`);
    expect(a.steps[0].blocks.find((b) => b.kind === "check")!.text).toContain(`= ${n} ]`);
    expect(a.steps[0].blocks.find((b) => b.kind === "hint")).toMatchObject({ fail: `not ${n} files` });
    // someone among a few learners has another number
    const others = ["bob", "carol", "dave", "erin"].map((id) => parseLab(text, VIEW_IDS, "lab.md", "t", { identity: id }).seed.values.n);
    expect(others.some((x) => x !== n)).toBe(true);
  });

  it("keeps the author's line numbers in its errors, and refuses a template in a heading", () => {
    const bad = `---\ntitle: T\nseed:\n  n: 1..4\n---\n## Step {{n}}\n\nText {{m}}.\n`;
    expect(errorsOf(() => parseLab(bad, VIEW_IDS, "lab.md"))).toEqual([
      "lab.md:6: a step's heading holds no {{template}}: the title names the step in every learner's progress, so it is the same for all",
      'lab.md:8: {{m}}: no seed parameter "m" (this lab\'s: n)',
    ]);
    expect(errorsOf(() => parseLab(lab("seed:\n  n: 5\n", "x"), VIEW_IDS, "lab.md"))[0]).toMatch(/^lab.md:3: seed: n: 5 is neither/);
  });
});

describe("model keys", () => {
  const q = (key: string) =>
    lab("seed:\n  n: 3..7\n", "```check\ntrue\n```\n\n```question\nquestion: How many?\nanswer: echo 1\n" + key + "\n```");

  it("are checked against the answers the topics declare", () => {
    expect(errorsOf(() => parseLab(q("key:\n  model: exfat.delete-discards\n  pieces: {{n}}\n  piece_clusters: 4\n  batch_discard: 0"), VIEW_IDS, "lab.md", "t", { answers: ANSWERS }))).toEqual([]);
    expect(errorsOf(() => parseLab(q("key:\n  model: exfat.nope\n  pieces: 1"), VIEW_IDS, "lab.md", "t", { answers: ANSWERS }))[0]).toMatch(/no topic declares a model answer "exfat.nope"/);
    expect(errorsOf(() => parseLab(q("key:\n  model: exfat.delete-discards\n  pieces: 1"), VIEW_IDS, "lab.md", "t", { answers: ANSWERS }))[0]).toMatch(/needs piece_clusters, batch_discard/);
    expect(errorsOf(() => parseLab(q("key: 7"), VIEW_IDS, "lab.md", "t"))[0]).toMatch(/key: is a mapping/);
    expect(keyError({ model: "exfat.delete-discards", params: { pieces: 1, piece_clusters: 1, batch_discard: 1, extra: 2 } }, ANSWERS)).toMatch(/takes no extra/);
  });

  it("every topic's answers module has exactly the answers its manifest declares", async () => {
    for (const t of TOPICS) {
      if (!t.answers) continue;
      const m = await t.answers.load();
      expect(Object.keys(m.answers).sort(), t.id).toEqual(t.answers.specs.map((s) => s.id).sort());
    }
    expect(knownAnswers(TOPICS).length).toBeGreaterThan(0);
  });

  it("exfat.delete-discards is the exfat model's count: one per cluster, or one per run", async () => {
    const run = (batch: number) => computeKey(TOPICS, { model: "exfat.delete-discards", params: { pieces: 5, piece_clusters: 6, batch_discard: batch } }, loadCoreModule);
    expect(await run(0)).toBe("30");
    expect(await run(1)).toBe("5");
    await expect(computeKey(TOPICS, { model: "exfat.delete-discards", params: { pieces: 0, piece_clusters: 6, batch_discard: 1 } }, loadCoreModule)).rejects.toThrow(/pieces is 0/);
  });

  // images the real mkfs and the real kernel made (wasm/tests/images/make-images.ts): on exfat-4k,
  // fragmented.bin is four runs of 4 clusters, contiguous.bin one NoFatChain run of 10
  const image = (name: string) => gunzipSync(readFileSync(new URL(`../../../wasm/tests/images/${name}.img.gz`, import.meta.url)));
  const fromDisk = (path: string, batch: number, img = "exfat-4k") =>
    computeKey(TOPICS, { model: "exfat.file-discards", params: { image: "exfat.img", path, batch_discard: batch } }, loadCoreModule, async (name) => {
      expect(name).toBe("exfat.img");
      return image(img);
    });

  it("exfat.file-discards reads the learner's own volume: the file's chain as the inspector finds it", async () => {
    expect(await fromDisk("/fragmented.bin", 1)).toBe("4");
    expect(await fromDisk("/fragmented.bin", 0)).toBe("16");
    expect(await fromDisk("/contiguous.bin", 1)).toBe("1");
    expect(await fromDisk("/contiguous.bin", 0)).toBe("10");
    await expect(fromDisk("/gone.bin", 1)).rejects.toThrow(/exfat.img has no file \/gone.bin/);
    await expect(fromDisk("/fragmented.bin", 1, "ext4-4k")).rejects.toThrow(/exfat.img is a ext4 volume, not exFAT/);
  });

  it("a key that reads the disk is refused where there is no learner's machine, and names a plain file of /mnt/host", async () => {
    const key = { model: "exfat.file-discards", params: { image: "exfat.img", path: "/frag", batch_discard: 1 } };
    await expect(computeKey(TOPICS, key, loadCoreModule)).rejects.toBeInstanceOf(NeedsLearnerDisk);
    await expect(computeKey(TOPICS, key, loadCoreModule, () => Promise.reject(new Error("ENOENT")))).rejects.toThrow(/\/mnt\/host\/exfat.img could not be read \(ENOENT\)/);
    expect(keyError(key, ANSWERS)).toBeNull();
    expect(keyError({ ...key, params: { ...key.params, image: "../etc/passwd" } }, ANSWERS)).toMatch(/names a file the learner's commands copy to \/mnt\/host/);
    expect(keyError({ model: key.model, params: { path: "/frag", batch_discard: 1 } }, ANSWERS)).toMatch(/needs image/);
  });
});
