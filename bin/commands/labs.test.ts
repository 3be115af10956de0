// fslab labs check, index, report and labs test's walk, as an instructor meets them: every
// error at once, one lab at a time, a class's folder of folders, the answers a lab measures.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { labsCheck, labsIndex, labsReport, findLabs } from "./labs";
import { walk, type WalkVm } from "./labs-test";
import { parseLab } from "../../web/src/labs/lab-format";
import { freshProgress } from "../../web/src/labs/progress";
import { progressExport, sha256Hex } from "../../web/src/labs/report";
import { cardKey, readCards, readContext } from "../../web/src/labs/course-cards";
import { ANSWERS, GRADERS, VIEW_IDS } from "../../web/src/topics";

const repo = fileURLToPath(new URL("../../", import.meta.url));

const lab = (id: string, steps: string) => `---\nid: ${id}\ntitle: "Lab ${id}"\n---\n\n${steps}`;
const GOOD_STEP = "## Make it\n\n```vm\ntouch /tmp/made\n```\n\n```check\ntest -e /tmp/made\n```\n";
// three mistakes: a misspelled check, a misspelled hint, a bad timeout
const BROKEN = "## One\n\n```vm\ntouch /tmp/a\n```\n\n```chek\ntest -e /tmp/a\n```\n\n## Two\n\n```hnit\nLook.\n```\n\n```check timeout=0\ntrue\n```\n";

let out: string[];
let err: string[];
let dir: string;
beforeEach(() => {
  out = [];
  err = [];
  vi.spyOn(console, "log").mockImplementation((...a) => void out.push(a.join(" ")));
  vi.spyOn(console, "error").mockImplementation((...a) => void err.push(a.join(" ")));
  vi.spyOn(console, "warn").mockImplementation((...a) => void err.push(a.join(" ")));
  vi.spyOn(process.stdout, "write").mockImplementation((s) => (out.push(String(s)), true));
  dir = mkdtempSync(join(tmpdir(), "fslab-labs-"));
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});
const put = (path: string, text: string) => {
  mkdirSync(join(dir, path, ".."), { recursive: true });
  writeFileSync(join(dir, path), text);
};
const rel = (p: string) => relative(process.cwd(), join(dir, p));

describe("fslab labs check", { timeout: 30_000 }, () => {
  it("reports every error of every lab at once, each with file:line, and exits 1", async () => {
    put("good/lab.md", lab("good", GOOD_STEP));
    put("broken/lab.md", lab("broken", BROKEN));
    expect(await labsCheck(dir)).toBe(1);
    expect(err).toEqual([
      expect.stringMatching(new RegExp(`^${rel("broken/lab.md")}:12: no block is called "chek": did you mean \`check\`\\?`)),
      expect.stringMatching(new RegExp(`^${rel("broken/lab.md")}:18: no block is called "hnit": did you mean \`hint\`\\?`)),
      `${rel("broken/lab.md")}:22: a check's timeout is 1 to 600 seconds, not 0`,
    ]);
    expect(out).toEqual([`ok  ${rel("good/lab.md")}: Lab good (1 step)`, "1 of 2 labs valid: 3 errors"]);
  });

  it("takes one lab's folder or its lab.md, and says it checked one lab", async () => {
    put("good/lab.md", lab("good", GOOD_STEP));
    for (const path of [join(dir, "good"), join(dir, "good/lab.md")]) {
      out = [];
      expect(await labsCheck(path)).toBe(0);
      expect(out).toEqual([`ok  ${rel("good/lab.md")}: Lab good (1 step)`, "1 lab valid"]);
    }
    // the folder's name is still the id's: a lab.md named directly is held to it too
    put("other/lab.md", lab("good", GOOD_STEP));
    expect(await labsCheck(join(dir, "other/lab.md"))).toBe(1);
    expect(err.at(-1)).toMatch(/other\/lab\.md:2: id "good" does not match its folder "other"/);
  });

  it("finds no lab: exit 1 and one line, not '0 of 0 labs valid'", async () => {
    mkdirSync(join(dir, "empty"));
    expect(await labsCheck(join(dir, "empty"))).toBe(1);
    expect(err).toEqual([`fslab labs check: no lab in ${join(dir, "empty")}: a lab is a folder with a lab.md (name a labs folder, a lab folder or a lab.md)`]);
    expect(out).toEqual([]);
    expect(await labsCheck(join(dir, "nowhere"))).toBe(1);
    expect(err.at(-1)).toBe(`fslab labs check: no file or folder ${join(dir, "nowhere")}`);
  });

  it("warns of a step with nothing to check, and is quiet about one marked <!-- reading -->", async () => {
    put("x/lab.md", lab("x", `## Read\n\nText.\n\n${GOOD_STEP}`));
    expect(await labsCheck(join(dir, "x"))).toBe(0);
    expect(err).toEqual([`warning ${rel("x/lab.md")}:6: step "Read" has nothing to check (no check, expect or predict block): add one, or mark a step the learner only reads with a line <!-- reading -->`]);
    expect(out.at(-1)).toBe("1 lab valid (1 warning)");
    err = [];
    put("x/lab.md", lab("x", `## Read\n\n<!-- reading -->\n\nText.\n\n${GOOD_STEP}`));
    expect(await labsCheck(join(dir, "x"))).toBe(0);
    expect(err).toEqual([]);
    // a lab with errors is warned of too, in the same round
    put("x/lab.md", lab("x", `## Read\n\nText.\n\n${GOOD_STEP.replace("```vm", "```vn")}`));
    expect(await labsCheck(join(dir, "x"))).toBe(1);
    expect(err).toEqual([expect.stringMatching(/^warning .*x\/lab\.md:6: step "Read" has nothing to check/), expect.stringMatching(/x\/lab\.md:12: no block is called "vn": did you mean `vm`\?/)]);
  });

  it("fails a lab whose stated time is far from its reading, recorded walk and thinking time, at the time: line", async () => {
    // 150 words read (1.5 min) + walk 30 s + think 6 min = 8 min
    const timed = (time: string) => `---\nid: t\ntitle: "Lab t"\ntime: ${time}\nwalk: 30 s\nthink: 6 min\n---\n\n## Make it\n\n${Array(148).fill("word").join(" ")}\n\n\`\`\`vm\ntouch /tmp/made\n\`\`\`\n\n\`\`\`check\ntest -e /tmp/made\n\`\`\`\n`;
    put("t/lab.md", timed("30 min"));
    expect(await labsCheck(join(dir, "t"))).toBe(1);
    expect(err).toEqual([
      `${rel("t/lab.md")}:4: time 30 min is far from what the lab takes: reading 1.5 min (150 words at 100 a minute) + walk 0.5 min + think 6 min = 8 min, and a stated time may be off by 5 min at most: state about 8 min, or correct walk: or think:`,
    ]);
    expect(out).toEqual(["0 of 1 lab valid: 1 error"]);
    err = [];
    out = [];
    put("t/lab.md", timed("10 min"));
    expect(await labsCheck(join(dir, "t"))).toBe(0);
    expect(err).toEqual([]);
    // a stated time with nothing measured behind it is a warning
    put("t/lab.md", timed("10 min").replace("walk: 30 s\n", ""));
    expect(await labsCheck(join(dir, "t"))).toBe(0);
    expect(err).toEqual([expect.stringMatching(new RegExp(`^warning ${rel("t/lab.md")}:4: time is stated but no walk: is recorded`))]);
  });

  it("passes the eight labs in labs/ without a warning", async () => {
    expect(await labsCheck(join(repo, "labs"))).toBe(0);
    expect(err).toEqual([]);
    expect(out.at(-1)).toMatch(/^\d+ labs valid$/);
  });

  it("exits 0 and says so from the command line, for one lab's folder", () => {
    const r = spawnSync(process.execPath, [join(repo, "bin/fslab.mjs"), "labs", "check", "labs/exfat-discard"], { encoding: "utf8", cwd: repo });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ok  labs\/exfat-discard\/lab\.md: exFAT: why deleting a big file used to take minutes \(\d+ steps\)\n1 lab valid\n$/);
  });
});

describe("fslab labs index", { timeout: 30_000 }, () => {
  it("on a site's labs folder: lists every lab folder, names every error of a broken one", async () => {
    put("a/lab.md", lab("a", GOOD_STEP));
    put("b/lab.md", lab("b", BROKEN));
    expect(await labsIndex([dir])).toBe(1);
    expect(err).toHaveLength(3);
    const written = JSON.parse(readFileSync(join(dir, "index.json"), "utf8"));
    expect(written.labs).toEqual(["a", "b"]);
    // the home page's cards (course-cards.ts): a's, and b's errors as the page shows them
    expect(written.cards.a).toMatchObject({ key: cardKey(readFileSync(join(dir, "a/lab.md"), "utf8"), readContext(VIEW_IDS, ANSWERS, GRADERS)), meta: { id: "a" }, steps: [expect.any(String)] });
    expect(written.cards.b).toEqual({ key: expect.any(String), error: expect.stringContaining("labs/b/lab.md:") });
    expect(readCards(written.cards).size).toBe(2);
    expect(out).toEqual([`wrote ${rel("index.json")}: 2 labs, 1 with errors (shown on the page as such)`]);
  });

  it("on one lab's folder or lab.md: checks that lab, and writes the index beside it with every lab", async () => {
    put("a/lab.md", lab("a", GOOD_STEP));
    put("b/lab.md", lab("b", BROKEN));
    for (const path of [join(dir, "a"), join(dir, "a/lab.md")]) {
      out = [];
      err = [];
      expect(await labsIndex([path])).toBe(0);
      expect(err).toEqual([]); // b's errors are not a's
      expect(out).toEqual([`ok  ${rel("a/lab.md")}: Lab a (1 step)`, `wrote ${rel("index.json")}: 2 labs; 1 lab valid`]);
      expect(JSON.parse(readFileSync(join(dir, "index.json"), "utf8")).labs).toEqual(["a", "b"]);
    }
  });

  it("finds no lab: exit 1, and no index written", async () => {
    mkdirSync(join(dir, "site"));
    expect(await labsIndex([join(dir, "site")])).toBe(1);
    expect(err[0]).toMatch(/^fslab labs index: no lab in /);
    expect(findLabs(join(dir, "site"))).toHaveProperty("error");
    expect(() => readFileSync(join(dir, "site/index.json"))).toThrow();
  });
});

async function progressFile(labId: string, hash: string, name = "ann") {
  const p = freshProgress(labId, hash, "guest", ["One"]);
  p.steps[0] = { ...p.steps[0], passedAt: 1, attempts: 1, openMs: 60_000 };
  return JSON.stringify({ ...progressExport(p, `Lab ${labId}`, Date.UTC(2026, 0, 1)), note: name });
}

describe("fslab labs report", { timeout: 30_000 }, () => {
  it("reads a class's folder of folders, names a file it cannot read and goes on, and says which labs it compared with", async () => {
    const hash = await sha256Hex(readFileSync(join(repo, "labs/exfat-discard/lab.md"), "utf8"));
    put("class/alice/progress.json", await progressFile("exfat-discard", hash));
    put("class/bob/progress.json", await progressFile("exfat-discard", "c".repeat(64)));
    put("class/bob/deeper/carol.json", await progressFile("no-such-lab", hash));
    symlinkSync(join(dir, "nowhere.json"), join(dir, "class/dangling.json"));
    const cwd = process.cwd();
    process.chdir(repo); // the default labs folder is ./labs
    try {
      expect(await labsReport([join(dir, "class")])).toBe(1);
    } finally {
      process.chdir(cwd);
    }
    const table = out.join("").trim().split("\n");
    expect(table).toHaveLength(4);
    expect(table[1]).toMatch(/class\/alice\/progress\.json\s+exfat-discard\s+1\/1/);
    expect(table[1]).not.toMatch(/another version/);
    expect(table[2]).toMatch(/class\/bob\/deeper\/carol\.json\s+no-such-lab/);
    expect(table[3]).toMatch(/class\/bob\/progress\.json.*another version of the lab/);
    expect(err).toEqual([
      `${join(dir, "class/dangling.json")}: cannot be read (ENOENT)`,
      "3 progress files, 1 for another version of its lab, 1 unreadable",
      "3 files without the learner's name or ID: each is its own learner, named by its file",
      "lab versions compared with the labs in labs/ (--labs DIR to compare with another); not there: no-such-lab",
    ]);
  });

  it("with --labs, compares with that folder, and says when it is not there", async () => {
    put("p.json", await progressFile("exfat-discard", "a".repeat(64)));
    expect(await labsReport([join(dir, "p.json"), "--labs", join(repo, "labs")])).toBe(0);
    expect(err.at(-1)).toBe(`lab versions compared with the labs in ${join(repo, "labs")}/`);
    expect(out.join("")).toMatch(/another version of the lab/);
    err = [];
    expect(await labsReport([join(dir, "p.json"), "--labs", join(dir, "none")])).toBe(0);
    expect(err.at(-1)).toBe(`no labs folder ${join(dir, "none")}/: no file was compared with its lab's current version`);
  });

  it("finds no progress file: exit 1, not an empty table", async () => {
    mkdirSync(join(dir, "class/alice"), { recursive: true });
    put("class/notes.txt", "not progress");
    expect(await labsReport([join(dir, "class")])).toBe(1);
    expect(err).toEqual([`fslab labs report: no progress file (*.json) in ${join(dir, "class")}, nor in any folder under it`]);
    expect(out).toEqual([]);
  });
});

describe("fslab labs test's walk", { timeout: 30_000 }, () => {
  it("prints each prediction's measured answer, per step, with its unit", async () => {
    const src = lab(
      "p",
      "## Measure\n\n```predict\nquestion: How many `discard` requests?\nunit: requests\nactual: cat /tmp/n\n```\n\n```vm\necho 64 > /tmp/n\n```\n\n```check\ntest -e /tmp/n\n```\n\n" +
        "## Choose\n\n```predict\nquestion: Which one?\nchoices: [none, kyber]\nactual: cat /tmp/w\n```\n\n```vm\necho kyber > /tmp/w\n```\n\n```check\ntest -e /tmp/w\n```\n",
    );
    const { steps } = parseLab(src, [], "labs/p/lab.md", "p");
    // a stand-in guest: a file system of what the vm blocks wrote
    const files = new Map<string, string>();
    const vm = {
      stopped: null,
      trace: { takeLines: () => [] },
      traceSettled: async () => undefined,
      freshShell: async () => undefined,
      saveState: async () => new Map(files),
      restoreState: async (m: Map<string, string>) => {
        files.clear();
        for (const [k, v] of m) files.set(k, v);
      },
      run: async (cmd: string) => {
        const m = cmd.match(/^echo (\S+) > (\S+)$/);
        if (m) files.set(m[2], m[1]);
        return { status: 0, output: "" };
      },
      agent: {
        run: async (script: string) => {
          const cat = script.match(/^cat (\S+)$/);
          if (cat) return { status: 0, output: `${files.get(cat[1]) ?? ""}\n` };
          const test = script.match(/^test -e (\S+)$/);
          return { status: test && files.has(test[1]) ? 0 : 1, output: "" };
        },
      },
    } as unknown as WalkVm;
    expect(await walk(vm, steps, "labs/p/lab.md")).toEqual({ failed: 0, warned: 0 });
    expect(out).toEqual([
      'answer labs/p/lab.md:8: step 1 "Measure": How many `discard` requests? 64 requests',
      'answer labs/p/lab.md:24: step 2 "Choose": Which one? kyber',
    ]);
  });
});
