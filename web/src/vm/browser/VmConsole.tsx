// The guest's serial console in xterm.js, with the boot progress above it. The page owns
// one VmHost per lab page; "Run in VM" buttons type into it through the `onReady` handle.
import { slotRequest } from "../machine/devices/slot-channel";
import { useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { Terminal } from "@xterm/xterm";
import { FitAddon } from "@xterm/addon-fit";
import "@xterm/xterm/css/xterm.css";
import { VmHost } from "./vm-host";
import { machineStopped, STOPPED_WHAT, type BootStatus, type GuestTrouble } from "../machine/guest";
import type { TraceStats, VmHandle } from "../../shared/machine";
import type { BufferKept } from "../../shared/live-buffer";
import { promptQuiet } from "../../shared/prompt-quiet";

// the handle is declared in shared/machine.ts (topics and labs import it there), implemented here


export interface StartFrom {
  state: ArrayBuffer;
  /** for the status line: "your machine from step 3" */
  label: string;
}

interface Props {
  onReady?: (vm: VmHandle | null) => void;
  onTrace?: (records: Uint32Array, stats: TraceStats, lines: string[], undone: number) => void;
  /** what the page holds of the trace, kept with each machine saved (VmHostEvents) */
  keptTrace?: () => BufferKept | null;
  /** a learner's machine starts with the trace kept with it */
  onTraceRestored?: (kept: BufferKept, stats: TraceStats) => void;
  /** once the guest is up (e.g. to keep its files for offline use) */
  onBooted?: () => void;
  /** A learner's snapshot to start from instead of the build's saved machine (first start only). */
  startFrom?: StartFrom | null;
  /**
   * "Restore the machine" after a panic, an oops or a full disk: the page puts back what it
   * kept (a lab: the step's snapshot). Without it, the build's saved machine starts again.
   */
  onRestore?: () => void;
  /**
   * The machine is ready again on the same handle: put back to a saved state (a reset, a
   * restore after a crash) or booted again. What the page put in the guest may be gone.
   */
  onReadyAgain?: () => void;
  /** the page's buttons for the terminal's height, drawn beside the status line (LabPage) */
  sizes?: ReactNode;
}

const sentence = (words: string) => words[0].toUpperCase() + words.slice(1);

const TROUBLE_TEXT: Record<GuestTrouble["kind"], { title: string; body: string }> = {
  panic: {
    title: sentence(STOPPED_WHAT.panic),
    body: "The machine has stopped: nothing more runs in it. Your lab progress is kept. Restore the machine to go on.",
  },
  oops: {
    title: "The guest's kernel hit a bug (an oops)",
    body: "It killed the process that ran into it and carries on, but it may not be trustworthy from here. Your lab progress is kept; restoring the machine is safest.",
  },
  oom: {
    title: "The guest ran out of memory",
    body: "The kernel's out-of-memory killer ended the biggest program to keep the machine alive (256 MiB for everything, the files in / and /tmp included). The machine goes on and your lab progress is kept: remove big files from /tmp, or restore the machine.",
  },
  hung: {
    title: "A command has been quiet for a minute",
    body: "The shell is not back at its prompt: the command may be waiting for input, a device or a lock, or be stuck. Ctrl+C in the terminal stops most commands; if it does not, restore the machine.",
  },
  reboot: {
    title: sentence(STOPPED_WHAT.reboot),
    body: "A real machine would boot again from its disk; this one has none, so it stops here (the page starts its machines from saved ones). Your lab progress is kept. Restore the machine to go on.",
  },
  halt: {
    title: sentence(STOPPED_WHAT.halt),
    body: "The kernel halted the machine: nothing more runs in it. Your lab progress is kept. Restore the machine to go on.",
  },
  full: {
    title: "A filesystem in the guest's memory is full",
    body: "The guest's / and /tmp live in its RAM (256 MiB for everything). Remove what you made there with rm, or restore the machine.",
  },
};

/** the machine stopped, or cannot be trusted: the way out takes the keyboard, and there is no dismissing it */
const serious = (t: GuestTrouble | null) => machineStopped(t) || t?.kind === "oops";

export function VmConsole({ onReady, onTrace, keptTrace, onTraceRestored, startFrom, onBooted, onRestore, onReadyAgain, sizes }: Props) {
  const termEl = useRef<HTMLDivElement>(null);
  const termHint = useRef<HTMLParagraphElement>(null);
  const hostTrace = useRef({ onTrace, keptTrace, onTraceRestored });
  hostTrace.current = { onTrace, keptTrace, onTraceRestored };
  const [status, setStatus] = useState<BootStatus>({ phase: "loading", elapsedMs: 0, message: "Starting the emulator" });
  const [attempt, setAttempt] = useState({ n: 0, cold: false });
  const [start, setStart] = useState<"restored" | "cold">("restored");
  const [trouble, setTrouble] = useState<GuestTrouble | null>(null);
  // the handle's troubled(), read outside React's renders
  const troubleNow = useRef<GuestTrouble | null>(null);
  troubleNow.current = trouble;
  const troubleRef = useRef<HTMLDivElement>(null);
  /** the keyboard was on the notice when its machine went away: the new terminal takes it */
  const focusTerminal = useRef(false);
  const restart = () => {
    focusTerminal.current = !!troubleRef.current?.contains(document.activeElement);
    setAttempt((a) => ({ n: a.n + 1, cold: false }));
  };

  useEffect(() => {
    // 80x24 until the pane is measured: then as many columns as fit its width (and, docked at
    // a phone's bottom, as many rows as fit its height), and the guest's tty is told (fitTerminal)
    // a steady cursor: blinking, the focused terminal repainted twice a second and took the
    // renderer from 3.9% to 25% of a core at rest (Chromium, 2 cores, 2026-11-29; issue 52), and
    // a blink that never stops is what WCAG 2.2.2 asks a page to let the user stop
    const term = new Terminal({ cols: 80, rows: 24, convertEol: false, cursorBlink: false, fontSize: 13, scrollback: 5000 });
    const fit = new FitAddon();
    term.loadAddon(fit);
    term.open(termEl.current!);
    const sized = fitTerminal(term, fit, termEl.current!, (cols, rows) => host.agent.run(`stty -F /dev/ttyS0 cols ${cols} rows ${rows}`, 5));
    if (focusTerminal.current) term.focus();
    focusTerminal.current = false;
    const encoder = new TextEncoder();
    let serializer: Promise<() => string> | undefined;
    /**
     * The page's handle to this machine: one per host, given again at each "ready" (a reset's
     * restore): a new one there made the lab keep the step's start again after every reset.
     */
    let handle: VmHandle | null = null;
    // a learner's snapshot only on the first start: "Try again" and "Cold boot" leave it
    const snapshot = attempt.n === 0 && !attempt.cold ? startFrom : null;
    setTrouble(null);
    const host = new VmHost({
      onOutput: (bytes) => {
        term.write(bytes);
        // the shell spoke again: a quiet command is quiet no more
        setTrouble((t) => (t?.kind === "hung" ? null : t));
      },
      // a panic, an oops or a stop outranks a full disk; a full disk again is the same news
      onTrouble: (t) => setTrouble((old) => (serious(old) && !serious(t) ? old : t)),
      onTrace: (records, stats, lines, undone) => hostTrace.current.onTrace?.(records, stats, lines, undone),
      keptTrace: () => hostTrace.current.keptTrace?.() ?? null,
      onTraceRestored: (kept, stats) => hostTrace.current.onTraceRestored?.(kept, stats),
      // kept with each machine a lab keeps (its addon loaded at the first: not before the first answer)
      screen: () => (serializer ??= import("@xterm/addon-serialize").then(({ SerializeAddon }) => {
        const addon = new SerializeAddon();
        term.loadAddon(addon);
        return () => addon.serialize();
      })),
      onStatus: (s) => {
        const origin = snapshot ? "snapshot" : host.coldReason ? "cold" : "saved";
        if (s.phase === "failed" && snapshot) s = { ...s, message: `${s.message} (starting from ${snapshot.label}). "Try again" starts the lab's own saved machine instead.` };
        setStatus(s);
        setStart(host.coldReason ? "cold" : "restored");
        if (s.phase === "ready") onBooted?.();
        // (after the first command a learner types at once, which has the guest to itself)
        if (s.phase === "ready") void promptQuiet({ whenIdle: () => host.whenIdle(), shellBusy: () => host.shellBusy, shellLines: () => host.shellLines }, sized.stopped).then(sized.tell);
        if (s.phase === "ready" && handle) onReadyAgain?.();
        if (s.phase === "ready")
          onReady?.((handle ??= {
            type: (text) => host.send(text),
            run: (text) => host.typeAndWait(text),
            readSharedFile: (name) => host.readSharedFile(name),
            writeSharedFile: (name, bytes) => host.writeSharedFile(name, bytes),
            check: (script, t) => host.agent.run(script, t),
            shellBusy: () => host.shellBusy,
            shellLines: () => host.shellLines,
            stopped: () => host.stopped,
            // (an out-of-memory kill or a quiet command leaves a machine that goes on)
            troubled: () => serious(troubleNow.current) || troubleNow.current?.kind === "full",
            whenIdle: () => host.whenIdle(),
            saveState: () => host.saveState(),
            restoreState: async (state, note) => {
              await host.restoreState(state, `Ready: ${note.charAt(0).toLowerCase()}${note.slice(1).replace(/\.$/, "")}`);
              // the notice (and its Restore button, which may hold the keyboard) goes: the
              // terminal takes the focus, not the page's body
              if (troubleRef.current?.contains(document.activeElement)) term.focus();
              setTrouble(null);
              term.write(`\r\n\x1b[7m ${note} \x1b[0m\r\n`);
            },
            restart,
            origin,
            sdSlot: (request) => slotRequest(host.sd, request),
          }));
      },
    });
    term.onData((data) => host.sendBytes(encoder.encode(data)));
    // No keyboard trap (WCAG 2.1.2): Tab is the shell's (completion), so Escape then Tab (or
    // Shift+Tab) leaves the terminal. The Escape is held back until the next key: before a
    // Tab it is dropped, before anything else it goes to the shell first (readline's meta).
    let escaped = false;
    term.attachCustomKeyEventHandler((e) => {
      if (e.type !== "keydown") return true;
      if (e.key === "Escape" && !e.ctrlKey && !e.altKey && !e.metaKey && !escaped) {
        escaped = true;
        return false;
      }
      if (escaped && e.key === "Tab") {
        escaped = false;
        return false; // not the terminal's: the browser moves focus on
      }
      if (escaped && !["Shift", "Control", "Alt", "Meta"].includes(e.key)) {
        escaped = false;
        host.sendBytes(encoder.encode("\x1b"));
      }
      return true;
    });
    const hint = termHint.current!;
    // shown while the terminal has focus; its space is kept, so nothing moves when focus does
    const onFocus = () => (hint.style.visibility = "visible");
    const onBlur = () => {
      hint.style.visibility = "hidden";
      escaped = false;
    };
    term.textarea?.setAttribute("aria-describedby", hint.id);
    term.textarea?.addEventListener("focus", onFocus);
    term.textarea?.addEventListener("blur", onBlur);
    host.boot(attempt.cold, snapshot ?? undefined);
    (window as Window & { __fslabTerminal?: Terminal }).__fslabTerminal = term; // read by the e2e tests
    return () => {
      sized.stop();
      onReady?.(null);
      void host.destroy();
      term.dispose();
    };
  }, [attempt]);

  // the learner is told at once, and the keyboard lands on the way out
  useEffect(() => {
    if (serious(trouble)) troubleRef.current?.querySelector("button")?.focus();
  }, [trouble]);

  const paused = useFrozenPauses();
  const stoppedBy = machineStopped(trouble) ? trouble : null;
  return (
    <section className="vm" aria-label="Linux terminal">
      {trouble && (
        <div className={`vm-trouble vm-trouble-${trouble.kind}`} role="alert" data-testid="vm-trouble" data-kind={trouble.kind} ref={troubleRef}>
          <strong>{TROUBLE_TEXT[trouble.kind].title}</strong>: <code>{trouble.headline}</code>. {TROUBLE_TEXT[trouble.kind].body}{" "}
          <button onClick={() => (onRestore ? onRestore() : restart())} data-testid="restore-machine">
            Restore the machine
          </button>
          {(trouble.kind === "full" || trouble.kind === "oom" || trouble.kind === "hung") && (
            <>
              {" "}
              <button onClick={() => setTrouble(null)}>Dismiss</button>
            </>
          )}
          {serious(trouble) && (
            <details>
              <summary>{trouble.kind === "panic" || trouble.kind === "oops" ? "The kernel's report" : "The console's last lines"}</summary>
              <pre tabIndex={0} aria-label="the kernel's report" data-testid="vm-trouble-text">{trouble.text}</pre>
            </details>
          )}
        </div>
      )}
      <div className="vm-head">
        <div className={`vm-status vm-${stoppedBy ? "stopped" : status.phase}`} role="status" data-phase={status.phase} data-start={start}>
          {status.phase === "loading" && <progress max={1} value={status.progress ?? 0} />}
          {(status.phase === "booting" || status.phase === "userland") && <progress />}
          {/* the machine stopped under a status that said it was ready: say so until it is restored */}
          <span>{stoppedBy ? `Stopped: ${STOPPED_WHAT[stoppedBy.kind]}` : status.message}</span>
          {status.phase !== "ready" && status.phase !== "failed" && <Elapsed ms={status.elapsedMs} />}
          {status.phase === "failed" && <button onClick={() => setAttempt((a) => ({ n: a.n + 1, cold: a.cold }))}>Try again</button>}
          {(status.phase === "ready" || status.phase === "failed") && (
            <button onClick={() => setAttempt((a) => ({ n: a.n + 1, cold: true }))} title="Boot the kernel from scratch instead of restoring the saved machine">
              Cold boot
            </button>
          )}
        </div>
        {sizes}
      </div>
      {paused !== null && (
        <p className="notice" role="status" data-testid="vm-paused">
          The browser froze this tab for {(paused.ms / 1000).toFixed(1)} s (a tab in the background may be): the machine stood
          still meanwhile, and a time measured across the pause (fio&apos;s latencies, a benchmark) includes it. Run such a
          measurement again with the tab in front.{" "}
          <button type="button" onClick={paused.dismiss}>Dismiss</button>
        </p>
      )}
      <div className="vm-terminal" data-testid="vm-terminal" ref={termEl} />
      <p className="vm-keys muted" id="vm-keys" ref={termHint} style={{ visibility: "hidden" }} data-testid="vm-keys">
        Tab completes in the shell. To leave the terminal with the keyboard: <kbd>Esc</kbd> then <kbd>Tab</kbd> (or <kbd>Shift</kbd>+<kbd>Tab</kbd>).
      </p>
    </section>
  );
}

/**
 * The terminal sized to its pane: its columns fit the pane's width (never fewer than 20); its
 * rows fit the pane's height when the pane has one of its own (docked at a phone's bottom, or
 * sticking at the top of a wide screen's column: styles.css), else 24. The guest's tty learns each new size through the check agent
 * (`stty -F /dev/ttyS0`), out of the learner's shell, so bash and full-screen programs wrap
 * where the terminal does; `tell` sends it (again) once the guest is up and its first prompt
 * has stood a moment (prompt-quiet.ts).
 */
function fitTerminal(term: Terminal, fit: FitAddon, el: HTMLElement, resizeTty: (cols: number, rows: number) => Promise<unknown>) {
  let told = "";
  let ready = false;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const tell = () => {
    if (stopped) return;
    ready = true;
    const size = `${term.cols}x${term.rows}`;
    if (size === told) return;
    told = size;
    resizeTty(term.cols, term.rows).catch((e) => console.warn(`fslab: the guest's terminal size could not be set: ${e}`));
  };
  const measure = () => {
    const d = fit.proposeDimensions();
    if (!d || !Number.isFinite(d.cols) || d.cols < 1) return;
    const pane = el.closest(".vm");
    // docked at a phone's bottom, or sticking at the top of a wide screen's column: a height of its own
    const docked = !!pane && ["fixed", "sticky"].includes(getComputedStyle(pane).position);
    const cols = Math.max(20, d.cols);
    const rows = docked ? Math.max(4, d.rows) : 24;
    if (cols !== term.cols || rows !== term.rows) term.resize(cols, rows);
    clearTimeout(timer);
    if (ready) timer = setTimeout(tell, 300);
  };
  const ro = new ResizeObserver(measure);
  ro.observe(el);
  measure();
  return {
    tell,
    stopped: () => stopped,
    stop() {
      stopped = true;
      ro.disconnect();
      clearTimeout(timer);
    },
  };
}

/**
 * The seconds since the start, counting on between the host's status reports: a cold boot
 * reports "Booting Linux" once and then nothing for about 7 s, and a still number looks hung.
 * Hidden from screen readers: the status line is a live region, and would read every second.
 */
function Elapsed({ ms }: { ms: number }) {
  const since = useMemo(() => performance.now() - ms, [ms]);
  const [, tick] = useState(0);
  useEffect(() => {
    const t = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(t);
  }, []);
  return (
    <span className="muted" aria-hidden="true" data-testid="vm-elapsed">
      {" "}
      · {((performance.now() - since) / 1000).toFixed(0)} s
    </span>
  );
}

/**
 * How long the browser last froze the page (the Page Lifecycle API's freeze and resume: a
 * background tab may be frozen to save power), while the machine ran. A hidden tab alone does
 * not stop the machine: v86 paces itself through its worker, whose timers a background tab does
 * not throttle, so the emulated card's clock goes on with the guest's.
 */
function useFrozenPauses(): { ms: number; dismiss(): void } | null {
  const [paused, setPaused] = useState<number | null>(null);
  useEffect(() => {
    let frozenAt: number | null = null;
    const freeze = () => (frozenAt = Date.now()); // performance.now() stands still in a frozen page on some browsers
    const resume = () => {
      if (frozenAt !== null) setPaused(Date.now() - frozenAt);
      frozenAt = null;
    };
    document.addEventListener("freeze", freeze);
    document.addEventListener("resume", resume);
    return () => {
      document.removeEventListener("freeze", freeze);
      document.removeEventListener("resume", resume);
    };
  }, []);
  return paused === null ? null : { ms: paused, dismiss: () => setPaused(null) };
}
