import type { ConsoleConfig } from "v86";

// What every host (page, CLI, tests, bench) boots: one definition of the guest machine.
// The files themselves are in kernel-image/dist/ (see its manifest.json).

export const GUEST = {
  /** v86 loads the initrd at 64 MiB, so the machine needs well over that. */
  memorySize: 256 * 1024 * 1024,
  // init_on_free: freed pages are zeroed, so the saved state compresses to a few MB
  cmdline: "console=ttyS0 quiet tsc=reliable random.trust_cpu=on init_on_free=1",
  /** The login shell's PS1 (kernel-image/rootfs/overlay/etc/profile): "fslab:<cwd># ". */
  prompt: /fslab:[^\r\n]*# $/,
  /** Printed by /init once the pseudo filesystems are mounted. */
  initDone: "fslab: init done",
  panic: /Kernel panic - not syncing:[^\r\n]*/,
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
    filesystem: {}, // virtio-9p: the guest mounts it at /mnt/host
    // v86 makes every port a console: the guest's /dev/hvc0..3; hvc1 carries fslab-trace. v86 takes
    // `true` for "the device, no terminal adapter", though its typings only know a config.
    virtio_console: true as unknown as ConsoleConfig,
    autostart: true,
    disable_keyboard: true,
    disable_mouse: true,
    disable_speaker: true,
  };
}

/** The saved state (kernel-image/dist/state.bin.zst) and what it must match to be restored. */
export const STATE_FILE = "state.bin.zst";

export interface StateInfo {
  v86: string; // the v86 package version that saved it
  memory_size: number;
  cmdline: string;
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
