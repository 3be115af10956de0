// labs test's stronger rules, on a stand-in guest whose checks and commands run in the host's
// bash over a folder standing for the guest's /sys and /tmp: a check that passes as its step
// opens fails the lab, and so does one that passes once the step before was done twice. The
// mq-deadline lab's "No batches" check as it was (labs/mq-deadline/lab.md at b87c637, line 152)
// is the case the issue named: it passed as soon as `load` had run twice, whatever fifo_batch was.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { walk, type WalkVm } from "./labs-test";
import { parseLab } from "../../web/src/labs/lab-format";

const F = "```";
const lab = (steps: string) => `---\nid: mq\ntitle: mq\n---\n\n${steps}`;

// the first three steps, reduced to what the checks read: a queue, a run counter
const BEFORE = `## A disk

${F}vm
echo 16 > /sys/block/nullb1/queue/iosched/fifo_batch
${F}

${F}check
[ -e /sys/block/nullb1/queue/iosched/fifo_batch ] || { echo "FAIL: there is no nullb1 yet"; exit 1; }
${F}

## Two readers and a writer

${F}vm
load
${F}

${F}check
[ "$(cat /tmp/loads 2>/dev/null || echo 0)" -ge 1 ] || { echo "FAIL: no load has run yet: run load"; exit 1; }
${F}

`;

// verbatim from the lab before issue 33
const OLD_NO_BATCHES = `## No batches

${F}vm
echo 1 > /sys/block/nullb1/queue/iosched/fifo_batch; load
${F}

${F}check
grep -qx 1 /sys/block/nullb1/queue/iosched/fifo_batch 2>/dev/null || [ "$(cat /tmp/loads 2>/dev/null || echo 0)" -ge 2 ] || { echo "FAIL: fifo_batch is still $(cat /sys/block/nullb1/queue/iosched/fifo_batch 2>/dev/null): set it to 1"; exit 1; }
[ "$(cat /tmp/loads 2>/dev/null || echo 0)" -ge 2 ] || { echo "FAIL: the second load has not run yet: run load again with fifo_batch 1"; exit 1; }
${F}
`;

// an outcome check: the setting, and a run made under it (load notes the fifo_batch it ran with)
const NEW_NO_BATCHES = `## No batches

<!-- challenge -->

Make every dispatch a fresh decision, and run the load again.

${F}check
v=$(cat /sys/block/nullb1/queue/iosched/fifo_batch)
[ "$v" = 1 ] || { echo "FAIL: fifo_batch is still $v"; exit 1; }
[ "$(cat /tmp/last-batch 2>/dev/null)" = 1 ] || { echo "FAIL: no load has run with fifo_batch 1 yet"; exit 1; }
${F}

${F}solution
echo 1 > /sys/block/nullb1/queue/iosched/fifo_batch; load
${F}
`;

let root: string;
let out: string[];
let err: string[];
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "fslab-walk-"));
  out = [];
  err = [];
  vi.spyOn(console, "log").mockImplementation((...a) => void out.push(a.join(" ")));
  vi.spyOn(console, "error").mockImplementation((...a) => void err.push(a.join(" ")));
  vi.spyOn(console, "warn").mockImplementation((...a) => void err.push(a.join(" ")));
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(root, { recursive: true, force: true });
});

/** A guest made of the host's bash over `root/g`: /sys and /tmp are folders there; load counts its runs. */
function guest(): WalkVm & { saves: number } {
  const g = join(root, "g");
  mkdirSync(join(g, "sys/block/nullb1/queue/iosched"), { recursive: true });
  mkdirSync(join(g, "tmp"), { recursive: true });
  const prelude = `load() { n=$(( $(cat /tmp/loads 2>/dev/null || echo 0) + 1 )); echo $n > /tmp/loads; cat /sys/block/nullb1/queue/iosched/fifo_batch > /tmp/last-batch; }\n`;
  const sh = (script: string) => {
    const text = (prelude + script).replace(/\/(sys|tmp)\//g, `${g}/$1/`);
    const r = spawnSync("bash", ["-c", text], { encoding: "utf8" });
    return { status: r.status ?? 1, output: r.stdout + r.stderr };
  };
  let saved = 0;
  const vm = {
    saves: 0,
    stopped: null,
    trace: { takeLines: () => [] },
    traceSettled: async () => undefined,
    freshShell: async () => undefined,
    run: async (cmd: string) => sh(cmd),
    agent: { run: async (script: string) => sh(script) },
    saveState: async () => {
      const copy = join(root, `state-${++saved}`);
      cpSync(g, copy, { recursive: true });
      vm.saves++;
      return new TextEncoder().encode(copy).buffer as ArrayBuffer;
    },
    restoreState: async (state: ArrayBuffer) => {
      rmSync(g, { recursive: true, force: true });
      cpSync(new TextDecoder().decode(state), g, { recursive: true });
    },
  };
  return vm as unknown as WalkVm & { saves: number };
}

describe("fslab labs test's stronger check rules", () => {
  it("fails the mq-deadline lab's old No batches check: it passes once load has run twice, whatever fifo_batch is", async () => {
    const { steps } = parseLab(lab(BEFORE + OLD_NO_BATCHES), [], "labs/mq/lab.md", "mq");
    const r = await walk(guest(), steps, "labs/mq/lab.md");
    expect(r.failed).toBe(1);
    expect(err).toEqual([
      'FAIL labs/mq/lab.md:26: step 3 "No batches" passes its checks once step 2 "Two readers and a writer"\'s commands ran a second time, without this step\'s own: they count runs, not the outcome',
    ]);
  });

  it("passes the outcome check, and walks on from the step's start (the machine put back after the second run)", async () => {
    const vm = guest();
    const { steps } = parseLab(lab(BEFORE + NEW_NO_BATCHES), [], "labs/mq/lab.md", "mq");
    expect(await walk(vm, steps, "labs/mq/lab.md")).toEqual({ failed: 0, warned: 0 });
    expect(err).toEqual([]);
    expect(vm.saves).toBe(2); // steps 2 and 3, each with a step before it
    // the second load of the rehearsal was undone: the solution's load is the second in all
    expect(spawnSync("cat", [join(root, "g/tmp/loads")], { encoding: "utf8" }).stdout.trim()).toBe("2");
  });

  it("fails a check that passes as its step opens", async () => {
    const { steps } = parseLab(lab(BEFORE.replace('"$(cat /tmp/loads 2>/dev/null || echo 0)" -ge 1', "-d /tmp")), [], "labs/mq/lab.md", "mq");
    expect((await walk(guest(), steps, "labs/mq/lab.md")).failed).toBe(1);
    expect(err).toEqual(['FAIL labs/mq/lab.md:16: step 2 "Two readers and a writer" passes its checks as it opens, before its commands ran: they check nothing']);
  });

  it("prints each question's answer in this run", async () => {
    const q = `\n${F}question\nquestion: How many loads ran in *your* machine?\nanswer: cat /tmp/loads\ntolerance: 1\n${F}\n`;
    const { steps } = parseLab(lab(BEFORE + NEW_NO_BATCHES + q), [], "labs/mq/lab.md", "mq");
    expect(await walk(guest(), steps, "labs/mq/lab.md")).toEqual({ failed: 0, warned: 0 });
    expect(out).toEqual(['question labs/mq/lab.md:42: step 3 "No batches": How many loads ran in *your* machine? 2 in this run (judged give or take 1)']);
  });
});
