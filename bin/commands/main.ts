// fslab <command>: see usage() below. `fslab simulate <name>` finds its command in the topic
// manifests (web/src/topics/<id>/topic.ts): this file names no topic.
import { labsCheck, labsIndex, labsReport } from "./labs";
import { labsTest } from "./labs-test";
import { vmCommand } from "./vm";
import { bench } from "./bench";
import { benchVm } from "./bench-vm";
import { inspectCommand } from "./inspect";
import { simulateCommand, simulateUsageLines } from "./simulate";
import { readmeCommand } from "./readme";
import { UsageError, isUsageError } from "../../web/src/shared/cli-args";

async function usageText(): Promise<string> {
  return `usage:
  fslab vm [--cold] [--timeout S] -- '<cmd>'    start the guest headless (saved state unless --cold), run the command, exit with its status
  fslab inspect <image> [--json]                detect the filesystem in a disk image and print its structure
${(await simulateUsageLines()).join("\n")}
  fslab simulate                                the options of each
  fslab labs check [dir]                        validate every lab (default: labs/)
  fslab labs test [DIR] [ID...]                 boot the guest and walk each lab: checks, solution, checks again
  fslab labs index DIR                          write DIR/index.json: the labs a built site reads at run time
  fslab labs report FILE|DIR... [--csv] [--labs DIR]
                                                one row per learner's progress file ("Download my progress")
  fslab readme [--check]                        rewrite the README's lists of views and playgrounds from the topic manifests
  fslab bench [exfat|blk|f2fs|frames|vm|heap|page|snapshots]
                                                print the benchmarks beside their goals (wasm vs native, frames, boot,
                                                heap, page bytes and time to a prompt, lab snapshots)
  fslab bench-vm [scenario...]                  run the published experiments in the guest, print tables
Exit status: 0 done, 1 failed (one line says why), 2 a usage error, 4 (inspect) the image is damaged:
what could be read is printed, one line on stderr names the damage (fsck's 4).`;
}

const [cmd, ...args] = process.argv.slice(2);
try {
  let code = 0;
  if (cmd === "vm") code = await vmCommand(args);
  else if (cmd === "inspect") code = await inspectCommand(args);
  else if (cmd === "simulate") code = await simulateCommand(args);
  else if (cmd === "labs" && args[0] === "check") {
    if (args.length > 2) throw new UsageError(`labs check takes one folder, not ${args.length - 1}`);
    if (args[1]?.startsWith("-")) throw new UsageError(`labs check: unknown option ${args[1]}`);
    code = await labsCheck(args[1]);
  }
  else if (cmd === "labs" && args[0] === "report") code = await labsReport(args.slice(1));
  else if (cmd === "labs" && args[0] === "index") code = await labsIndex(args.slice(1));
  else if (cmd === "labs" && args[0] === "test") code = await labsTest(args.slice(1));
  else if (cmd === "readme") code = await readmeCommand(args);
  else if (cmd === "bench") code = await bench(args);
  else if (cmd === "bench-vm") code = await benchVm(args);
  else if (cmd === "labs") throw new UsageError(args[0] ? `no labs command "${args[0]}" (check, index, report, test)` : "which command? (check, index, report, test)");
  else throw new UsageError(cmd ? `no command "${cmd}"` : "no command given");
  process.exit(code);
} catch (e) {
  if (isUsageError(e)) {
    // a bad argument: what was wrong, then how the command is used
    console.error(`fslab${cmd ? ` ${cmd}` : ""}: ${e.message}`);
    console.error(e instanceof UsageError && e.usage ? e.usage : await usageText());
    process.exit(2);
  }
  console.error(`fslab ${cmd}: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
