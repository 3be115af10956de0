// fslab simulate f2fs / f2fs-nid: the f2fs models on the command line (the same wasm build as the page).
// Listed in this topic's manifest (topic.ts); bin/commands/main.ts finds it there.
import { parseArgs } from "node:util";
import { loadCoreModule } from "../../shared/node-load";
import { NidScanPhase, nidScansOf, type NidScan } from "./events";
import { int, list, UsageError } from "../../shared/cli-args";
import { FXMARK_COSTS, fxmarkUnlink, type Workload } from "./fxmark";
import { GUEST_NAT_BLOCKS, NAT_ENTRY_PER_BLOCK, NidModel, SYNC_BG_CALLS, SYNCER_EVERY, benchWorkloadSteps } from "./nid";

async function simulateF2fsCommand(argv: string[]): Promise<number> {
  const { values: v } = parseArgs({
    args: argv,
    options: {
      workload: { type: "string", default: "both" },
      clue: { type: "string", default: "0,1,2,4,7" },
      cores: { type: "string", default: "1,2,4,8,15,30,60,120" },
      unlinks: { type: "string", default: "10000" },
      seed: { type: "string", default: "1" },
      json: { type: "boolean", default: false },
    },
  });
  const w = v.workload!.toUpperCase();
  const workloads: Workload[] = w === "BOTH" ? ["MWUL", "MWUM"] : w === "MWUL" || w === "MWUM" ? [w] : [];
  if (!workloads.length) throw new UsageError(`--workload: "${v.workload}" is not MWUL, MWUM or both`);
  const clues = list(v.clue!, "--clue", 0, 7);
  const cores = list(v.cores!, "--cores", 1, 4096);
  const unlinks = int(v.unlinks!, "--unlinks", 1, 1_000_000);
  const seed = int(v.seed!, "--seed", 0, 2 ** 32 - 1);
  const m = await loadCoreModule("f2fs");
  const results = workloads.flatMap((wl) => clues.flatMap((c) => cores.map((n) => fxmarkUnlink(m, wl, c, n, unlinks, FXMARK_COSTS, seed))));
  if (v.json) {
    console.log(JSON.stringify({ costs: FXMARK_COSTS, unlinks_per_core: unlinks, seed, results }));
    return 0;
  }
  console.log(`FxMark unlink, ${unlinks} unlinks per core; thousands of unlinks/s (simulated; costs in web/src/topics/f2fs/f2fs-core.ts)`);
  const names: Record<number, string> = { 0: "upstream", 1: "optimistic", 2: "heuristic", 4: "lazy", 7: "CLUE (all)" };
  for (const wl of workloads) {
    console.log(`\n${wl}${wl === "MWUL" ? " (private directories)" : " (one shared directory)"}`);
    console.log(`  ${"clue".padEnd(16)}${cores.map((n) => String(n).padStart(8)).join("")}   vs upstream at ${cores[cores.length - 1]}`);
    const base = results.find((r) => r.workload === wl && r.clue === 0 && r.cores === cores[cores.length - 1]);
    for (const c of clues) {
      const row = results.filter((r) => r.workload === wl && r.clue === c);
      const last = row[row.length - 1];
      const ratio = base ? `${(last.unlinks_per_sec / base.unlinks_per_sec).toFixed(1)}x` : "";
      console.log(`  ${`${c} ${names[c] ?? ""}`.padEnd(16)}${row.map((r) => (r.unlinks_per_sec / 1000).toFixed(0).padStart(8)).join("")}   ${ratio}`);
    }
  }
  console.log(`\nthe CLUE paper (Hwang, Lee, Kim, Sogang University; 120 cores): CLUE ~15x upstream in MWUL, scaling to 15 cores; ~3x in MWUM`);
  return 0;
}

async function simulateF2fsNidCommand(argv: string[]): Promise<number> {
  const { values: v } = parseArgs({
    args: argv,
    options: {
      files: { type: "string", default: "8000" },
      clue: { type: "string", default: "0,1,2,4,7" },
      "nat-blocks": { type: "string", default: String(GUEST_NAT_BLOCKS) },
      "sync-bg": { type: "string", default: String(SYNC_BG_CALLS) },
      "syncer-every": { type: "string", default: String(SYNCER_EVERY) },
      json: { type: "boolean", default: false },
    },
  });
  const natBlocks = int(v["nat-blocks"]!, "--nat-blocks", 1, 4096);
  const syncBg = int(v["sync-bg"]!, "--sync-bg", 0, 100);
  const syncerEvery = int(v["syncer-every"]!, "--syncer-every", 0, 1_000_000);
  const maxNid = natBlocks * NAT_ENTRY_PER_BLOCK;
  const files = int(v.files!, "--files", 0, maxNid - 9); // the bench's files, 5 directories and NIDs 0-3
  const clues = list(v.clue!, "--clue", 0, 7);
  const m = await loadCoreModule("f2fs");
  const steps = benchWorkloadSteps(files, maxNid, syncBg, syncerEvery);
  const results = clues.map((clue) => {
    const model = new NidModel(m, { natBlocks, clue });
    try {
      const bySteps = [{ step: "mount", scans: nidScansOf(model.takeEvents()) }];
      for (const s of steps) {
        model.run(s.ops);
        bySteps.push({ step: s.step, scans: nidScansOf(model.takeEvents()) });
      }
      const st = model.state();
      return { clue, counters: st.counters, steps: bySteps, free_nids: st.free, available_nids: st.availableNids, next_scan_nid: st.nextScanNid, next_bitmap_blk: st.nextBitmapBlk };
    } finally {
      model.dispose();
    }
  });
  if (v.json) {
    console.log(JSON.stringify({ files, nat_blocks: natBlocks, max_nid: maxNid, sync_bg: syncBg, syncer_every: syncerEvery, results }));
    return 0;
  }
  const names: Record<number, string> = { 0: "upstream", 1: "optimistic", 2: "heuristic", 4: "lazy", 7: "CLUE (all)" };
  console.log(`fslab-bench f2fs-clue's workload in the free-NID model: ${files} files, ${natBlocks} NAT blocks (NIDs 0..${maxNid - 1}),`);
  console.log(`one caller at a time, ${syncBg} f2fs_balance_fs_bg call(s) per sync, ${syncerEvery ? `the syncer's sync every ${syncerEvery} refill creates` : "no syncer"}`);
  console.log(`counters as the bench reads them (reset after the mount):`);
  console.log(`  ${"clue".padEnd(16)}${["bitmap_scans", "nat_scans", "scans_skipped", "nat_deferred", "nids_scanned"].map((h) => h.padStart(15)).join("")}`);
  for (const r of results) {
    const c = r.counters;
    console.log(`  ${`${r.clue} ${names[r.clue] ?? ""}`.padEnd(16)}${[c.bitmap_scans, c.nat_scans, c.scans_skipped, c.nat_deferred, c.nids_scanned].map((x) => String(x).padStart(15)).join("")}`);
  }
  const phase = (s: NidScan) => (s.skipped ? "skipped" : { [NidScanPhase.Bitmap]: "bitmap", [NidScanPhase.Nat]: "nat", [NidScanPhase.Deferred]: "deferred" }[s.phase] ?? String(s.phase));
  for (const r of results) {
    console.log(`\nclue ${r.clue} ${names[r.clue] ?? ""}: the f2fs_free_nid_scan records (start and end are NIDs)`);
    for (const st of r.steps) {
      console.log(`  ${st.step}${st.scans.length ? "" : ": none"}`);
      for (const s of st.scans) console.log(`    ${phase(s).padEnd(9)} start ${String(s.start).padStart(6)}  end ${String(s.end).padStart(6)}  scanned ${String(s.scanned).padStart(6)}  found ${String(s.found).padStart(5)}`);
    }
  }
  console.log(`\nOne caller at a time, the optimistic bit (1) changes nothing: no scan is ever found running.`);
  console.log(`Not modelled: the NAT journal, the guest's concurrent syncer, writeback and GC threads (see wasm/src/f2fs/nid.c).`);
  return 0;
}

const USAGE_F2FS = `usage: fslab simulate f2fs [--workload MWUL|MWUM|both] [--clue 0,1,2,4,7] [--cores 1,2,4,8,15,30,60,120]
                           [--unlinks N] [--seed N] [--json]
  FxMark's unlink workloads on many cores, upstream vs each CLUE technique (unlinks/s).`;
const USAGE_F2FS_NID = `usage: fslab simulate f2fs-nid [--files N] [--clue 0,1,2,4,7] [--nat-blocks N] [--sync-bg N]
                               [--syncer-every N] [--json]
  fslab-bench f2fs-clue's workload (fill N files, free them all, the shrinker trims the free-NID
  list to MAX_FREE_NIDS, refill) in the free-NID model, one caller at a time, under each clue
  mask: every scan with the fields of the guest's f2fs_free_nid_scan tracepoint, and the
  clue_* counters. Defaults: the bench's 8000 files, the guest volume's 512 NAT blocks, 3
  f2fs_balance_fs_bg calls per sync (what the guest's writeback makes, sometimes 4), and the
  bench's syncer loop as a sync every 50 refill creates (0: none).`;

export const cli = {
  "f2fs": { run: simulateF2fsCommand, usage: USAGE_F2FS },
  "f2fs-nid": { run: simulateF2fsNidCommand, usage: USAGE_F2FS_NID },
};
