// `fslab bench`'s parts come from bench/parts/ and the topics' bench.ts, not from a list: a new
// part is a file there, and the usage, the "no benchmark" error and a run of all parts pick it
// up with nothing else edited. The native-against-wasm benches (wasm/src/<core>/bench_<core>.c)
// each have their part.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadParts, partNames } from "./parts";
import { bench, benchUsage } from "../bin/commands/bench";
import { topicsWith } from "../web/src/topics/folders";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const own = readdirSync(`${REPO}bench/parts`).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts")).map((f) => f.replace(/\.ts$/, ""));
const topics = readdirSync(`${REPO}web/src/topics`).filter((t) => existsSync(`${REPO}web/src/topics/${t}/topic.ts`) && existsSync(`${REPO}web/src/topics/${t}/bench.ts`));
const folder = [...own, ...topics].sort();

describe("fslab bench's parts", () => {
  it("are the modules of bench/parts/ and the topics' bench.ts, each a part with a summary, in one order", async () => {
    expect(topics.length).toBeGreaterThan(0);
    expect(partNames()).toEqual(folder);
    const parts = await loadParts();
    expect(parts.map((p) => p.name).sort()).toEqual(folder);
    for (const p of parts) {
      expect(typeof p.run, p.name).toBe("function");
      expect(p.summary.length, p.name).toBeGreaterThan(10);
    }
    expect(new Set(parts.map((p) => p.order)).size).toBe(parts.length);
    // the longest runs last
    expect(parts.at(-1)!.name).toBe("heap");
  });

  it("a new file in the folder is a part; tests and other files are not", () => {
    const dir = mkdtempSync(join(tmpdir(), "fslab-parts-"));
    try {
      for (const f of ["zram.ts", "disk-io.ts", "zram.test.ts", "notes.md"]) writeFileSync(join(dir, f), "");
      expect(partNames(dir, [])).toEqual(["disk-io", "zram"]);
      // a topic's bench.ts is a part named after the topic; the same name in both places is refused
      expect(partNames(dir, ["btrfs"])).toEqual(["btrfs", "disk-io", "zram"]);
      expect(() => partNames(dir, ["zram"])).toThrow(/bench\/parts\/zram.ts and web\/src\/topics\/zram\/bench.ts are both the part "zram"/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("every native bench (wasm/src/<core>/bench_<core>.c) has the part named after its core", () => {
    const cores = readdirSync(`${REPO}wasm/src`).filter((c) => existsSync(`${REPO}wasm/src/${c}/bench_${c}.c`));
    expect(cores.length).toBeGreaterThan(0);
    for (const core of cores) expect(folder, `wasm/src/${core}/bench_${core}.c`).toContain(core);
  });

  it("the usage and the error for an unknown part name every part, and the command files list none", async () => {
    expect(benchUsage()).toBe(`usage: fslab bench [${folder.join("|")}]...`);
    await expect(bench(["disk"])).rejects.toThrow(`no benchmark "disk" (${folder.join(", ")}, or none for all)`);
    // several parts may be named; a wrong one among them is named alone, before any part runs
    await expect(bench([folder[0], "disk", folder[1]])).rejects.toThrow(`no benchmark "disk" (`);
    for (const file of ["bin/commands/bench.ts", "bin/commands/main.ts"]) {
      const text = readFileSync(`${REPO}${file}`, "utf8");
      // a list: two part names one after the other, "a|b" or "a", "b"
      for (const a of folder) for (const b of folder) if (a !== b) expect(text, `${file} lists the parts ${a} and ${b}`).not.toMatch(new RegExp(`\\b${a}\\|${b}\\b|["'\`]${a}["'\`],\\s*["'\`]${b}["'\`]`));
    }
  });

  it("fslab --help and fslab bench --help list every part, and the compiled CLI runs a part", { timeout: 120_000 }, () => {
    for (const args of [["--help"], ["bench", "--help"]]) {
      const r = spawnSync(process.execPath, [`${REPO}bin/fslab.mjs`, ...args], { encoding: "utf8", cwd: REPO });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toContain(`  fslab bench [${folder.join("|")}]`);
    }
    // and the compiled CLI loads a part by its file's name: heap refuses a run of 0 minutes
    // before it starts anything
    const r = spawnSync(process.execPath, [`${REPO}bin/fslab.mjs`, "bench", "heap"], { encoding: "utf8", cwd: REPO, env: { ...process.env, FSLAB_BENCH_HEAP_MINUTES: "0" } });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^fslab bench: FSLAB_BENCH_HEAP_MINUTES must be a whole number of minutes, not "0"/);
    // a native part asks for its fresh processes' count first (bench/processes.ts)
    const p = spawnSync(process.execPath, [`${REPO}bin/fslab.mjs`, "bench", "blk"], { encoding: "utf8", cwd: REPO, env: { ...process.env, FSLAB_BENCH_PROCESSES: "1.5" } });
    expect(p.status, p.stderr).toBe(2);
    expect(p.stderr).toMatch(/^fslab bench: FSLAB_BENCH_PROCESSES must be a whole number from 1 to 50, not "1.5"/);
  });
});
