// fslab labs check on a labs folder as a course (order and prerequisites agree, file:line) and
// on a lab's shipped files (there, and within the size limit, file:line).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { labsCheck, readLabFiles } from "./labs";
import { walk, type WalkVm } from "./labs-test";
import { parseLab } from "../../web/src/labs/lab-format";
import { LAB_FILES_BYTES } from "../../web/src/labs/lab-files";

const STEP = "## One\n\n<!-- reading -->\n\nText.\n";
const lab = (id: string, fm: string) => `---\nid: ${id}\ntitle: "Lab ${id}"\n${fm}\n---\n\n${STEP}`;

let out: string[];
let err: string[];
let dir: string;
beforeEach(() => {
  out = [];
  err = [];
  vi.spyOn(console, "log").mockImplementation((...a) => void out.push(a.join(" ")));
  vi.spyOn(console, "error").mockImplementation((...a) => void err.push(a.join(" ")));
  dir = mkdtempSync(join(tmpdir(), "fslab-course-"));
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});
const put = (path: string, data: string | Uint8Array) => {
  mkdirSync(join(dir, path, ".."), { recursive: true });
  writeFileSync(join(dir, path), data);
};
const rel = (p: string) => relative(process.cwd(), join(dir, p));

describe("fslab labs check: the course and the files", { timeout: 30_000 }, () => {
  it("a prerequisite that comes later and a shared order are errors at file:line", async () => {
    put("a/lab.md", lab("a", "order: 1\ndifficulty: introductory\nlayers: [vfs]\nrequires: [b]"));
    put("b/lab.md", lab("b", "order: 1\ndifficulty: advanced\nlayers: [device]"));
    expect(await labsCheck(dir)).toBe(1);
    expect(err).toEqual([
      `${rel("a/lab.md")}:7: requires b, which the course puts after it (order 1, this lab's is 1): a prerequisite comes earlier`,
      `${rel("b/lab.md")}:4: order 1 is also a's (${rel("a/lab.md")}:4): each lab needs its own place in the course`,
    ]);
    expect(out.at(-1)).toBe("0 of 2 labs valid: 2 errors");
  });

  it("a lab without a place in a course is a warning, and one lab alone is no course", async () => {
    put("a/lab.md", lab("a", "requires: [elsewhere]"));
    expect(await labsCheck(join(dir, "a"))).toBe(0);
    // no lab of the folder has a place yet: no course to warn about
    expect(await labsCheck(dir)).toBe(1);
    expect(err.filter((e) => e.startsWith("warning"))).toEqual([]);
    put("b/lab.md", lab("b", "order: 1\ndifficulty: introductory\nlayers: [vfs]"));
    err = [];
    expect(await labsCheck(dir)).toBe(1);
    expect(err.filter((e) => e.startsWith("warning"))).toEqual([
      `warning ${rel("a/lab.md")}:1: no order (its place in the course: it comes after the labs that have one)`,
      `warning ${rel("a/lab.md")}:1: no difficulty`,
      `warning ${rel("a/lab.md")}:1: no layers (where the home page's storage stack draws it)`,
    ]);
    expect(err).toContain(`${rel("a/lab.md")}:4: requires "elsewhere", and there is no lab elsewhere beside it (labs: a, b)`);
  });

  it("files named in files: must be in files/, within the limit", async () => {
    put("a/lab.md", lab("a", "files: [setup.sh, data/words.txt]"));
    put("a/files/setup.sh", "#!/bin/sh\necho hi\n");
    expect(await labsCheck(join(dir, "a"))).toBe(1);
    expect(err).toEqual([`${rel("a/lab.md")}:4: files: files/data/words.txt is not there`]);
    put("a/files/data/words.txt", "one\ntwo\n");
    err = [];
    expect(await labsCheck(join(dir, "a"))).toBe(0);
    const l = parseLab(lab("a", "files: [setup.sh, data/words.txt]"), [], rel("a/lab.md"), "a");
    const r = readLabFiles(rel("a/lab.md"), l);
    expect(r.errors).toEqual([]);
    expect(r.files.map((f) => [f.name, f.data.length])).toEqual([["setup.sh", 18], ["data/words.txt", 8]]);
    put("a/files/data/words.txt", new Uint8Array(LAB_FILES_BYTES));
    expect(readLabFiles(rel("a/lab.md"), l).errors).toEqual([`${rel("a/lab.md")}:4: files: the files come to 1.0 MiB: a lab ships at most 1 MiB (the page downloads them on every visit)`]);
  });
});

describe("fslab labs test: a step's set-up script", { timeout: 30_000 }, () => {
  // a stand-in guest: the set-up writes a file, the step's check needs it
  const guest = (setupStatus: number) => {
    const made = new Set<string>();
    const ran: string[] = [];
    const vm = {
      stopped: null,
      trace: { takeLines: () => [] },
      traceSettled: async () => undefined,
      freshShell: async () => undefined,
      saveState: async () => new Set(made),
      restoreState: async () => undefined,
      // the step's command works only on a prepared machine
      run: async (cmd: string) => {
        if (cmd.trim() === "touch /tmp/done" && made.has("/tmp/prepared")) made.add("/tmp/done");
        return { status: 0, output: "" };
      },
      agent: {
        run: async (script: string) => {
          ran.push(script);
          if (script === "bash /lab/setup-2.sh") {
            if (!setupStatus) made.add("/tmp/prepared");
            return { status: setupStatus, output: setupStatus ? "mkfs: no space\n" : "" };
          }
          const test = script.match(/^test -e (\S+)$/);
          return { status: test && made.has(test[1]) ? 0 : 1, output: "" };
        },
      },
    } as unknown as WalkVm;
    return { vm, ran };
  };
  const src = `---\ntitle: S\nfiles: [setup-2.sh]\n---\n\n## One\n\n<!-- reading -->\n\nText.\n\n## Two\n\n\`\`\`vm\ntouch /tmp/done\n\`\`\`\n\n\`\`\`check\ntest -e /tmp/done\n\`\`\`\n`;

  it("runs setup-2.sh as step 2 opens, before its commands and checks", async () => {
    const l = parseLab(src, [], "labs/s/lab.md", "s");
    const { vm, ran } = guest(0);
    expect(await walk(vm, l.steps, "labs/s/lab.md", l.meta.files)).toEqual({ failed: 0, warned: 0 });
    expect(ran[0]).toBe("bash /lab/setup-2.sh");
    expect(out).toContain("setup labs/s/lab.md:12: /lab/setup-2.sh ran");
  });

  it("fails the lab at the step when its set-up fails, with what it printed", async () => {
    const l = parseLab(src, [], "labs/s/lab.md", "s");
    const { vm } = guest(1);
    expect((await walk(vm, l.steps, "labs/s/lab.md", l.meta.files)).failed).toBe(1);
    expect(err).toContain("FAIL labs/s/lab.md:12: step 2's set-up /lab/setup-2.sh exited 1: mkfs: no space");
  });
});
