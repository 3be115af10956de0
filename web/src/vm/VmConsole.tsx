// The guest's serial console in xterm.js, with the boot progress above it. The page owns
// one VmHost per lab page; "Run in VM" buttons type into it through the `onReady` handle.
import { useEffect, useRef, useState } from "react";
import { Terminal } from "@xterm/xterm";
import "@xterm/xterm/css/xterm.css";
import { VmHost } from "./vm-host";
import type { BootStatus } from "./guest";
import type { TraceStats } from "./trace-channel";

export interface VmHandle {
  /** Type a command line into the guest's shell. */
  type(text: string): void;
  /** The bytes of a file the guest put in /mnt/host (the 9p share), e.g. a disk image. */
  readSharedFile(name: string): Promise<Uint8Array>;
}

interface Props {
  onReady?: (vm: VmHandle | null) => void;
  onTrace?: (records: Uint32Array, stats: TraceStats, lines: string[]) => void;
}

export function VmConsole({ onReady, onTrace }: Props) {
  const termEl = useRef<HTMLDivElement>(null);
  const hostTrace = useRef(onTrace);
  hostTrace.current = onTrace;
  const [status, setStatus] = useState<BootStatus>({ phase: "loading", elapsedMs: 0, message: "Starting the emulator" });
  const [attempt, setAttempt] = useState({ n: 0, cold: false });
  const [start, setStart] = useState<"restored" | "cold">("restored");

  useEffect(() => {
    // 80x24 fixed: the guest's tty is set to that size, and bash wraps lines by it
    const term = new Terminal({ cols: 80, rows: 24, convertEol: false, cursorBlink: true, fontSize: 13, scrollback: 5000 });
    term.open(termEl.current!);
    const encoder = new TextEncoder();
    const host = new VmHost({
      onOutput: (bytes) => term.write(bytes),
      onTrace: (records, stats, lines) => hostTrace.current?.(records, stats, lines),
      onStatus: (s) => {
        setStatus(s);
        setStart(host.coldReason ? "cold" : "restored");
        if (s.phase === "ready") onReady?.({ type: (text) => host.send(text), readSharedFile: (name) => host.readSharedFile(name) });
      },
    });
    term.onData((data) => host.sendBytes(encoder.encode(data)));
    host.boot(attempt.cold);
    (window as any).__fslabTerminal = term; // read by the e2e tests
    return () => {
      onReady?.(null);
      void host.destroy();
      term.dispose();
    };
  }, [attempt]);

  return (
    <section className="vm" aria-label="Linux terminal">
      <div className={`vm-status vm-${status.phase}`} role="status" data-phase={status.phase} data-start={start}>
        {status.phase === "loading" && <progress max={1} value={status.progress ?? 0} />}
        {(status.phase === "booting" || status.phase === "userland") && <progress />}
        <span>{status.message}</span>
        {status.phase !== "ready" && status.phase !== "failed" && <span className="muted"> · {(status.elapsedMs / 1000).toFixed(0)} s</span>}
        {status.phase === "failed" && <button onClick={() => setAttempt((a) => ({ n: a.n + 1, cold: a.cold }))}>Try again</button>}
        {(status.phase === "ready" || status.phase === "failed") && (
          <button onClick={() => setAttempt((a) => ({ n: a.n + 1, cold: true }))} title="Boot the kernel from scratch instead of restoring the saved machine">
            Cold boot
          </button>
        )}
      </div>
      <div className="vm-terminal" data-testid="vm-terminal" ref={termEl} />
    </section>
  );
}
