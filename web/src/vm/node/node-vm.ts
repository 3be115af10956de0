// The guest booted headless in Node, for the CLI (`fslab vm`), the tests and the benchmarks.
// Same kernel, root filesystem, BIOS and machine settings as the page (guest.ts).
//
//   NodeVm.boot() -> V86 (files read from kernel-image/dist) -> serial0 -> BootWatcher -> ready
//   NodeVm.run(cmd) -> the command, base64-encoded, typed into bash with echo off
//     -> output framed by \x1e markers -> { output, status }
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { join, resolve } from "node:path";
import { homedir } from "node:os";
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { setFlagsFromString } from "node:v8";
import { existsSync, readFileSync } from "node:fs";
import { withFreshMemory } from "../machine/v86-exports";
import { pace } from "../machine/v86-pace";
import { typedEmulator, type V86Emulator } from "../machine/v86-emulator";
import { unxzState } from "../machine/saved-state";
import type { CheckRun } from "../machine/agent";
import { MachineParts, endEmulator } from "../machine/machine-parts";
import { SdCard, type CardOptions } from "../machine/devices/sd-card";
import { BIOS_FILES, BootWatcher, GUEST, HOST_SHARE, machineOptions, machineStopped, ROOTFS_DIR, ROOTFS_JSON, STATE_FILE, stateMismatch, STOPPED_WHAT, TroubleWatcher, type StoppedTrouble } from "../machine/guest";

const BUILT = fileURLToPath(new URL("../../../../kernel-image/dist/", import.meta.url));
// FSLAB_DIST: another build's directory, e.g. the debug kernel's (kernel-image/build.sh --debug);
// the root filesystem always comes from dist/
const DIST = process.env.FSLAB_DIST ? resolve(process.env.FSLAB_DIST) + "/" : BUILT;
const require = createRequire(import.meta.url);

async function image(name: string): Promise<{ buffer: ArrayBuffer }> {
  const b = await readFile(DIST + name);
  return { buffer: b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer };
}

export interface RunResult {
  output: string;
  status: number;
}

export interface BootOptions {
  /** Restore the saved state (the default when dist/ has a usable one) or boot cold. */
  cold?: boolean;
  /** Leave the shell as a learner finds it (echo on, the usual prompt): for saving the state. */
  raw?: boolean;
  timeoutMs?: number;
  /** v86's own restore, which zeroes all memory first (a test compares the two; see v86-exports.ts) */
  v86ZeroesMemory?: boolean;
  /** Build the machine and stop there, not running it (a test reads its memory). */
  noStart?: boolean;
  /** A card in the SD slot from the start (`fslab vm --sd 64M`); the slot is empty without it. */
  sd?: CardOptions;
}

let v86Module: Promise<WebAssembly.Module> | null = null;
let plainState: Promise<ArrayBuffer> | null = null;

/**
 * dist's saved state un-xz'd (saved-state.ts), once per process. Un-xz'ing takes 0.3 s of this
 * thread, a third of a restore's time in `fslab vm`: the plain bytes are kept in the user's cache
 * (stateCacheFile) under the xz file's hash, so only the first restore of a state pays it.
 * Machines share the bytes, which v86 only reads (its restore copies each buffer out of them).
 */
function savedState(): Promise<ArrayBuffer> {
  plainState ??= readFile(DIST + STATE_FILE).then(async (b) => {
    const manifest = JSON.parse(readFileSync(DIST + "manifest.json", "utf8"));
    const rawBytes: number = manifest.state.raw_bytes;
    const cached = stateCacheFile(b);
    const kept = await readFile(cached).catch(() => null);
    // written whole by a rename, so a file of the right length is the state
    if (kept?.byteLength === rawBytes) return kept.buffer.slice(kept.byteOffset, kept.byteOffset + kept.byteLength) as ArrayBuffer;
    const plain = await unxzState(new Blob([b]).stream(), rawBytes);
    await keepInCache(cached, plain);
    return plain;
  });
  plainState.catch(() => (plainState = null));
  return plainState;
}

/** Where the plain bytes of the saved state `xz` are kept: $XDG_CACHE_HOME/fslab (or ~/.cache/fslab). */
function stateCacheFile(xz: Uint8Array): string {
  const dir = process.env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(dir, "fslab", `state-${createHash("sha256").update(xz).digest("hex").slice(0, 24)}.bin`);
}

/** the states kept: this checkout's, and a few others (another checkout, the state before a rebuild) */
const KEPT_STATES = 3;

/**
 * Write `bytes` to `file` whole or not at all (a temporary file renamed), then drop all but the
 * newest few states (16 MB each); a cache that cannot be written is skipped.
 */
async function keepInCache(file: string, bytes: ArrayBuffer): Promise<void> {
  const dir = resolve(file, "..");
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(tmp, new Uint8Array(bytes));
    await rename(tmp, file);
    const states = await Promise.all(
      (await readdir(dir)).filter((f) => /^state-[0-9a-f]+\.bin(\.\d+\.tmp)?$/.test(f)).map(async (f) => ({ f, t: (await stat(join(dir, f))).mtimeMs })),
    );
    // and a temporary file a process left (killed while writing it) an hour on
    for (const { f } of states.filter((s) => s.f.endsWith(".tmp") && s.t < Date.now() - 3_600_000)) await unlink(join(dir, f)).catch(() => undefined);
    const whole = states.filter((s) => !s.f.endsWith(".tmp"));
    for (const { f } of whole.sort((a, b) => b.t - a.t).slice(KEPT_STATES)) await unlink(join(dir, f)).catch(() => undefined);
  } catch {
    // a read-only home or a full disk: the next restore un-xz's again
  }
}

/** v86's core, compiled once per process, instantiated per machine (v86-exports.ts). */
async function instantiateV86(imports: WebAssembly.Imports): Promise<WebAssembly.Exports> {
  v86Module ??= compileV86();
  const instance = await WebAssembly.instantiate(await v86Module, imports);
  return withFreshMemory(instance.exports, GUEST.memorySize);
}

/**
 * v86's core with V8's own tiers (Liftoff at once, TurboFan in the background for its hot
 * functions), and from then on Liftoff only, for the modules v86's JIT makes.
 *
 * The JIT turns hot guest code into many small wasm modules. V8 compiles each with Liftoff,
 * then again with TurboFan on background threads once it runs hot: on a walk of the labs that
 * second compile doubled the CPU the process used (1.6 cores against 0.9, exfat-empty-hint)
 * and did not make the guest faster (wall 37 s against 32 s). So Liftoff only for them. But
 * v86's own core (the interpreter, the page lookups, main_loop: over 40% of a guest's CPU in a
 * profile) is one module that wants TurboFan: with Liftoff only, 4000 files written on ext4 took
 * 15-16 s against 11 s. V8 picks a module's tiering when it compiles it, so the flag changes
 * after the core's compile, and the core's hot functions still tier up. Compiling all of the
 * core with TurboFan up front (as before 2026-11-29) cost 1.5 s of CPU and 0.6-0.8 s of wall
 * before the guest could start: `fslab vm -- true` took 1.1 s against 0.8 s now, and writing
 * 2000 to 8000 files was no faster for it (7.8/18.6 s against 7.0-7.5/19.2 s; 2 cores).
 *
 * V8's flags are the whole process's, set here and not on import: a process that only imports
 * this file (`fslab bench` loads every part before the cores' native-against-wasm runs) keeps
 * V8's defaults for its own wasm.
 */
async function compileV86(): Promise<WebAssembly.Module> {
  const bytes = await readFile(require.resolve("v86/build/v86.wasm"));
  try {
    return await WebAssembly.compile(bytes);
  } finally {
    setFlagsFromString("--liftoff-only");
  }
}

/** Can dist/'s saved state be restored with this v86? null if yes, else the reason. */
export function nodeStateMismatch(): string | null {
  if (!existsSync(DIST + STATE_FILE)) return `there is no ${STATE_FILE} in kernel-image/dist`;
  const manifest = JSON.parse(readFileSync(DIST + "manifest.json", "utf8"));
  const v86 = JSON.parse(readFileSync(require.resolve("v86/package.json"), "utf8")).version;
  return stateMismatch(manifest.state, v86);
}

/** Why a stopped guest will not answer, in the kernel's words: for the CLI's error line. */
export function stoppedWords(t: StoppedTrouble): string {
  return `${STOPPED_WHAT[t.kind]} (${t.headline}): nothing more runs in it`;
}

export class NodeVm {
  private emulator: V86Emulator | null = null;
  /** the emulator, once boot() built it */
  private get machine(): V86Emulator {
    if (!this.emulator) throw new Error("no machine: NodeVm.boot() first (or it was destroyed)");
    return this.emulator;
  }
  private text = "";
  private waiters: Array<() => void> = [];
  private decoder = new TextDecoder();
  bootMs = 0;

  restored = false;
  /** What the console printed since the shell's last command was sent (all of it, for a raw boot). */
  get output(): string {
    return this.text;
  }
  /** the ports, the SD host and the saved state, wired as the page's host wires them */
  private parts = new MachineParts();
  /** Events from the guest's fslab-trace (virtio-console port 1, /dev/hvc1). */
  readonly trace = this.parts.trace;
  /** What stopped the machine (a panic, a reboot, a halt) since it booted or was restored. */
  stopped: StoppedTrouble | null = null;
  private trouble = new TroubleWatcher();
  /** The SD host controller beside v86 (devices/sdhci.ts): insert and eject cards here. */
  readonly sd = this.parts.sd;
  /** The guest's check agent (virtio-console port 2, /dev/hvc2). */
  readonly agent = this.parts.agent;

  /** Boot to the shell prompt; rejects with the reason (panic, timeout) if it cannot. */
  async boot(opts: BootOptions = {}): Promise<void> {
    const t0 = performance.now();
    // the core's compile (background threads, the longest part of a restore) first, beside
    // v86's import and the state's read (this thread)
    if (!opts.v86ZeroesMemory) v86Module ??= compileV86();
    const { V86 } = await import("v86");
    const timeoutMs = opts.timeoutMs ?? GUEST.bootTimeoutMs;
    const watcher = new BootWatcher();
    const restore = !opts.cold && nodeStateMismatch() === null;
    const emulator = typedEmulator(new V86({
      ...machineOptions(),
      wasm_fn: opts.v86ZeroesMemory ? undefined : instantiateV86,
      wasm_path: require.resolve("v86/build/v86.wasm"),
      ...(restore
        ? { initial_state: { buffer: await savedState() } }
        : { bzimage: await image("bzImage"), bios: await image(BIOS_FILES.bios), vga_bios: await image(BIOS_FILES.vga_bios) }),
      // v86 reads these paths with node:fs, a file when the guest first reads it; the tree
      // only for a cold boot (a saved state carries its own)
      filesystem: restore ? { baseurl: BUILT + ROOTFS_DIR } : { baseurl: BUILT + ROOTFS_DIR, basefs: BUILT + ROOTFS_JSON },
    }));
    this.emulator = emulator;
    const loaded = new Promise<void>((r) =>
      emulator.add_listener("emulator-loaded", () => {
        pace(emulator.v86);
        this.parts.loaded(emulator);
        r();
      }),
    );
    if (opts.noStart) {
      await loaded;
      this.sd.attach(emulator, restore);
      return;
    }
    this.parts.wire(emulator, () => {
      for (const w of this.waiters.splice(0)) w();
    });
    emulator.add_listener("serial0-output-byte", (byte: number) => {
      const s = this.decoder.decode(Uint8Array.of(byte), { stream: true });
      this.text += s;
      watcher.feed(s);
      if (watcher.phase === "ready" && !this.stopped) {
        const t = this.trouble.feed(s);
        // nothing more will come: what waits for the guest is told why now, not at its timeout
        if (t && machineStopped(t)) {
          this.stopped = t;
          void emulator.stop();
          this.agent.stop(`the machine stopped (${t.headline})`);
        }
      }
      for (const w of this.waiters.splice(0)) w();
    });
    const started = new Promise<void>((r) => emulator.add_listener("emulator-started", () => r()));
    await loaded;
    this.sd.attach(emulator, restore);
    if (opts.sd) this.sd.card = new SdCard(opts.sd); // in the slot at power-on: no insertion event
    void emulator.run();
    if (restore) {
      // the saved shell sits at its prompt: ask for a fresh one
      this.restored = true;
      await started;
      this.machine.serial0_send("\n");
    }
    await this.until(() => watcher.phase === "ready" || watcher.phase === "failed", timeoutMs, () => `the guest did not reach a shell prompt in ${timeoutMs / 1000} s`);
    if (watcher.phase === "failed") throw new Error(watcher.failure!);
    this.bootMs = performance.now() - t0;
    if (opts.raw) return;
    await this.quietShell();
  }

  /** No echo and no prompt: what comes back is the command's own output. */
  private async quietShell(): Promise<void> {
    this.text = "";
    this.machine.serial0_send("stty -echo; PS1=''; printf '\\036R\\036'\n");
    await this.until(() => this.text.includes("\x1eR\x1e"), 10_000, () => "the guest shell did not answer");
  }

  /**
   * Replace the login shell with a new one, as a learner's reload or a new terminal would
   * give: no variable, function or directory of the commands before is left.
   */
  async freshShell(): Promise<void> {
    this.machine.serial0_send("cd; exec bash --login\n");
    await this.quietShell();
  }

  /**
   * Run a shell command in the guest; its output (stdout and stderr) and exit status. It runs
   * in a child bash, unless `inShell`: then in the login shell itself, as a learner's typed
   * commands do, so its variables and directory stay for the next (a lab's `vm` blocks).
   */
  async run(command: string, timeoutMs = 600_000, inShell = false): Promise<RunResult> {
    // base64 in lines well under the tty's 4096-byte line limit, whatever the command holds
    const b64 = Buffer.from(command, "utf8").toString("base64");
    let lines = ": > /tmp/.fslab-cmd.b64\n";
    for (let i = 0; i < b64.length; i += 2048) lines += `printf '%s' '${b64.slice(i, i + 2048)}' >> /tmp/.fslab-cmd.b64\n`;
    this.text = "";
    this.machine.serial0_send(
      lines + `base64 -d /tmp/.fslab-cmd.b64 > /tmp/.fslab-cmd; printf '\\036S\\036'; ${inShell ? "." : "bash"} /tmp/.fslab-cmd 2>&1; printf '\\036E%d\\036' $?\n`,
    );
    const framed = /\x1eS\x1e([\s\S]*)\x1eE(\d+)\x1e/;
    await this.until(() => framed.test(this.text), timeoutMs, () => `the command did not finish in ${timeoutMs / 1000} s`).catch((e) => {
      // what the command printed before the machine stopped (the kernel's last line included) goes with the error
      const begun = this.text.indexOf("\x1eS\x1e");
      throw Object.assign(e, { output: begun < 0 ? "" : this.text.slice(begun + 3).replace(/\r\n/g, "\n") });
    });
    const m = this.text.match(framed)!;
    return { output: m[1].replace(/\r\n/g, "\n"), status: Number(m[2]) };
  }

  /**
   * A file the guest put in the host share (/mnt/host in the guest, v86's 9p filesystem),
   * e.g. a disk image after `sync; cp /tmp/x.img /mnt/host/`: how the inspectors get real bytes.
   */
  async readSharedFile(name: string): Promise<Uint8Array> {
    return this.machine.read_file(HOST_SHARE + name);
  }

  /** Run a script through the guest's check agent (VmHandle's `check`, which labs/ code calls). */
  check(script: string, timeoutSeconds: number): Promise<CheckRun> {
    return this.agent.run(script, timeoutSeconds);
  }

  /** Put a file in the guest's /mnt/host (a name of its own for each content: the guest caches what it read). */
  async writeSharedFile(name: string, bytes: Uint8Array): Promise<void> {
    await this.machine.create_file(HOST_SHARE + name, bytes);
  }

  /** The root filesystem's downloads in flight (host-files.ts). */
  get hostFilesPending(): number {
    return this.parts.hostFiles?.pending ?? 0;
  }

  /** The guest's memory, a view (read it while the machine is stopped). */
  memory(): Uint8Array {
    const v86 = this.machine.v86;
    if (!v86) throw new Error("the machine is not built yet (before emulator-loaded)");
    return v86.cpu.mem8;
  }

  /**
   * The machine's state with the SD host's (devices/machine-state.ts). `v86Only`: v86's own
   * state, for dist/'s instant start (web/src/vm/node/save-state.ts), which holds no card.
   */
  async saveState(opts: { v86Only?: boolean } = {}): Promise<ArrayBuffer> {
    // between checks: a check's half-done work (a mount) is not the learner's machine
    return this.parts.save(this.machine, opts.v86Only);
  }

  /** Put the machine back to a state saveState() returned. */
  async restoreState(state: ArrayBuffer): Promise<void> {
    await this.parts.restore(this.machine, state);
    this.trouble.reset();
    if (this.stopped) {
      this.stopped = null;
      await this.machine.run(); // a stopped machine was stopped by us: the restored one runs
    }
  }

  /**
   * The card in the slot as a block device: the host's driver bound (sdhci-pci and mmc_block
   * are modules) and /dev/mmcblk0 there. Rejects with the kernel's last lines if it does not come.
   */
  async sdReady(timeoutS = 30): Promise<void> {
    const r = await this.run(
      `modprobe sdhci-pci && modprobe mmc_block || exit 1
       for i in $(seq ${timeoutS * 10}); do [ -b /dev/mmcblk0 ] && exit 0; sleep 0.1; done
       dmesg | tail -n 5; exit 1`,
      (timeoutS + 30) * 1000,
    );
    if (r.status !== 0) throw new Error(`the SD card did not appear as /dev/mmcblk0: ${r.output.trim().split("\n").slice(-3).join(" | ")}`);
  }

  /** Type raw text into the console (no framing, no waiting), as UTF-8 like the page's terminal. */
  type(text: string): void {
    // not serial0_send: it sends each UTF-16 unit as one byte, and a lone 0xE9 for "é" leaves
    // readline in the middle of a multibyte character that the next one typed completes
    this.machine.serial_send_bytes(0, new TextEncoder().encode(text));
  }

  /**
   * Wait until every event the kernel has traced so far has reached the host: a marker written
   * to the ring buffer now comes through the stream after them. Returns at once when no
   * fslab-trace stream runs (nothing is on its way).
   */
  async traceSettled(timeoutMs = 30_000): Promise<void> {
    const mark = `fslab-settle-${++this.settles}`;
    const T = "/sys/kernel/tracing";
    const r = await this.agent.run(`[ -f /run/fslab-trace.pid ] && [ "$(cat ${T}/tracing_on)" = 1 ] && echo ${mark} > ${T}/trace_marker && echo streaming`, 10);
    if (r.output.trim() !== "streaming") return;
    await this.until(() => this.trace.lastMarker === mark, timeoutMs, () => `the trace stream did not deliver its marker in ${timeoutMs / 1000} s`);
  }
  private settles = 0;

  /** Wait until the guest's `fslab-trace stop` has reported its overrun count. */
  async traceStopped(timeoutMs = 30_000): Promise<void> {
    await this.until(() => this.trace.stats.overrun !== null, timeoutMs, () => "fslab-trace did not report its end");
  }

  /** Wait until the console shows the shell prompt again after `type`. */
  async waitForPrompt(timeoutMs = 60_000): Promise<void> {
    const from = this.text.length;
    await this.until(() => GUEST.prompt.test(this.text.slice(from)), timeoutMs, () => "no shell prompt");
  }

  async destroy(): Promise<void> {
    if (this.emulator) await endEmulator(this.emulator, this.parts.hostFiles);
    this.emulator = null;
    this.parts.detach();
  }

  private until(done: () => boolean, timeoutMs: number, why: () => string): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(why())), timeoutMs);
      const check = () => {
        if (done()) {
          clearTimeout(timer);
          resolve();
        } else if (this.stopped) {
          clearTimeout(timer);
          reject(new Error(stoppedWords(this.stopped)));
        } else this.waiters.push(check);
      };
      check();
    });
  }
}
