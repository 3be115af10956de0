// The guest booted in Node for a file of end-to-end tests (e2e/guest.e2e.ts and each topic's
// guest.e2e.ts): one boot per file, restored from the saved state, and the helpers they share.
import { afterAll, beforeAll, expect } from "vitest";
import { NodeVm } from "../web/src/vm/node/node-vm";

export interface Guest {
  /** the machine, once booted (in a test or a hook) */
  readonly vm: NodeVm;
  /** a command's output; throws with it if the command failed */
  sh(command: string): Promise<string>;
  /** a command with fslab-trace streaming `events`: the records it produced, and its output */
  tracedRun(command: string, events: string): Promise<{ ev: Uint32Array; output: string }>;
  /** tracedRun's records */
  traced(command: string, events: string): Promise<Uint32Array>;
}

/** Boots the guest before the file's tests and ends it after them. */
export function bootGuest(): Guest {
  let vm: NodeVm | undefined;
  beforeAll(async () => {
    vm = new NodeVm();
    await vm.boot();
  });
  afterAll(() => vm?.destroy());
  const machine = () => {
    if (!vm) throw new Error("the guest is not booted yet (bootGuest's beforeAll)");
    return vm;
  };
  const sh = async (command: string) => {
    const r = await machine().run(command);
    if (r.status !== 0) throw new Error(`guest command failed (${r.status}): ${command}\n${r.output}`);
    return r.output;
  };
  const tracedRun = async (command: string, events: string) => {
    const v = machine();
    v.trace.take();
    v.trace.stats.overrun = null;
    await sh(`fslab-trace start ${events} >/dev/null`);
    const output = await sh(command);
    await sh("fslab-trace stop");
    await v.traceStopped();
    expect(v.trace.stats.lost).toBe(0);
    expect(v.trace.stats.overrun).toBe(0);
    return { ev: v.trace.take(), output };
  };
  return {
    get vm() {
      return machine();
    },
    sh,
    tracedRun,
    traced: async (command, events) => (await tracedRun(command, events)).ev,
  };
}
