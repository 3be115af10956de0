// fslab <command>: see usage() below.
import { labsCheck } from "./labs";
import { vmCommand } from "./vm";
import { bench } from "./bench";
import { benchVm } from "./bench-vm";
import { inspectCommand } from "./inspect";
import { simulateCommand } from "./simulate";

function usage(): never {
  console.error(`usage:
  fslab vm [--cold] [--timeout S] -- '<cmd>'    start the guest headless (saved state unless --cold), run the command, exit with its status
  fslab inspect <image> [--json]                detect the filesystem in a disk image and print its structure
  fslab simulate exfat [options] [--json]       a delete's discard requests and cost, per cluster vs batched
  fslab simulate exfat-dir [options] [--json]   entries the empty-entry search examines, with and without the 6.2 hint
  fslab simulate ext4 [--size SIZE] [--json]    bitmap-checksum cost of allocations at 4k, bigalloc and 64k blocks
  fslab simulate f2fs [options] [--json]        FxMark unlink on 1..120 cores, upstream vs CLUE
  fslab simulate f2fs-nid [options] [--json]    the free-NID scans of fslab-bench's f2fs-clue workload, per clue mask
  fslab simulate blk [options] [--json]         none, mq-deadline, kyber and bfq on fio-like jobs; --trace: a guest trace replayed; --decisions: mq-deadline, kernel vs model
  fslab simulate vfat NAME... [--json]          the 8.3 and long-name entries VFAT writes, per iocharset and codepage
  fslab simulate                                the options of each
  fslab labs check [dir]                        validate every lab (default: labs/)
  fslab bench [exfat|blk|f2fs|frames|vm]        print the benchmarks (wasm vs native, frame times in Chromium, boot time)
  fslab bench-vm [scenario...]                  run the seeds' experiments in the guest, print tables`);
  process.exit(2);
}

const [cmd, ...args] = process.argv.slice(2);
try {
  let code = 0;
  if (cmd === "vm") code = await vmCommand(args);
  else if (cmd === "inspect") code = await inspectCommand(args);
  else if (cmd === "simulate") code = await simulateCommand(args);
  else if (cmd === "labs" && args[0] === "check") code = labsCheck(args[1]);
  else if (cmd === "bench") code = await bench(args);
  else if (cmd === "bench-vm") code = await benchVm(args);
  else usage();
  process.exit(code);
} catch (e) {
  console.error(`fslab ${cmd}: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
