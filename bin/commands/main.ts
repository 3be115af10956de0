// fslab <command>: see usage() below.
import { labsCheck } from "./labs";
import { vmCommand } from "./vm";
import { bench } from "./bench";

function usage(): never {
  console.error(`usage:
  fslab vm [--timeout S] -- '<shell command>'   boot the guest headless, run the command, exit with its status
  fslab labs check [dir]                        validate every lab (default: labs/)
  fslab bench                                   print the benchmark ratios`);
  process.exit(2);
}

const [cmd, ...args] = process.argv.slice(2);
try {
  let code = 0;
  if (cmd === "vm") code = await vmCommand(args);
  else if (cmd === "labs" && args[0] === "check") code = labsCheck(args[1]);
  else if (cmd === "bench") code = await bench(args);
  else usage();
  process.exit(code);
} catch (e) {
  console.error(`fslab ${cmd}: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
