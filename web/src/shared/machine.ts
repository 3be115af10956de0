// The guest machine as the rest of the page sees it: what web/src/vm implements (VmConsole's
// handle, the check agent's reply, the trace channel's counters) and topics, labs and shared
// views use. Types only, so shared/ and topics/ need nothing from vm/.

export interface VmHandle {
  /** Type a command line into the guest's shell. */
  type(text: string): void;
  /** Type lines into the shell; resolves when the shell is back at its prompt. */
  run(text: string): Promise<void>;
  /** The bytes of a file the guest put in /mnt/host (the 9p share), e.g. a disk image. */
  readSharedFile(name: string): Promise<Uint8Array>;
  /**
   * Put a file in /mnt/host for the guest to read. The guest caches what it read there: write
   * each content under a name of its own (a name read before may be served from that cache).
   */
  writeSharedFile(name: string, bytes: Uint8Array): Promise<void>;
  /** Run a script through the guest's check agent, out of the learner's shell. */
  check(script: string, timeoutSeconds: number): Promise<CheckRun>;
  /** Whether the shell is running a command (a line entered, its prompt not back yet). */
  shellBusy(): boolean;
  /** How many lines were entered in the shell so far (typed, or from a Run button). */
  shellLines(): number;
  /** Whether the machine stopped (a panic, a reboot, a halt) and waits to be restored. */
  stopped(): boolean;
  /** Whether the page shows trouble with it (a panic, an oops, a stop, a full disk): not a machine to keep. */
  troubled(): boolean;
  /** Resolves once the shell is not running a command. */
  whenIdle(): Promise<void>;
  /** The whole machine, as v86 saves it. */
  saveState(): Promise<ArrayBuffer>;
  /** Put the machine back to a saved state; `note` is written in the terminal. */
  restoreState(state: ArrayBuffer, note: string): Promise<void>;
  /** Start again from the build's saved machine (a new emulator; a new handle follows). */
  restart(): void;
  /** Where this machine came from: "snapshot" (the learner's), "saved" (the build's) or "cold". */
  origin: "snapshot" | "saved" | "cold";
  /**
   * The SD slot beside the machine (vm/machine/devices/): one request as the guest's `sdcard` command
   * makes it ("status", "insert 64M sdsc", "eject"), answered "ok ..." or "error ...".
   */
  sdSlot(request: string): string;
}

/** One script run by the guest's check agent (vm/machine/agent.ts). */
export interface CheckRun {
  /** the script's exit status, or "timeout" when the guest killed it at its time limit */
  status: number | "timeout";
  /** stdout and stderr together, as the guest captured them (at most 8 KiB) */
  output: string;
  /** time the script ran in the guest */
  guestMs: number;
  /** from sending the request to reading the reply */
  roundTripMs: number;
}

/** The trace channel's counters (vm/machine/trace-channel.ts). */
export interface TraceStats {
  lines: number; // event lines received
  lost: number; // lines missing from the sequence
  unknown: number; // lines of events we do not parse
  overrun: number | null; // the kernel ring buffer's dropped events, once the guest reports it
}
