// The page's v86 host: boots our kernel and root filesystem (kernel-image/dist/) and connects the
// guest's first serial port to whoever listens (the xterm.js terminal).
//
//   VmHost.boot() -> new V86({bzimage, filesystem, bios, ...}) -> download-progress events
//     -> serial0-output-byte -> BootWatcher (phase, panic, prompt) -> onStatus / onOutput
import { V86 } from "v86";
import { pace } from "../machine/v86-pace";
import { typedEmulator, type V86Emulator } from "../machine/v86-emulator";
import { state as savedState } from "@kernel/manifest.json";
import v86Package from "v86/package.json";
import type { TraceStats } from "../machine/trace-channel";
import type { BufferKept } from "../machine/page-part";
import { BIOS_FILES, BootWatcher, GUEST, HOST_SHARE, machineOptions, ROOTFS_DIR, ROOTFS_JSON, machineStopped, STATE_FILE, stateMismatch, V86_WASM_GZ, type BootStatus, type GuestTrouble, type StateInfo } from "../machine/guest";
import { siteUrl } from "../../shared/site";
import { trackHostFiles, type HostFiles } from "../machine/host-files";
import { PageTrouble, refusal } from "./page-trouble";
import { MachineParts, endEmulator } from "../machine/machine-parts";
import type { CheckedState } from "../machine/devices/sdhci";
import { loadStateNow, restoreStateAhead, vmUrl, type LoadProgress } from "./fetch-ahead";
import { instantiateV86, markVm } from "./vm-start";

export interface VmHostEvents {
  onOutput(bytes: Uint8Array): void;
  onStatus(status: BootStatus): void;
  /** A running guest in trouble (a panic, an oops, a full filesystem in RAM), once per event. */
  onTrouble?(trouble: GuestTrouble): void;
  /** Kernel events from fslab-trace, parsed into the models' records, as they arrive. */
  /** `undone`: record words a machine put back undid, to drop from the end of those before `records` */
  onTrace?(records: Uint32Array, stats: TraceStats, lines: string[], undone: number): void;
  /** What the page holds of the trace (all onTrace gave it), kept with a saved machine. */
  keptTrace?(): BufferKept | null;
  /** A reader of the terminal's screen, kept with a saved machine (loaded the first time it is asked for). */
  screen?(): Promise<() => string>;
  /** A learner's machine starts with the trace the page held when it was kept: the page holds that now. */
  onTraceRestored?(kept: BufferKept, stats: TraceStats): void;
}

export class VmHost {
  private emulator: V86Emulator | null = null;
  private watcher = new BootWatcher();
  private started = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private pending: number[] = [];
  private flushScheduled = false;
  private decoder = new TextDecoder();
  /** the console's last characters, for seeing the shell's prompt come back (typeAndWait) */
  private tail = "";
  private idleWaiters: Array<() => void> = [];
  /** a line was entered and the shell is not back at its prompt yet: a command runs */
  private busy = false;
  private lines = 0;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  /** the ports, the SD host and the saved state, wired as Node's host wires them */
  private parts = new MachineParts();
  private trace = this.parts.trace;
  /** The SD host beside v86 (devices/sdhci.ts): the page's Insert/Eject and the guest's `sdcard` act on it. */
  readonly sd = this.parts.sd;
  /** The guest's check agent (virtio-console port 2, /dev/hvc2): a lab's checks run there. */
  readonly agent = this.parts.agent;
  /** after the shell is up: a panic, an oops, a full disk, the OOM killer, a hung shell (page-trouble.ts) */
  private troubles = new PageTrouble({
    agent: this.agent,
    tail: () => this.tail,
    running: () => !!this.emulator?.is_running(),
    stop: (t) => {
      void this.emulator?.stop();
      this.agent.stop(refusal(t, "checks")); // none will be answered
      this.releaseIdle(); // nor will a command come back to its prompt
    },
    report: (t) => this.events.onTrouble?.(t),
  });
  private trouble = this.troubles.watcher;
  /** Why this start is a cold boot (null when restoring the saved state). */
  coldReason: string | null = null;
  /** What was restored when it was a learner's snapshot, not the build's saved machine. */
  restoredFrom: string | null = null;
  private loaded = false; // v86 has built the machine ("emulator-loaded")
  /** counts boots and teardowns: a machine waiting for files fetched ahead belongs to one */
  private generation = 0;

  constructor(private events: VmHostEvents) {}

  /**
   * Start the guest: restore the saved state (about a second) unless `cold` is asked for
   * or the state does not fit this emulator, in which case boot the kernel (8–16 s). A
   * `snapshot` (a learner's machine from IndexedDB, already checked to fit) comes first.
   */
  boot(cold = false, snapshot?: { state: ArrayBuffer; label: string }): void {
    this.started = performance.now();
    // the split of a start (npm run bench page reads these marks with the resources' timings)
    markVm("boot");
    const mismatch = stateMismatch(savedState as StateInfo | undefined, v86Package.version);
    const restore = !!snapshot || (!cold && mismatch === null);
    this.coldReason = snapshot ? null : cold ? "cold boot requested" : mismatch;
    this.restoredFrom = snapshot?.label ?? null;
    this.status("loading", snapshot ? `Loading ${snapshot.label}` : restore ? "Loading the saved machine" : "Loading the kernel", 0);
    const generation = ++this.generation;
    // (the first machine built from it takes it: one torn down before the state came does not)
    if (!restore || snapshot) return this.create(restore, snapshot, null);
    void this.restoreSaved(generation);
  }

  /**
   * The saved machine: the state fetched ahead as the page opened (fetch-ahead.ts); loaded now
   * when there is none or that load failed (it said why in the console), whose failure is shown.
   */
  private async restoreSaved(generation: number): Promise<void> {
    const ahead = restoreStateAhead();
    let state = ahead ? await this.showingLoad(generation, ahead) : null;
    if (generation !== this.generation) return; // another machine since: the state ahead is its
    ahead?.take(); // and no longer held there
    if (!state) {
      try {
        state = await this.showingLoad(generation, loadStateNow());
      } catch (e) {
        if (generation === this.generation) this.fail(`Could not load the saved machine (${STATE_FILE}): ${e instanceof Error ? e.message : e}`);
        return;
      }
      if (generation !== this.generation) return;
    }
    this.create(true, undefined, state);
  }

  /** A state's load, its progress shown while this machine is the page's. */
  private async showingLoad<T>(generation: number, load: { state: Promise<T>; progress: LoadProgress }): Promise<T> {
    const { progress } = load;
    const shown = setInterval(() => {
      if (generation === this.generation && progress.total) this.status("loading", `Loading ${STATE_FILE}`, progress.loaded / progress.total);
    }, 250);
    try {
      return await load.state;
    } finally {
      clearInterval(shown);
    }
  }

  /** Build and start the machine: from a snapshot, the saved state (un-xz'd by fetch-ahead.ts), or v86 fetches the kernel's files. */
  private create(restore: boolean, snapshot: { state: ArrayBuffer } | undefined, state: ArrayBuffer | null): void {
    // a learner's snapshot carries the SD host's state after v86's (machine-state.ts)
    // (checked whole before the emulator is built: a bad one replaces nothing)
    let devices: CheckedState | null = null;
    if (snapshot) {
      let split;
      try {
        split = this.parts.startFrom(snapshot.state);
      } catch (e) {
        return this.fail(`Could not restore ${this.restoredFrom ?? "your machine"}: ${e instanceof Error ? e.message : e}`);
      }
      snapshot = { state: split.v86 };
      devices = split.devices;
      // the live panels show again what the machine's runs sent them, the terminal what they printed
      if (split.page?.buffer) this.events.onTraceRestored?.(split.page.buffer, { ...this.trace.stats });
      if (split.page?.screen) this.events.onOutput(new TextEncoder().encode(split.page.screen));
    }
    const emulator = typedEmulator(new V86({
      ...machineOptions(),
      wasm_fn: (imports: WebAssembly.Imports) =>
        instantiateV86(imports).catch((e) => {
          this.fail(`Could not load the emulator's core (${V86_WASM_GZ}): ${e instanceof Error ? e.message : e}`);
          throw e;
        }),
      ...(snapshot
        ? { initial_state: { buffer: snapshot.state } }
        : restore
        ? { initial_state: { buffer: state! } }
        : { bzimage: { url: vmUrl("bzImage") }, bios: { url: vmUrl(BIOS_FILES.bios) }, vga_bios: { url: vmUrl(BIOS_FILES.vga_bios) } }),
      // the root filesystem, a file fetched when the guest first reads it (guest.ts); the tree
      // only for a cold boot: a saved state carries its own
      filesystem: restore ? { baseurl: siteUrl(`vm/${ROOTFS_DIR}`) } : { baseurl: siteUrl(`vm/${ROOTFS_DIR}`), basefs: vmUrl(ROOTFS_JSON) },
    }));
    this.emulator = emulator;
    this.loaded = false;
    emulator.add_listener("emulator-loaded", () => {
      try {
        this.sd.attach(emulator, restore);
        if (devices) this.sd.apply(devices);
      } catch (e) {
        this.fail(`Could not restore the SD card: ${e instanceof Error ? e.message : e}`);
        return;
      }
      try {
        pace(emulator.v86, { mainTimer: () => document.visibilityState === "visible" });
      } catch (e) {
        this.fail(`Could not start the emulator: ${e instanceof Error ? e.message : e}`);
        return;
      }
      void emulator.run();
      this.loaded = true;
      this.parts.loaded(emulator);
      markVm("loaded"); // files downloaded, wasm compiled, the state decompressed and restored
    });
    emulator.add_listener("download-progress", (e) => {
      if (this.watcher.phase !== "booting") return;
      const frac = e.lengthComputable && e.total ? (e.file_index + e.loaded / e.total) / e.file_count : e.file_index / e.file_count;
      this.status("loading", `Loading ${(e.file_name.split("/").pop() ?? "").split("?")[0]}`, frac);
    });
    emulator.add_listener("download-error", (e) => {
      this.fail(`Could not load ${e.file_name}: the lab's VM files are missing or the server refused them.`);
    });
    let firstStart = true;
    emulator.add_listener("emulator-started", () => {
      // v86 says so again when a machine stopped after a panic runs again (restoreState): not a boot
      if (!firstStart) return;
      firstStart = false;
      markVm("started");
      if (restore) {
        this.watcher.phase = "userland";
        this.status("userland", "Restoring the saved machine");
        // the saved shell sits at its prompt: the build's, known, is shown as it was printed;
        // a learner's machine is asked for a fresh one
        if (snapshot) {
          // Ctrl+U first: a machine kept while a line was being typed into its shell (a learner
          // mid-word, a test typing) holds that half line, which a bare newline would run
          emulator.serial0_send("\x15\n");
          this.askAgainForPrompt(emulator, 1);
        } else for (const byte of new TextEncoder().encode(GUEST.savedPrompt)) this.onByte(byte);
      } else this.status("booting", `Booting Linux (${this.coldReason})`);
    });
    emulator.add_listener("serial0-output-byte", (byte: number) => this.onByte(byte));
    this.parts.wire(emulator, this.handTrace);
    this.timer = setTimeout(() => {
      if (this.watcher.phase !== "ready")
        this.fail(`The guest did not reach a shell prompt within ${GUEST.bootTimeoutMs / 1000} s.`);
    }, GUEST.bootTimeoutMs);
  }

  /** What the trace channel has, to the page. */
  private handTrace = (): void => {
    const undone = this.trace.takeUndone();
    const records = this.trace.take();
    const lines = this.trace.takeLines();
    if (records.length || lines.length || undone || this.trace.stats.overrun !== null) this.events.onTrace?.(records, { ...this.trace.stats }, lines, undone);
  };

  /**
   * A learner's restored machine is asked for its prompt with Ctrl+U and a newline. A machine
   * kept while a command was being typed into its shell comes back with half a line in it; a
   * bare newline ran it, and an unclosed quote in it left bash waiting for the rest ("> ", PS2)
   * for good (reload.e2e hung so in three whole-suite runs of eight, its terminal showing only
   * "> " lines: the test types its commands key by key). Each 3 s without a prompt it is asked
   * again: after a continuation prompt with Ctrl+C, which drops what was typed and prints a
   * fresh prompt, else with another newline; the status says so.
   */
  private askAgainForPrompt(emulator: V86Emulator, n: number): void {
    setTimeout(() => {
      if (this.watcher.phase !== "userland" || this.emulator !== emulator) return;
      // bash wraps its prompts in bracketed-paste switches (ESC [ ? 2004 h): not part of the text
      const shown = this.tail.replace(/\r/g, "").replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "");
      const halfLine = /(^|\n)> $/.test(shown);
      this.status("userland", `Restoring the saved machine (no prompt yet: ${halfLine ? "a half-typed line dropped" : "asked again"}, ${n})`);
      emulator.serial0_send(halfLine ? "\x03" : "\n");
      if (n < 8) this.askAgainForPrompt(emulator, n + 1);
    }, 3000);
  }

  /** Type into the guest's serial console. */
  send(text: string): void {
    this.sendBytes(new TextEncoder().encode(text));
  }

  /**
   * Type lines into the shell and resolve once the shell is back at its prompt with nothing
   * more to say: the prompt is the last thing printed and 300 ms pass quietly. Lines typed
   * ahead are echoed right after each intermediate prompt, so only the last one stays last.
   */
  typeAndWait(text: string): Promise<void> {
    // a stopped machine reads nothing (sendBytes), and its prompt would come only after a restore
    const stopped = this.trouble.reported;
    if (machineStopped(stopped)) return Promise.reject(new Error(refusal(stopped, "commands")));
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
      this.tail = "";
      this.send(text);
    });
  }

  /**
   * Whether the learner's shell is running a command: a line was entered (typed or from a Run
   * button) and the shell has not come back to its prompt with 300 ms of quiet. A lab's checks
   * wait for it: a check that mounts a volume while the learner's command mounts the same one
   * would make that command's mount fail ("would change RO state") or take the check's options.
   */
  get shellBusy(): boolean {
    return this.busy;
  }

  /** Lines entered in the shell so far: a lab's poll checks again soon after one (useStepState). */
  get shellLines(): number {
    return this.lines;
  }

  /** Resolves once the shell is not running a command (at once when it is not). */
  whenIdle(): Promise<void> {
    if (!this.busy) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private checkIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    if ((!this.idleWaiters.length && !this.busy) || !GUEST.prompt.test(this.tail)) return;
    this.idleTimer = setTimeout(() => {
      if (!GUEST.prompt.test(this.tail)) return;
      this.releaseIdle();
    }, 300);
  }

  /** The shell is back (or will not come back: a panic, a restore): what waited for it goes on. */
  private releaseIdle(): void {
    this.busy = false;
    for (const w of this.idleWaiters.splice(0)) w();
  }

  /** The machine stopped (a panic, a reboot, a halt) and was not restored since. */
  get stopped(): boolean {
    return machineStopped(this.trouble.reported);
  }

  /** Raw bytes to the serial port: keystrokes from xterm.js arrive as UTF-8. */
  sendBytes(bytes: Uint8Array): void {
    // a stopped machine reads nothing; v86 would queue the keys and give them to the restored one
    if (this.stopped) return;
    if (bytes.includes(13) || bytes.includes(10)) {
      // the prompt seen from now on is the one after this line, not the one it was typed at
      this.busy = true;
      this.lines++;
      this.tail = "";
    }
    this.emulator?.serial_send_bytes(0, bytes);
  }

  /** The whole machine now, as v86 saves it (about 40 MiB, mostly zeroed pages). */
  async saveState(): Promise<ArrayBuffer> {
    if (!this.emulator || this.watcher.phase !== "ready") throw new Error("the VM is not running");
    const emulator = this.emulator;
    const screen = await this.events.screen?.().catch(() => undefined); // (a machine without it is still kept)
    // between checks: a check's half-done work (a mount) is not the learner's machine; with
    // the trace the page holds (all the channel had handed on first) and the terminal's screen
    return this.parts.save(emulator, false, () => {
      this.handTrace();
      return { buffer: this.events.keptTrace?.() ?? null, screen: screen?.() ?? null };
    });
  }

  /** Put the machine back to a saved state; checks in flight are given up. `note`: the status line's new news. */
  async restoreState(state: ArrayBuffer, note?: string): Promise<void> {
    if (!this.emulator) throw new Error("the VM is not running");
    this.releaseIdle(); // whatever was running is gone
    const emulator = this.emulator;
    let stopped = false;
    await this.parts.restore(emulator, state, async () => {
      if (this.emulator !== emulator) throw new Error("the VM was stopped");
      // a machine we stopped (a panic, a halt) is stopped for sure before it is replaced (v86
      // stops at its next tick), and the restored one runs
      stopped = this.stopped;
      if (stopped) await emulator.stop();
    });
    this.trouble.reset();
    if (stopped || !this.emulator.is_running()) await this.emulator.run();
    // the restored shell sits at its prompt, perhaps with half a line typed (askAgainForPrompt):
    // drop that, and ask for a fresh one
    this.emulator.serial0_send("\x15\n");
    if (note) this.status("ready", note);
  }

  /** A file the guest copied into /mnt/host (the 9p share), e.g. a disk image to inspect. */
  async readSharedFile(name: string): Promise<Uint8Array> {
    if (!this.emulator) throw new Error("the VM is not running");
    try {
      return await this.emulator.read_file(HOST_SHARE + name);
    } catch (e) {
      // v86 rejects a missing file with "File not found"; anything else is worth showing as is
      if (e instanceof Error && e.message !== "File not found") throw new Error(`reading /mnt/host/${name}: ${e.message}`);
      throw new Error(`no file "${name}" in the guest's /mnt/host: copy it there first (cp <image> /mnt/host/)`);
    }
  }

  async writeSharedFile(name: string, bytes: Uint8Array): Promise<void> {
    if (!this.emulator) throw new Error("the VM is not running");
    await this.emulator.create_file(HOST_SHARE + name, bytes);
  }

  async destroy(): Promise<void> {
    this.generation++; // a machine still waiting for its files is never built
    if (this.timer) clearTimeout(this.timer);
    this.troubles.stopTimers();
    this.releaseIdle(); // (a check waiting for the shell gives up with the machine's agent)
    const e = this.emulator;
    this.emulator = null;
    this.parts.detach();
    if (!e) return;
    // Still downloading: v86 goes on to build and start the machine when the files arrive,
    // and a machine destroyed before that would then post to its closed timer worker (an
    // uncaught error). So it is torn down once it is built.
    if (!this.loaded) {
      e.add_listener("emulator-loaded", () => void VmHost.teardown(e, trackHostFiles(e)));
      return;
    }
    await VmHost.teardown(e, this.parts.hostFiles);
  }

  private static async teardown(e: V86Emulator, files: HostFiles | null): Promise<void> {
    // the page is going away: an error from v86's own teardown is not worth reporting
    try {
      await endEmulator(e, files);
    } catch {
      /* nothing to keep */
    }
  }

  private onByte(byte: number): void {
    this.pending.push(byte);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    // one terminal write per task, not per byte
    queueMicrotask(() => {
      this.flushScheduled = false;
      const bytes = Uint8Array.from(this.pending);
      this.pending = [];
      this.events.onOutput(bytes);
      const text = this.decoder.decode(bytes, { stream: true });
      this.tail = (this.tail + text).slice(-256);
      this.checkIdle();
      if (this.watcher.phase === "ready") this.troubles.feed(text);
      const phase = this.watcher.feed(text);
      if (phase === "userland") this.status("userland", "Starting the shell");
      else if (phase === "ready") {
        if (this.timer) clearTimeout(this.timer);
        markVm("prompt");
        const how = this.coldReason ? `booted cold: ${this.coldReason}` : this.restoredFrom ? `restored ${this.restoredFrom}` : "restored the saved machine";
        this.status("ready", `Ready in ${((performance.now() - this.started) / 1000).toFixed(1)} s (${how})`);
      } else if (phase === "failed") this.fail(this.watcher.failure!);
    });
  }

  private fail(message: string): void {
    this.watcher.phase = "failed";
    if (this.timer) clearTimeout(this.timer);
    this.status("failed", message);
    void this.emulator?.stop();
  }

  private status(phase: BootStatus["phase"], message: string, progress?: number): void {
    this.events.onStatus({ phase, message, progress, elapsedMs: performance.now() - this.started });
  }
}
