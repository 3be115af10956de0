// `fslab bench-vm`'s pieces a topic's scenarios are written with (topics/<t>/bench-vm-cli.ts,
// named in its manifest's vmBench): the guest's `fslab-bench <scenario>` run and its JSON lines
// read, and a table printed beside the published numbers. Node only.

/** What of the guest a scenario uses: a command run to its end (vm/node's NodeVm is one). */
export interface GuestRunner {
  run(command: string, timeoutMs?: number): Promise<{ status: number; output: string }>;
}

/** One scenario: runs its measurements in the guest and prints their table. */
export type VmBenchScenario = (vm: GuestRunner) => Promise<void>;

export type Row = Record<string, any>;

/** `fslab-bench <cmd>` in the guest: its JSON lines, one per measurement; throws if it failed or printed none. */
export async function fslabBench(vm: GuestRunner, cmd: string, timeoutS: number): Promise<Row[]> {
  const t0 = performance.now();
  const r = await vm.run(`fslab-bench ${cmd}`, timeoutS * 1000);
  const rows: Row[] = [];
  for (const line of r.output.split("\n")) {
    try {
      if (line.startsWith("{")) rows.push(JSON.parse(line));
    } catch {
      /* a stray line from a tool */
    }
  }
  if (r.status !== 0 || rows.length === 0) throw new Error(`fslab-bench ${cmd} failed (${r.status}):\n${r.output}`);
  console.error(`  (fslab-bench ${cmd}: ${((performance.now() - t0) / 1000).toFixed(0)} s)`);
  return rows;
}

export function table(title: string, head: string[], rows: (string | number)[][]): void {
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  console.log(`\n${title}`);
  console.log("  " + head.map((h, i) => h.padStart(w[i])).join("  "));
  for (const r of rows) console.log("  " + r.map((c, i) => String(c).padStart(w[i])).join("  "));
}

export const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}x` : "-");
