// wasm against native, across fresh processes (issue 52). One process's rounds alternate the
// sides (bench/paired.ts), and their IQR says how steady that process was; it did not say how
// much a second run would differ: FxMark's wasm/gcc gave medians from 1.00x to 1.31x in six
// whole runs here, each with an IQR of 0.03x or less. What a process's compile and memory
// layout decide (V8's tiering, where gcc's code and the heap land) is fixed for the whole
// process, so the runs' differences only show across processes. So a native part runs in
// PROCESSES fresh processes, one after the other (each a fresh Node for the wasm side and a fresh
// native binary, their rounds alternating within it), and the verdict is taken from the spread
// of the processes' medians.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { UsageError } from "../web/src/shared/cli-args";
import { describeRatio, pairRatios, spread, type Goal } from "./paired";
import { fmt } from "./report";

/** fresh processes a native part runs in (FSLAB_BENCH_PROCESSES overrides it) */
export const PROCESSES = 5;
/** set in a child: the part it runs once, in this process */
const CHILD = "FSLAB_BENCH_CHILD";
/** the line a child hands its rows back on */
const MARK = "fslab-bench-rows ";

/** one row: a case's samples on each side, round by round */
export interface Row {
  name: string;
  /** the sides and their ratio, as printed: "native against wasm, wasm/native" */
  ratio: string;
  native: number[];
  wasm: number[];
  goal: Goal | null;
}

function processCount(part: string): number {
  const raw = process.env.FSLAB_BENCH_PROCESSES;
  const n = raw === undefined ? PROCESSES : Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 50) throw new UsageError(`FSLAB_BENCH_PROCESSES must be a whole number from 1 to 50, not "${raw}"`, `usage: FSLAB_BENCH_PROCESSES=5 fslab bench ${part}`);
  return n;
}

/** `fslab bench <part>` once, in a fresh process, its rows read back */
function runChild(part: string): Promise<Row[]> {
  const cli = fileURLToPath(new URL("../bin/fslab.mjs", import.meta.url));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, "bench", part], { env: { ...process.env, [CHILD]: part }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.once("error", reject);
    child.once("close", (code) => {
      const line = out.split("\n").find((l) => l.startsWith(MARK));
      if (code !== 0 || !line) return reject(new Error(`fslab bench ${part} (a fresh process) exited ${code}: ${(err || out).trim().split("\n").slice(-3).join(" / ")}`));
      resolve(JSON.parse(line.slice(MARK.length)) as Row[]);
    });
  });
}

/**
 * A native part's rows: measured by `measure` in this process when it is one of the fresh
 * processes, else measured in PROCESSES fresh ones and printed with the verdict across them.
 */
export async function acrossProcesses(part: string, header: string, measure: (add: (row: Row) => void) => Promise<void>): Promise<void> {
  if (process.env[CHILD] === part) {
    const rows: Row[] = [];
    await measure((r) => rows.push(r));
    console.log(MARK + JSON.stringify(rows));
    return;
  }
  const n = processCount(part);
  console.log(`${header}; ${n} fresh processes one after another (a fresh Node and a fresh native binary each), the verdict from the spread of their medians:`);
  const runs: Row[][] = [];
  for (let i = 0; i < n; i++) runs.push(await runChild(part));
  const names = (rows: Row[]) => rows.map((r) => r.name).join("; ");
  const other = runs.find((r) => names(r) !== names(runs[0]));
  if (other) throw new Error(`fslab bench ${part}: its fresh processes measured different cases (${names(runs[0])} against ${names(other)})`);
  for (const [k, first] of runs[0].entries()) {
    const rows = runs.map((r) => r[k]);
    // each process's ratios, round by round: its median is one sample of the verdict's spread
    const each = rows.map((r) => spread(pairRatios(r.wasm, r.native)));
    const native = spread(rows.map((r) => spread(r.native).median)).median;
    const wasm = spread(rows.map((r) => spread(r.wasm).median)).median;
    console.log(`  ${first.name}`);
    console.log(`    ${first.ratio}: ${fmt(native)} against ${fmt(wasm)} (medians); ${describeRatio(each.map((s) => s.median), first.goal, "processes")}`);
    console.log(`    each process: ${each.map((s) => `${s.median.toFixed(2)}x (IQR ${s.q1.toFixed(2)}-${s.q3.toFixed(2)}x, ${s.n} rounds)`).join("; ")}`);
  }
}
