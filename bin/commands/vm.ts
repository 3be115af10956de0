// fslab vm [--cold] [--timeout S] -- '<cmd>': start the guest headless (restoring the saved
// state unless --cold), run one shell command, print its output, exit with its status.
import { NodeVm, nodeStateMismatch } from "../../web/src/vm/node-vm";
import { UsageError } from "../../web/src/shared/cli-args";

const USAGE = "usage: fslab vm [--cold] [--timeout S] -- '<cmd>'";

export async function vmCommand(args: string[]): Promise<number> {
  const dash = args.indexOf("--");
  const opts = dash < 0 ? [] : args.slice(0, dash);
  const command = (dash < 0 ? args : args.slice(dash + 1)).join(" ");
  if (!command) throw new UsageError("no command: fslab vm -- '<shell command>'", USAGE);
  let timeout = 600;
  let cold = false;
  for (let i = 0; i < opts.length; i++) {
    if (opts[i] === "--timeout") timeout = Number(opts[++i]);
    else if (opts[i] === "--cold") cold = true;
    else throw new UsageError(`unknown option ${opts[i]}`, USAGE);
  }
  const mismatch = cold ? null : nodeStateMismatch();
  if (mismatch) console.error(`fslab vm: booting cold: ${mismatch}`);
  if (!(timeout > 0)) throw new UsageError("--timeout needs a number of seconds", USAGE);
  const vm = new NodeVm();
  try {
    await vm.boot({ cold });
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
