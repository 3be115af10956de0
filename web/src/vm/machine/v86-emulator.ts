// The v86 emulator as the page (vm-host.ts) and Node (node-vm.ts) use it: v86's own public
// types (node_modules/v86/v86.d.ts) and the three things of v86 we use that its .d.ts leaves
// out, typed here once and checked on the built emulator by `typedEmulator()`:
//   - the events of virtio-console ports 1-3 (hvc1 trace, hvc2 check agent, hvc3 SD slot):
//     v86.d.ts declares port 0's alone, and every port has the same two;
//   - `bus.send("virtio-console<n>-input-bytes", bytes)`, how a port's input reaches the guest;
//   - `v86.cpu.mem8`, the guest's memory, there once "emulator-loaded" has fired (the devices'
//     insides are in devices/v86-surface.ts).
import type { Event, V86 } from "v86";

/** a virtio-console port of ours (guest.ts machineOptions: four ports, 0 unused) */
export type ConsolePort = 1 | 2 | 3;

/** v86's events, with every port's output */
export type V86Events = Event & { [P in ConsolePort as `virtio-console${P}-output-bytes`]: Uint8Array };

export type V86Emulator = Omit<V86, "add_listener"> & {
  add_listener<T extends keyof V86Events>(event: T, listener: (argument: V86Events[T]) => void): void;
  bus: { send(event: `virtio-console${ConsolePort}-input-bytes`, data: Uint8Array): void };
  /** built when the machine is (after "emulator-loaded") */
  v86?: { cpu: { mem8: Uint8Array } };
};

/** `new V86(...)`'s object as a V86Emulator, once it has what we use; throws naming what is missing. */
export function typedEmulator(emulator: V86): V86Emulator {
  const e = emulator as Partial<Pick<V86Emulator, "bus">>;
  if (typeof e.bus?.send !== "function") throw new Error("this v86 build has no bus.send(), which fslab's virtio-console ports use (see web/src/vm/machine/v86-emulator.ts)");
  return emulator as unknown as V86Emulator;
}
