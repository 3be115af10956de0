// fslab bench scorm: a SCORM package's size, as `fslab export scorm` makes it (one lab, the built
// site inside), beside the goal: small enough for an LMS's usual upload limit. Moodle's default
// maximum upload is set per site (often 20-100 MB); the goal is the strictest common one.
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { BenchPart } from "../report";

const FSLAB = fileURLToPath(new URL("../../bin/fslab.mjs", import.meta.url));
/** MiB: a package an LMS with a 20 MB upload limit still takes */
const GOAL_MIB = 19;

export const part: BenchPart = {
  order: 1.5,
  summary: "a SCORM package's size (`fslab export scorm`, one lab, SCORM 1.2 and 2004) beside the upload limit it must fit",
  async run() {
    const dir = mkdtempSync(join(tmpdir(), "fslab-bench-scorm-"));
    try {
      console.log("A SCORM package of one lab (the built site inside), as `fslab export scorm` writes it:");
      for (const version of ["1.2", "2004"]) {
        const out = join(dir, `exfat-discard-${version}.zip`);
        const r = spawnSync(process.execPath, [FSLAB, "export", "scorm", "exfat-discard", "--out", out, "--version", version], { encoding: "utf8" });
        if (r.status !== 0) throw new Error(`fslab export scorm exited ${r.status}: ${r.stderr.trim()}`);
        const mib = statSync(out).size / 2 ** 20;
        console.log(`  SCORM ${version}: ${mib.toFixed(1)} MiB (goal: at most ${GOAL_MIB} MiB, under a 20 MB upload limit): ${mib <= GOAL_MIB ? "met" : "NOT met"}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
