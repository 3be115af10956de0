// The host side of the guest's check agent (kernel-image/rootfs/overlay/usr/local/sbin/fslab-agent),
// on virtio-console port 2 (/dev/hvc2): a lab's `check` blocks run there, out of the learner's
// sight. One request at a time, one line each way:
//
//   host -> guest  "<id> ping"                 guest -> host  "<id> pong <version>"
//   host -> guest  "<id> <seconds> <script>"   guest -> host  "<id> <status|timeout> <ms> <output>"
//
// The script travels as printf %b reads it, the output with \\, \n and \r escaped: the agent
// decodes and encodes with its shell's builtins, and starts no program but the check
// (toPrintfB, fromAgentOutput).
//
// The same client serves the page (VmHost) and Node (NodeVm, `fslab labs test`).

import type { CheckRun } from "../../shared/machine";

export type { CheckRun };

export class AgentError extends Error {}

/**
 * The protocol this client speaks: the guest's agent's VERSION (2: the script as printf %b
 * reads it, the output escaped by the shell; 1 sent base64). An agent of another version would
 * misread every check, so it is refused with the reason (agent.test.ts holds this equal to the
 * guest's script).
 */
export const AGENT_VERSION = 2;

/** Lines a check printed that start with "FAIL:", without the prefix: what it says is wrong. */
export function failLines(output: string): string[] {
  return output
    .split("\n")
    .filter((l) => l.startsWith("FAIL:"))
    .map((l) => l.slice(5).trim())
    .filter(Boolean);
}

/** The guest's virtio-console receive buffers are a page each; stay well inside one per write. */
const CHUNK = 1024;

/**
 * The script's UTF-8 bytes as the agent's `printf %b` reads them back: a byte from ! to ~ as
 * itself but the backslash, every other byte (space, newline, non-ASCII) as \xHH, so the
 * line has no space or newline of its own and no escape %b would read otherwise.
 */
export function toPrintfB(text: string): string {
  let out = "";
  for (const b of new TextEncoder().encode(text)) out += b > 0x20 && b < 0x7f && b !== 0x5c ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, "0")}`;
  return out;
}

/** The agent's output field back to the text the script printed: \\, \n and \r unescaped. */
export function fromAgentOutput(field: string): string {
  return field.replace(/\\([\\nr])/g, (_, c: string) => (c === "n" ? "\n" : c === "r" ? "\r" : "\\"));
}

interface Pending {
  resolve(line: string[]): void;
  reject(e: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

export class AgentClient {
  private partial = "";
  private decoder = new TextDecoder();
  private next = 1;
  private pending = new Map<string, Pending>();
  /** requests wait for the one before them: the agent runs one script at a time */
  private queue: Promise<unknown> = Promise.resolve();
  private alive: Promise<number> | null = null;
  /** why every request is refused at once (the machine stopped), until the next reset() */
  private stopped: string | null = null;
  /** the agent's protocol version once it answered a ping */
  version: number | null = null;

  constructor(private write: (bytes: Uint8Array) => void) {}

  /** Bytes from the guest's port 2. */
  feed(bytes: Uint8Array): void {
    const lines = (this.partial + this.decoder.decode(bytes, { stream: true })).split("\n");
    this.partial = lines.pop()!;
    for (const raw of lines) {
      const parts = raw.replace(/\r$/, "").split(" ");
      const p = this.pending.get(parts[0]);
      if (!p) continue; // a reply to a request given up on (timed out, or the machine was reset)
      this.pending.delete(parts[0]);
      clearTimeout(p.timer);
      p.resolve(parts);
    }
  }

  /**
   * Is there an agent? Resolves with its version, or rejects with why not: a machine saved
   * before the agent existed has nobody reading port 2. Asked once; `reset()` asks again.
   */
  ready(timeoutMs = 5000): Promise<number> {
    if (this.stopped) return Promise.reject(new AgentError(this.stopped));
    this.alive ??= this.request("ping", timeoutMs).then(
      (parts) => {
        if (parts[1] !== "pong") throw new AgentError(`the check agent answered "${parts.slice(1).join(" ")}" to a ping`);
        return (this.version = Number(parts[2]));
      },
      (e) => {
        this.alive = null;
        throw new AgentError(
          `No check agent answered in the guest within ${timeoutMs / 1000} s (${e.message}). A machine saved by an older fslab has none: a cold boot starts one.`,
        );
      },
    );
    return this.alive;
  }

  /** Run a shell script in the guest with a time limit, out of the learner's shell. */
  async run(script: string, limitSeconds = 10): Promise<CheckRun> {
    const version = await this.ready();
    if (version !== AGENT_VERSION)
      throw new AgentError(`the guest's check agent speaks version ${version}, this fslab version ${AGENT_VERSION}: its checks would be misread (a machine saved by another fslab: a cold boot starts this one's)`);
    const t0 = performance.now();
    const limit = Math.max(1, Math.round(limitSeconds));
    // the guest kills the script at its limit; give the reply some seconds more to arrive
    const parts = await this.request(`${limit} ${toPrintfB(script)}`, limit * 1000 + 10_000);
    const [, status, ms, ...output] = parts;
    if (status === undefined || ms === undefined) throw new AgentError(`the check agent's reply was cut short: "${parts.join(" ")}"`);
    return {
      status: status === "timeout" ? "timeout" : Number(status),
      // the output's own spaces split it too
      output: fromAgentOutput(output.join(" ")),
      guestMs: Number(ms),
      roundTripMs: performance.now() - t0,
    };
  }

  /**
   * Runs `f` once no check is in flight, and holds the checks asked meanwhile until it is done:
   * each request goes through it (the agent runs one script at a time), and so does a snapshot
   * of the machine. A snapshot taken in the middle of a check held its half-done work:
   * restored, a check's read-only mount was left behind, and the learner's own mount of the
   * volume came up read-only (vfat-codepages, a reset of step 5).
   */
  between<T>(f: () => Promise<T>): Promise<T> {
    const run = this.queue.then(f);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** The machine was restored from a snapshot: requests in flight will never be answered. */
  reset(why = "the machine was restored while a check ran"): void {
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new AgentError(why));
      this.pending.delete(id);
    }
    this.partial = "";
    this.alive = null;
    this.stopped = null;
  }

  /**
   * The machine stopped (a panic, a reboot, a halt): requests in flight, queued or made until
   * the next reset() are refused at once with `why`, not after their timeouts.
   */
  stop(why: string): void {
    this.reset(why);
    this.stopped = why;
  }

  private request(body: string, timeoutMs: number): Promise<string[]> {
    return this.between(
      () =>
        new Promise<string[]>((resolve, reject) => {
          if (this.stopped) return reject(new AgentError(this.stopped));
          const id = `r${this.next++}`;
          const timer = setTimeout(() => {
            this.pending.delete(id);
            reject(new AgentError(`no answer in ${timeoutMs / 1000} s`));
          }, timeoutMs);
          this.pending.set(id, { resolve, reject, timer });
          const bytes = new TextEncoder().encode(`${id} ${body}\n`);
          for (let i = 0; i < bytes.length; i += CHUNK) this.write(bytes.subarray(i, i + CHUNK));
        }),
    );
  }
}
