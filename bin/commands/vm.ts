// fslab vm [--cold] [--timeout S] [--sd SIZE[,TYPE]] -- '<cmd>': start the guest headless
// (restoring the saved state unless --cold), run one shell command, print its output, exit
// with its status. --sd puts a card in the SD slot and waits for /dev/mmcblk0 before the command.
import { NodeVm, nodeStateMismatch } from "../../web/src/vm/node/node-vm";
import { UsageError } from "../../web/src/shared/cli-args";
import { parseCardSpec } from "../../web/src/vm/machine/devices/slot-channel";
import type { CardOptions } from "../../web/src/vm/machine/devices/sd-card";

const USAGE = "usage: fslab vm [--cold] [--timeout S] [--sd SIZE[,TYPE]] -- '<cmd>'   (TYPE: sdhc, sdsc or v1)";

export async function vmCommand(args: string[]): Promise<number> {
  const dash = args.indexOf("--");
  const opts = dash < 0 ? [] : args.slice(0, dash);
  const command = (dash < 0 ? args : args.slice(dash + 1)).join(" ");
  if (!command) throw new UsageError("no command: fslab vm -- '<shell command>'", USAGE);
  let timeout = 600;
  let cold = false;
  let sd: CardOptions | undefined;
  for (let i = 0; i < opts.length; i++) {
    if (opts[i] === "--timeout") timeout = Number(opts[++i]);
    else if (opts[i] === "--cold") cold = true;
    else if (opts[i] === "--sd") {
      const spec = parseCardSpec(opts[++i] ?? "");
      if (!opts[i] || "error" in spec) throw new UsageError(`--sd: ${opts[i] ? (spec as { error: string }).error : "needs a size, e.g. --sd 64M or --sd 1G,sdsc"}`, USAGE);
      sd = spec;
    }
    else throw new UsageError(`unknown option ${opts[i]}`, USAGE);
  }
  const mismatch = cold ? null : nodeStateMismatch();
  if (mismatch) console.error(`fslab vm: booting cold: ${mismatch}`);
  if (!(timeout > 0)) throw new UsageError("--timeout needs a number of seconds", USAGE);
  const vm = new NodeVm();
  try {
    await vm.boot({ cold, sd });
    if (sd) await vm.sdReady();
    const r = await vm.run(command, timeout * 1000).catch((e) => {
      process.stdout.write(e.output ?? ""); // what it printed before it stopped or timed out
      throw e;
    });
    process.stdout.write(r.output);
    return r.status;
  } finally {
    await vm.destroy();
  }
}
