// What can wait for the learner's first command waits for this: the lab's views (their chunks
// and a first render) and the guest tty's size (a check that runs `stty`, 120-170 ms of the
// guest's time). Typed at a warm start's first prompt, `echo` answered in 9 ms in Node, in
// 23-30 ms with the `stty` beside it; on the page both shared the one thread with the command.
import type { VmHandle } from "./machine";

/** how long the prompt stands, no command entered or running, before that work starts */
export const PROMPT_QUIET_MS = 400;
/** the longest that work waits: a learner typing one short command after another gets it then */
export const PROMPT_QUIET_MAX_MS = 3000;

/**
 * Resolves once the shell's prompt has stood `ms` with no command entered or running (a command
 * entered meanwhile starts the wait again), at the latest PROMPT_QUIET_MAX_MS after the call,
 * or once `gone()` says the machine went.
 */
export async function promptQuiet(vm: Pick<VmHandle, "whenIdle" | "shellBusy" | "shellLines">, gone: () => boolean, ms = PROMPT_QUIET_MS): Promise<void> {
  const until = performance.now() + PROMPT_QUIET_MAX_MS;
  const timeUp = new Promise<void>((r) => setTimeout(r, PROMPT_QUIET_MAX_MS));
  for (;;) {
    await Promise.race([vm.whenIdle(), timeUp]);
    const lines = vm.shellLines();
    await new Promise((r) => setTimeout(r, Math.max(0, Math.min(ms, until - performance.now()))));
    if (gone() || performance.now() >= until || (!vm.shellBusy() && vm.shellLines() === lines)) return;
  }
}
