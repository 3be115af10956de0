import { rootfsStoredNames } from "../../../../kernel-image/rootfs/chunks.mjs";
import type { ConsoleConfig } from "v86";

// What every host (page, CLI, tests, bench) boots: one definition of the guest machine.
// The files themselves are in kernel-image/dist/ (see its manifest.json).

export const GUEST = {
  /** Room for the labs' disk images in /tmp (tmpfs) beside the page cache. */
  memorySize: 256 * 1024 * 1024,
  // init_on_free: freed pages are zeroed, so the saved state compresses to a few MB.
  // root=host9p: the root is v86's virtio-9p tree (kernel-image/dist/rootfs.json), each file
  // fetched from rootfs/ the first time it is read. cache=0xb is loose's caching without its
  // writeback (fs/9p/v9fs.h: CACHE_LOOSE | CACHE_META | CACHE_FILE): what was read stays in the
  // guest's page cache, executables are mapped from it, and a write reaches the host at once,
  // so the page reads a file the guest just put in /mnt/host whole. ignoreqv: v86 gives every
  // file qid.version 0, which the client otherwise takes for "never cache" and reads through.
  cmdline:
    "console=ttyS0 quiet tsc=reliable random.trust_cpu=on init_on_free=1 " +
    "root=host9p rootfstype=9p rootflags=trans=virtio,version=9p2000.L,cache=0xb,ignoreqv rw init=/init",
  /** The login shell's PS1 (kernel-image/rootfs/overlay/etc/profile): "fslab:<cwd># ". */
  prompt: /fslab:[^\r\n]*# $/,
  /**
   * What the build's saved shell printed last before it was saved: bash's bracketed-paste switch
   * and its prompt in root's home. A page restoring that machine shows it at once instead of
   * asking the shell for a fresh one (a round trip through the guest, 25-40 ms of a warm start).
   * web/src/vm/node/save-state.ts refuses to save a machine whose output ends otherwise.
   */
  savedPrompt: "\x1b[?2004hfslab:~# ",
  /** Printed by /init once the pseudo filesystems are mounted. */
  initDone: "fslab: init done",
  panic: /Kernel panic - not syncing:[^\r\n]*/,
  /** The shell quiet this long, and not at its prompt: a command waits or is stuck (the page says so). */
  quietMs: 60_000,
  /** A cold boot takes ~8–16 s on a 2-core machine; well past that, something is wrong. */
  bootTimeoutMs: 120_000,
} as const;

/**
 * The V86 options every host passes (the files come on top): the saved state only restores
 * into the same machine, so the page and Node must build exactly this one.
 */
export function machineOptions() {
  return {
    memory_size: GUEST.memorySize,
    vga_memory_size: 2 * 1024 * 1024,
    cmdline: GUEST.cmdline,
    // v86 makes every port a console: the guest's /dev/hvc0..3; hvc1 carries fslab-trace. v86 takes
    // `true` for "the device, no terminal adapter", though its typings only know a config.
    virtio_console: true as unknown as ConsoleConfig,
    // the host starts the machine once the SD host is plugged in (devices/sdhci.ts attach()):
    // the firmware must find it on a cold boot
    autostart: false,
    // v86's local APIC, IO-APIC and ACPI PM timer: the guest's clock event device is the
    // APIC's one-shot timer, so its tick stops while it idles (NO_HZ_IDLE,
    // kernel-image/config/fslab.config): the host's CPU at rest
    acpi: true,
    disable_keyboard: true,
    disable_mouse: true,
    disable_speaker: true,
  };
}

/**
 * The guest's root filesystem: the tree (v86's basefs JSON, read on a cold boot; a saved state
 * carries its own copy) and the directory its files are fetched from: `<sha256>.zst`, or a
 * large file's pieces `<sha256>-<i>.zst` (kernel-image/rootfs/chunks.mjs).
 */
export const ROOTFS_JSON = "rootfs.json";
export const ROOTFS_DIR = "rootfs/";

/** The names under rootfs/ that hold the files v86's basefs JSON (kernel-image/rootfs/fs2json.mjs) lists. */
export function rootfsFiles(tree: { fsroot?: unknown }): string[] {
  const names = new Set<string>();
  const walk = (entries: unknown) => {
    if (!Array.isArray(entries)) return;
    for (const e of entries) {
      if (!Array.isArray(e)) continue;
      const [, size, , mode, , , x] = e as [string, number, number, number, number, number, unknown];
      if ((mode & 0o170000) === 0o040000) walk(x);
      else if ((mode & 0o170000) === 0o100000 && typeof x === "string" && /^[0-9a-f]{64}\.zst$/.test(x) && Number.isSafeInteger(size) && size >= 0)
        for (const stored of rootfsStoredNames(x, size)) names.add(stored);
    }
  };
  walk(tree.fsroot);
  return [...names].sort();
}

/** The guest's /mnt/host, where it puts files for the host (disk images), as a 9p path. */
export const HOST_SHARE = "mnt/host/";

/** The saved state (kernel-image/dist/state.bin.xz, see saved-state.ts) and what it must match to be restored. */
export const STATE_FILE = "state.bin.xz";
/** v86's core, gzipped, beside the guest's files (web/vm-files.ts); the page un-gzips it as it compiles. */
export const V86_WASM_GZ = "v86.wasm.gz";
/**
 * The BIOSes, for a cold boot only: a restored machine's memory already holds the copy SeaBIOS
 * ran from (0xC0000-0xFFFFF), and a Linux guest never goes back to the ROM the files would map.
 */
export const BIOS_FILES = { bios: "bios.bin", vga_bios: "vgabios-stdvga.bin" } as const;

export interface StateInfo {
  v86: string; // the v86 package version that saved it
  memory_size: number;
  cmdline: string;
  /** the plain state's size (the file is xz) */
  raw_bytes: number;
}

/** Why a saved state cannot be restored here, or null if it can. */
export function stateMismatch(info: StateInfo | undefined, v86Version: string): string | null {
  if (!info) return "there is no saved state";
  if (info.v86 !== v86Version) return `the saved state is from v86 ${info.v86}, this page runs v86 ${v86Version}`;
  if (info.memory_size !== GUEST.memorySize)
    return `the saved state has ${info.memory_size / 2 ** 20} MiB of memory, this machine ${GUEST.memorySize / 2 ** 20} MiB`;
  if (info.cmdline !== GUEST.cmdline) return "the saved state was booted with another kernel command line";
  return null;
}

export type BootPhase = "loading" | "booting" | "userland" | "ready" | "failed";

export interface BootStatus {
  phase: BootPhase;
  /** 0..1 while loading the kernel files, elapsed seconds afterwards */
  progress?: number;
  elapsedMs: number;
  message: string;
}

/**
 * Follows the serial console through a boot: which phase the guest is in, and whether it
 * failed (a panic, or no prompt in time). Shared by the page and the Node host.
 */
export class BootWatcher {
  private tail = "";
  private sawOutput = false;
  phase: BootPhase = "booting";
  failure: string | null = null;

  /** Feed console text; returns the new phase when it changed. */
  feed(text: string): BootPhase | null {
    this.tail = (this.tail + text).slice(-4096);
    const before = this.phase;
    if (this.phase === "failed" || this.phase === "ready") return null;
    this.sawOutput ||= text.length > 0;
    const panic = this.tail.match(GUEST.panic);
    if (panic) {
      this.phase = "failed";
      this.failure = `The guest kernel panicked: ${panic[0]}`;
    } else if (GUEST.prompt.test(this.tail)) {
      this.phase = "ready";
    } else if (this.tail.includes(GUEST.initDone)) {
      this.phase = "userland";
    }
    return this.phase !== before ? this.phase : null;
  }
}

/** What went wrong in a running guest, in words, with the kernel's own lines where it printed them. */
export interface GuestTrouble {
  kind: "panic" | "oops" | "full" | "oom" | "hung" | "reboot" | "halt";
  /** one line: the kernel's headline ("Kernel panic - not syncing: sysrq triggered crash") */
  headline: string;
  /** the console's lines around it (the oops and the call trace), for the learner to read */
  text: string;
}

// printed on the console at any log level (panic() and oops_begin() raise it), each line after
// the kernel's "[seconds.micros] " stamp (CONFIG_PRINTK_TIME): a learner's echo has none
const STAMP_AT = String.raw`\[\s*\d+\.\d+\] `;
const STAMP = `^${STAMP_AT}`;
const PANIC = new RegExp(`${STAMP}(Kernel panic - not syncing: .*)$`);
const OOPS = new RegExp(`${STAMP}((?:BUG: |Oops: |general protection fault).*)$`);
const PANIC_END = /---\[ end Kernel panic[^\r\n]*/;
// kernel/reboot.c's last words (pr_emerg) before machine_restart/halt/power_off, and SysRq's
// own before an emergency restart: `reboot -f`, `halt -f`, `poweroff -f`, `echo b|o >
// /proc/sysrq-trigger`. Past them the machine runs nothing of the learner's: v86 restarts
// into the BIOS copy in its RAM (there is no BIOS file after a restore), or spins halted.
const STOPPED = new RegExp(`${STAMP}((?:reboot|sysrq): (Restarting system|System halted|Power down|Power off not available|Resetting).*)$`);
const FULL = /No space left on device/;
// bash's word for a job ended by SIGKILL, alone or in its "line N: PID Killed  command" form:
// the out-of-memory killer's signal (or a learner's kill -9; the kernel log tells them apart)
const KILLED = /^(?:\S+: line \d+: +\d+ )?Killed(?:\s|$)/;

/**
 * The kernel's line within a console line: the console is shared, so a line the kernel
 * prints may follow output that did not end its line (`printf x; reboot -f`, the CLI's
 * framing mark) or a prompt with nothing typed at it (`reboot &`, a kworker's oops while the
 * shell waits). Not after a typed command: that is the learner's, whatever it says. (Output
 * that looks exactly like the kernel's, stamp first, is taken for the kernel's: the console
 * cannot tell them apart.)
 */
function kernelPart(line: string): string {
  const at = line.search(new RegExp(STAMP_AT));
  if (at <= 0) return line;
  const before = line.slice(0, at);
  return !/fslab:[^#]*# /.test(before) || /fslab:[^#]*# $/.test(before) ? line.slice(at) : line;
}

/** The kinds of trouble after which nothing runs in the machine, in words: it is stopped until restored. */
export const STOPPED_WHAT = {
  panic: "the guest's kernel panicked",
  reboot: "the guest's kernel restarted the machine",
  halt: "the guest was shut down",
};

/** Trouble after which nothing runs in the machine (a panic, a reboot, a halt). */
export type StoppedTrouble = GuestTrouble & { kind: keyof typeof STOPPED_WHAT };

/** A kind of trouble after which nothing runs in the machine: it is stopped until restored. */
export function machineStopped(t: GuestTrouble | null): t is StoppedTrouble {
  return !!t && t.kind in STOPPED_WHAT;
}

/** The kernel log's out-of-memory report, newest last: `dmesg` output in, its lines out. */
export function oomLines(dmesg: string): string[] {
  return dmesg.split("\n").filter((l) => /Out of memory|oom-kill:|oom_reaper/.test(l)).map((l) => l.trim());
}

/**
 * Watches a running guest's console for what a learner may do to it (the page then says what
 * happened and offers the machine back): a kernel panic (`echo c > /proc/sysrq-trigger`), an
 * oops, a filesystem in RAM that filled up, a reboot or a halt. `feed` returns a trouble once, when it is complete
 * (a panic once its closing line is printed, or `settle()` is called after a quiet moment).
 */
export class TroubleWatcher {
  private lines: string[] = [];
  private partial = "";
  private open: GuestTrouble | null = null;
  /** a job was killed (SIGKILL) since the last look: the host asks the kernel log whether it was out of memory */
  killed = false;
  /** a panic, an oops, a reboot or a halt reported: the machine is not trusted until restored (reset) */
  reported: GuestTrouble | null = null;

  feed(text: string): GuestTrouble | null {
    const all = (this.partial + text).split(/\r?\n/);
    this.partial = all.pop() ?? "";
    if (this.partial.length > 4096) this.partial = this.partial.slice(-4096);
    for (const raw of all) {
      // a carriage return mid-line starts it over (what the terminal shows is after it); no colours
      const line = (raw.replace(/\r+$/, "").split("\r").pop() ?? "").replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "");
      this.lines.push(line);
      if (this.lines.length > 200) this.lines.shift();
      const found = this.take(kernelPart(line));
      if (found) return found;
    }
    return null;
  }

  private take(line: string): GuestTrouble | null {
    if (machineStopped(this.reported)) return null; // nothing after a panic or a halt is news
    if (this.open?.kind === "panic" && PANIC_END.test(line)) return this.finish();
    if (this.open?.kind === "oops" && /---\[ end trace/.test(line)) return this.finish();
    const panic = line.match(PANIC);
    // a panic during an oops (panic_on_oops, or the oops killed init) is the news
    if (panic && this.open?.kind !== "panic") {
      this.open = { kind: "panic", headline: panic[1], text: "" };
      return null;
    }
    const oops = line.match(OOPS);
    if (oops && !this.open) {
      this.open = { kind: "oops", headline: oops[1], text: "" };
      return null;
    }
    const stopped = line.match(STOPPED);
    if (stopped && this.open?.kind !== "panic") {
      // an oops being printed when the machine stops (a learner's `reboot -f` mid-report) is
      // over too: the stop is the news, and the report so far is in the text
      this.open = null;
      return this.report({ kind: stopped[2] === "Restarting system" || stopped[2] === "Resetting" ? "reboot" : "halt", headline: stopped[1], text: this.sinceCommand() });
    }
    if (!this.open && KILLED.test(line)) this.killed = true;
    if (!this.open && FULL.test(line)) {
      return this.report({ kind: "full", headline: line.trim(), text: line.trim() });
    }
    return null;
  }

  /** After a quiet moment: a panic or oops whose closing line never came is reported as it is. */
  settle(): GuestTrouble | null {
    return this.open ? this.finish() : null;
  }

  private finish(): GuestTrouble {
    const t = this.open!;
    this.open = null;
    return this.report({ ...t, text: this.sinceCommand() });
  }

  /** the console's lines from the shell's last prompt (the command) on, at most 120 */
  private sinceCommand(): string {
    let from = this.lines.length - 1;
    while (from > 0 && !/fslab:[^#\n]*# /.test(this.lines[from - 1])) from--;
    return this.lines.slice(Math.max(from, this.lines.length - 120)).join("\n").trim();
  }

  private report(t: GuestTrouble): GuestTrouble {
    if (t.kind !== "full") this.reported = t;
    return t;
  }

  /** The machine was put back: watch afresh. */
  reset(): void {
    this.lines = [];
    this.partial = "";
    this.open = null;
    this.reported = null;
    this.killed = false;
  }
}
