// fslab bench-vm (npm run bench:vm): the published experiments behind each lab, run by `fslab-bench` in the
// guest (restored from the saved state), printed as tables beside the published numbers.
// v86 is an emulator on one CPU: compare shapes and ratios, not absolute times.
import { NodeVm } from "../../web/src/vm/node/node-vm";
import { UsageError } from "../../web/src/shared/cli-args";

type Row = Record<string, any>;

async function scenario(vm: NodeVm, cmd: string, timeoutS: number): Promise<Row[]> {
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

function table(title: string, head: string[], rows: (string | number)[][]): void {
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  console.log(`\n${title}`);
  console.log("  " + head.map((h, i) => h.padStart(w[i])).join("  "));
  for (const r of rows) console.log("  " + r.map((c, i) => String(c).padStart(w[i])).join("  "));
}

const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}x` : "-");

// what `fslab bench-vm [scenario...]` can run, in order: each scenario of the guest's
// fslab-bench with the table it prints; the names are this record's keys, not a list beside it
const SCENARIOS: Record<string, (vm: NodeVm) => Promise<void>> = {
  "exfat-discard": async (vm) => {
    const rows = await scenario(vm, "exfat-discard 64", 600);
    const on = rows.find((r) => r.batch_discard === 1)!;
    const off = rows.find((r) => r.batch_discard === 0)!;
    table(
      "exFAT rm with -o discard (loop device on RAM, 4 KiB clusters)      6.15 commit: 80 GiB file, 4m46s -> 1.66 s (172x)",
      ["batch_discard", "file", "clusters", "discard requests", "rm ms"],
      rows.map((r) => [r.batch_discard, `${r.file_mb} MiB`, r.clusters, r.discard_calls, r.rm_ms]),
    );
    console.log(`  per-cluster / batched rm time: ${ratio(off.rm_ms, on.rm_ms)}`);
  },
  "exfat-empty-hint": async (vm) => {
    // v86 compiles guest code the first time it runs: without a warm-up, whichever setting
    // goes first pays for it in its first bucket
    await scenario(vm, "exfat-empty-hint 1000 1000", 600);
    const rows = await scenario(vm, "exfat-empty-hint 5000 1000", 3600);
    const seed = ["14.40%", "33.15%", "40.23%", "49.05%", "57.42%"];
    const with1 = rows.filter((r) => r.empty_hint === 1);
    table(
      "exFAT create 5000 files in one directory, buckets of 1000          6.2 patch: +14% growing to +57% (i.MX6, SD card)",
      ["files", "hint=0 ms", "hint=1 ms", "improvement", "6.2 patch (i.MX6, SD)", "entries examined 0 / 1"],
      with1.map((r, i) => {
        const o = rows.find((x) => x.empty_hint === 0 && x.first === r.first)!;
        return [`${r.first}~${r.last}`, o.ms, r.ms, `${(((o.ms - r.ms) / o.ms) * 100).toFixed(1)}%`, seed[i] ?? "", `${o.entries_examined} / ${r.entries_examined}`];
      }),
    );
  },
  "ext4-dd": async (vm) => {
    const rows = await scenario(vm, "ext4-dd 32", 3600);
    const layouts = ["4k", "bigalloc-64k", "64k"];
    for (const mode of ["buffered", "direct"]) {
      table(
        `ext4 dd ${mode} writes, MB/s (32 MiB, conv=fsync)                 LBS series: 64k buffered 3.8 -> 6.0 GB/s (LBS vs bigalloc), direct up to 30% slower`,
        ["bs", ...layouts],
        [4, 8, 16, 32, 64].map((bs) => [
          `${bs}k`,
          ...layouts.map((l) => rows.find((r) => r.layout === l && r.mode === mode && r.bs_k === bs)?.mb_s ?? rows.find((r) => r.layout === l)?.error ?? "-"),
        ]),
      );
    }
  },
  "f2fs-clue": async (vm) => {
    const rows = await scenario(vm, "f2fs-clue 8000", 3600);
    table(
      "F2FS 8000 files: fill, free all, trim, refill x4 writers (one CPU) CLUE paper: 15x MWUL, 3x MWUM on 120 cores (from the wasm model)",
      ["clue", "ms", "bitmap scans", "NAT scans", "skipped", "NAT deferred", "entries scanned", "fsck"],
      rows.map((r) => [r.clue, r.ms, r.bitmap_scans, r.nat_scans, r.scans_skipped, r.nat_deferred, r.nids_scanned, r.fsck_exit === 0 ? "clean" : `exit ${r.fsck_exit}`]),
    );
  },
  "blk-fio": async (vm) => {
    const rows = await scenario(vm, "blk-fio 2", 3600);
    const scheds = ["mq-deadline", "kyber", "bfq", "none"];
    const combos = rows.filter((r) => r.scheduler === "mq-deadline" && !r.error);
    table(
      "fio bs=1M reads on null_blk, MiB/s per scheduler                   blog series: fio patterns numjobs 1/4, iodepth 1/4, seq/rand",
      ["rw", "jobs", "depth", ...scheds],
      combos.map((c) => [
        c.rw,
        c.numjobs,
        c.iodepth,
        ...scheds.map((s) => {
          const r = rows.find((x) => x.scheduler === s && x.rw === c.rw && x.numjobs === c.numjobs && x.iodepth === c.iodepth);
          return r ? (r.error ?? Math.round(r.bw_kib_s / 1024)) : "-";
        }),
      ]),
    );
  },
};
export const BENCH_VM_SCENARIOS = Object.keys(SCENARIOS);

export async function benchVm(args: string[]): Promise<number> {
  // refused before the guest boots: a misspelt scenario would otherwise boot it, run nothing
  // and exit 0
  const bad = args.find((a) => !BENCH_VM_SCENARIOS.includes(a));
  if (bad !== undefined)
    throw new UsageError(`${bad.startsWith("-") ? "unknown option" : "no scenario"} ${JSON.stringify(bad)} (${BENCH_VM_SCENARIOS.join(", ")})`);
  const only = new Set(args);
  const want = (s: string) => only.size === 0 || only.has(s);
  const vm = new NodeVm();
  await vm.boot();
  try {
    for (const [name, run] of Object.entries(SCENARIOS)) if (want(name)) await run(vm);
  } finally {
    await vm.destroy();
  }
  return 0;
}
