// The guest booted headless in Node, for the CLI (`fslab vm`), the tests and the benchmarks.
// Same kernel, initramfs, BIOS and machine settings as the page (guest.ts).
//
//   NodeVm.boot() -> V86 (files read from kernel-image/dist) -> serial0 -> BootWatcher -> ready
//   NodeVm.run(cmd) -> the command, base64-encoded, typed into bash with echo off
//     -> output framed by \x1e markers -> { output, status }
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { BootWatcher, GUEST } from "./guest";

const DIST = fileURLToPath(new URL("../../../kernel-image/dist/", import.meta.url));
const require = createRequire(import.meta.url);

async function image(name: string): Promise<{ buffer: ArrayBuffer }> {
  const b = await readFile(DIST + name);
  return { buffer: b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer };
}

export interface RunResult {
  output: string;
  status: number;
}

export class NodeVm {
  private emulator: any;
  private text = "";
  private waiters: Array<() => void> = [];
  private decoder = new TextDecoder();
  bootMs = 0;

  /** Boot to the shell prompt; rejects with the reason (panic, timeout) if it cannot. */
  async boot(timeoutMs: number = GUEST.bootTimeoutMs): Promise<void> {
    const { V86 } = await import("v86");
    const t0 = performance.now();
    const watcher = new BootWatcher();
    this.emulator = new V86({
      wasm_path: require.resolve("v86/build/v86.wasm"),
      memory_size: GUEST.memorySize,
      vga_memory_size: 2 * 1024 * 1024,
      bios: await image("bios.bin"),
      vga_bios: await image("vgabios-stdvga.bin"),
      bzimage: await image("bzImage"),
      initrd: await image("initramfs.cpio.gz"),
      cmdline: GUEST.cmdline,
      filesystem: {},
      autostart: true,
      disable_keyboard: true,
      disable_mouse: true,
      disable_speaker: true,
    });
    this.emulator.add_listener("serial0-output-byte", (byte: number) => {
      const s = this.decoder.decode(Uint8Array.of(byte), { stream: true });
      this.text += s;
      watcher.feed(s);
      for (const w of this.waiters.splice(0)) w();
    });
    await this.until(() => watcher.phase === "ready" || watcher.phase === "failed", timeoutMs, () => `the guest did not reach a shell prompt in ${timeoutMs / 1000} s`);
    if (watcher.phase === "failed") throw new Error(watcher.failure!);
    this.bootMs = performance.now() - t0;
    // no echo: what comes back is the command's own output
    this.text = "";
    this.emulator.serial0_send("stty -echo; PS1=''; printf '\\036R\\036'\n");
    await this.until(() => this.text.includes("\x1eR\x1e"), 10_000, () => "the guest shell did not answer");
  }

  /** Run a shell command in the guest; its output (stdout and stderr) and exit status. */
  async run(command: string, timeoutMs = 600_000): Promise<RunResult> {
    const b64 = Buffer.from(command, "utf8").toString("base64");
    this.text = "";
    const line = `printf '%s' '${b64}' | base64 -d > /tmp/.fslab-cmd; printf '\\036S\\036'; bash /tmp/.fslab-cmd 2>&1; printf '\\036E%d\\036' $?\n`;
    this.emulator.serial0_send(line);
    const framed = /\x1eS\x1e([\s\S]*)\x1eE(\d+)\x1e/;
    await this.until(() => framed.test(this.text), timeoutMs, () => `the command did not finish in ${timeoutMs / 1000} s`);
    const m = this.text.match(framed)!;
    return { output: m[1].replace(/\r\n/g, "\n"), status: Number(m[2]) };
  }

  async destroy(): Promise<void> {
    await this.emulator?.destroy();
    this.emulator = null;
  }

  private until(done: () => boolean, timeoutMs: number, why: () => string): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(why())), timeoutMs);
      const check = () => {
        if (done()) {
          clearTimeout(timer);
          resolve();
        } else this.waiters.push(check);
      };
      check();
    });
  }
}
