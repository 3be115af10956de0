// What the page's host (vm-host.ts) watches for once the shell is up: a panic or an oops with
// the kernel's text, a full disk in RAM, the out-of-memory killer (asked of the kernel's log
// after bash says "Killed"), and a shell quiet for a minute away from its prompt. Node's host
// reads the same console with the same TroubleWatcher (guest.ts) and stops at a stop.
import { GUEST, machineStopped, oomLines, TroubleWatcher, type GuestTrouble, type StoppedTrouble } from "../machine/guest";
import type { AgentClient } from "../machine/agent";

/** Why a stopped machine refuses the learner's commands or the lab's checks, with the kernel's line. */
export function refusal(t: StoppedTrouble, what: "commands" | "checks"): string {
  return `the machine stopped (${t.headline}); restore it to run ${what}`;
}

export interface TroubleHooks {
  agent: AgentClient;
  /** the console's last characters: is the shell at its prompt? */
  tail(): string;
  running(): boolean;
  /** the machine stopped itself (a panic, a halt, a restart): stop it, give up what waits on it */
  stop(t: StoppedTrouble): void;
  report(t: GuestTrouble): void;
}

export class PageTrouble {
  readonly watcher = new TroubleWatcher();
  private settleTimer: ReturnType<typeof setTimeout> | null = null;
  private quietTimer: ReturnType<typeof setTimeout> | null = null;
  /** the kernel log's newest out-of-memory line already reported, so each kill is told once */
  private lastOom = "";

  constructor(private hooks: TroubleHooks) {}

  /** The console's new text, once the shell is up. */
  feed(text: string): void {
    const t = this.watcher.feed(text);
    if (t) this.report(t);
    // a shell quiet for a minute and not at its prompt: say so (a command may wait for input, or be stuck)
    if (this.quietTimer) clearTimeout(this.quietTimer);
    this.quietTimer = setTimeout(() => {
      if (this.watcher.reported || GUEST.prompt.test(this.hooks.tail()) || !this.hooks.running()) return;
      this.hooks.report({ kind: "hung", headline: `nothing printed for ${GUEST.quietMs / 1000} s, and no prompt`, text: "" });
    }, GUEST.quietMs);
    if (this.watcher.killed) {
      this.watcher.killed = false;
      void this.askOom().then((oom) => oom && this.report(oom));
    }
    if (this.settleTimer) clearTimeout(this.settleTimer);
    // a report whose closing line does not come (the machine hung mid-way) is given after 1 s of quiet
    this.settleTimer = setTimeout(() => {
      const late = this.watcher.settle();
      if (late) this.report(late);
    }, 1000);
  }

  /** The machine is gone or put back: nothing more is reported of the one before. */
  stopTimers(): void {
    if (this.quietTimer) clearTimeout(this.quietTimer);
    if (this.settleTimer) clearTimeout(this.settleTimer);
  }

  private report(t: GuestTrouble): void {
    // a panicked kernel only spins in panic(), a halted one in its halt loop, a restarted one
    // in the BIOS left in RAM: stop it, so it does not take a CPU core until restored
    if (machineStopped(t)) this.hooks.stop(t);
    this.hooks.report(t);
  }

  /** After bash said "Killed": was it the kernel's out-of-memory killer? Its own lines, if so. */
  private async askOom(): Promise<GuestTrouble | null> {
    // the agent returns at most 8 KiB: only the lines that matter (oomLines picks them again)
    const r = await this.hooks.agent.run("dmesg | grep -E 'Out of memory|oom-kill:|oom_reaper' | tail -n 6; true", 10).catch(() => null);
    if (!r || r.status !== 0) return null;
    const lines = oomLines(r.output);
    const newest = lines.at(-1);
    if (!newest || newest === this.lastOom) return null;
    this.lastOom = newest;
    const killed = lines.filter((l) => /Out of memory: Killed process/.test(l)).at(-1) ?? newest;
    return { kind: "oom", headline: killed.replace(/^\[\s*\d+\.\d+\] /, ""), text: lines.slice(-6).join("\n") };
  }
}
