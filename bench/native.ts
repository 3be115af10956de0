// A native bench (wasm/src/<core>/bench_<core>.c) driven one sample at a time from this Node process, so
// that its samples can alternate with the wasm side's (bench/paired.ts): the binary prints its
// cases' names as a JSON array, then answers each case index written to its stdin with one
// run's time in ms (timed inside the C, around the same call the wasm side times).
import { spawn, type ChildProcessByStdio } from "node:child_process";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";

export class NativeBench {
  /** the binary's cases, by index */
  cases: string[] = [];
  private stderr = "";
  private readonly lines: AsyncIterator<string>;
  /** the binary's exit code, or its spawn error's message */
  private readonly ended: Promise<string>;

  private constructor(
    private readonly child: ChildProcessByStdio<Writable, Readable, Readable>,
    private readonly bin: string,
  ) {
    child.stderr.on("data", (d) => (this.stderr += d));
    child.stdin.on("error", () => {}); // EPIPE from a binary that died: line() says how it ended
    this.ended = new Promise((res) => {
      // "close", not "exit": by then its stderr has been read to the end
      child.once("close", (code, signal) => res(`exited ${code ?? signal}`));
      child.once("error", (e) => res(`did not run (${e.message})`));
    });
    this.lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  }

  static async start(bin: string): Promise<NativeBench> {
    const b = new NativeBench(spawn(bin, [], { stdio: ["pipe", "pipe", "pipe"] }), bin);
    b.cases = JSON.parse(await b.line()) as string[];
    return b;
  }

  private async line(): Promise<string> {
    const r = await this.lines.next();
    if (r.done) {
      const how = await this.ended;
      const why = this.stderr.trim().split("\n")[0];
      throw new Error(`${this.bin} ${how} without an answer${why ? `: ${why}` : ""}`);
    }
    return r.value;
  }

  /** one run of the case named `which` (or at that index), in ms */
  async sample(which: string | number): Promise<number> {
    const i = typeof which === "number" ? which : this.cases.indexOf(which);
    if (i < 0 || i >= this.cases.length) throw new RangeError(`${this.bin} has no case ${JSON.stringify(which)} (${this.cases.join("; ")})`);
    this.child.stdin.write(`${i}\n`);
    const answer = await this.line();
    const ms = Number(answer);
    if (!Number.isFinite(ms)) throw new Error(`${this.bin} answered "${answer}" for case ${i}`);
    return ms;
  }

  /** ends the binary (its stdin closed) and waits for it */
  async close(): Promise<void> {
    this.child.stdin.end();
    await this.ended;
  }
}
