// fslab vm [--timeout S] -- '<cmd>': boot the guest headless, run one shell command,
// print its output, exit with its status. (A cold boot: the saved state is not built yet.)
import { NodeVm } from "../../web/src/vm/node-vm";

export async function vmCommand(args: string[]): Promise<number> {
  const dash = args.indexOf("--");
  const opts = dash < 0 ? [] : args.slice(0, dash);
  const command = (dash < 0 ? args : args.slice(dash + 1)).join(" ");
  if (!command) throw new Error("no command: fslab vm -- '<shell command>'");
  let timeout = 600;
  for (let i = 0; i < opts.length; i++) {
    if (opts[i] === "--timeout") timeout = Number(opts[++i]);
    else if (opts[i] === "--cold") continue; // cold is the only way until the saved state exists
    else throw new Error(`unknown option ${opts[i]}`);
  }
  if (!(timeout > 0)) throw new Error("--timeout needs a number of seconds");
  const vm = new NodeVm();
  try {
    await vm.boot();
    const r = await vm.run(command, timeout * 1000);
    process.stdout.write(r.output);
    return r.status;
  } finally {
    await vm.destroy();
  }
}
