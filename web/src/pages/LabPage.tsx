// One lab: its steps, one at a time (LabRunner), beside the guest's terminal and the lab's
// views. Before the VM starts, the learner's stored progress and newest machine are looked up
// in IndexedDB: a reload comes back to the same step, on the same machine.
import { Suspense, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { seededLab, useLab } from "../labs/registry";
import { newLabIdentity } from "../labs/learner";
import { LabRunner, type ViewsHold } from "../labs/LabRunner";
import { LabErrors } from "../labs/LabErrors";
import { loadProgress, openStore, saveProgress, type LabProgress } from "../labs/progress";
import { seenEvent, type SeenEvent, type Verdict } from "../labs/expect";
import { sha256Hex } from "../labs/report";
import type { Lab } from "../labs/lab-format";
import { VmConsole, type StartFrom } from "../vm/browser/VmConsole";
import type { VmHandle } from "../shared/machine";
import { GUEST_BUILD } from "../vm/browser/snapshot";
import { findMachine, takeMachineAhead, type Machine } from "./find-machine";
import { view } from "../topics";
import { lazyOf } from "../shared/lazy";
import { promptQuiet } from "../shared/prompt-quiet";
import type { LiveTrace } from "../shared/topic";
import type { TraceStats } from "../vm/machine/trace-channel";
import { LiveBuffer, type BufferKept } from "../shared/live-buffer";
import { keepLabOffline } from "../vm/browser/keep-offline";
import { serviceWorkerRegistered } from "../update";
import { prepareV86 } from "../vm/browser/fetch-ahead";
import { KernelLog } from "../vm/browser/KernelLog";
import { CourseNav } from "../labs/CourseNav";
import { useLabFiles } from "../labs/useLabFiles";
import { OneTab } from "../labs/OneTab";
import { applyLms, claimLab, connectLms, reportToLms, type LmsLink, type LmsState } from "../labs/lms-link";

function keepOffline(labId: string) {
  // a preview lab has no file on the site to keep
  if (labId.startsWith("preview-")) return;
  // kept for the service worker to serve offline: without one registered, a copy serves nothing
  void serviceWorkerRegistered.then((ok) => {
    if (ok) keepLabOffline(labId).catch((e) => console.warn(`fslab: the lab could not be kept for offline use: ${e}`));
  });
}
import { outputs } from "@kernel/manifest.json";

/** Events kept for a step's `expect` blocks; beyond this the oldest go. */
const MAX_STEP_EVENTS = 100_000;

/** what the views are given of the buffer */
const liveOf = (b: LiveBuffer, stats: TraceStats): LiveTrace => ({
  events: b.events,
  stats,
  lines: b.lines,
  version: b.version,
  dropped: b.droppedRecords || b.droppedLines ? { records: b.droppedRecords, lines: b.droppedLines } : undefined,
});

interface Session {
  /** reading the progress and the stored machine from IndexedDB, and unpacking it */
  ms: number;
  progress: LabProgress;
  notices: string[];
  startFrom: StartFrom | null;
  restoredStep: number | null;
  /** the machine could not come back: offer to rerun the passed steps' commands */
  rerun: boolean;
  /** the machine was left mid-step in the step that opens: the events that step had seen */
  stepEvents?: SeenEvent[];
}

async function openSession(lab: Lab, source: string, machine: Promise<Machine>, lms: LmsLink | null): Promise<Session> {
  const t0 = performance.now();
  const s = await readSession(lab, source, machine, lms);
  return { ...s, ms: performance.now() - t0 };
}

/** The machine for an LMS's learner: another learner's lab in this browser is put away first (claimLab). */
async function findLabMachine(labId: string, lmsState: Promise<LmsState>): Promise<Machine> {
  const lms = (await lmsState).link;
  const claimed = lms ? await claimLab(labId, lms) : undefined;
  // (without an LMS, the lookup App.tsx started as the page opened)
  const m = await (lms ? findMachine(labId) : takeMachineAhead(labId));
  return claimed ? { ...m, notice: [claimed, m.notice].filter(Boolean).join(" ") } : m;
}

async function readSession(lab: Lab, source: string, machine: Promise<Machine>, lms: LmsLink | null): Promise<Omit<Session, "ms">> {
  const hash = await sha256Hex(source);
  // an LMS's learner: another learner's lab in this browser is put away (findLabMachine) before
  // the progress is read; otherwise the machine's lookup goes on beside the reading
  const early = lms ? await machine : null;
  const { progress, notice } = await loadProgress(lab.meta.id, hash, GUEST_BUILD, lab.steps.map((s) => s.title));
  // whose problem a seeded lab is: the LMS's learner, or drawn as it starts, and kept with its progress from then on
  let lmsNotice: string | undefined;
  if (lms) {
    lmsNotice = applyLms(progress, lab, lms);
    saveProgress(progress).catch(() => undefined);
  } else if (!progress.identity && lab.meta.seed.length) {
    progress.identity = newLabIdentity();
    saveProgress(progress).catch(() => undefined); // a store that refuses says so at the next save
  }
  const m = early ?? (await machine);
  // IndexedDB failing to open is one notice, though the progress and the machine both met it
  const notices = [...new Set([notice, m.notice, lmsNotice])].filter((n): n is string => !!n);
  const anyPassed = progress.steps.some((s) => s.passedAt);
  // the passed steps' work is not on the machine that starts: offer to redo it
  const rerun = m.startFrom ? false : m.stored ? anyPassed : anyPassed && progress.step > 0;
  const stepEvents = m.stepEvents && m.restoredStep === progress.step ? m.stepEvents : undefined;
  return { progress, notices, startFrom: m.startFrom, restoredStep: m.restoredStep, rerun, ...(stepEvents ? { stepEvents } : {}) };
}

/** A lab in an iframe (embed/EmbedPage.tsx): the VM waits for a click or a "start" message. */
export interface LabEmbed {
  startRequest: number;
  resetRequest: number;
  onStepPassed(step: number, title: string): void;
}

const stateBytes = (outputs as Record<string, { bytes: number }>)["state.bin.xz"]?.bytes ?? 0;

/**
 * One lab, in one tab at a time (OneTab.tsx): a second tab on it shows a notice instead. Not an
 * embed (its storage is its host page's, or that page's partition) nor an author's preview.
 */
export const LabPage = (p: { id: string; embed?: LabEmbed }) => (p.embed || p.id === "preview" ? <OneLab {...p} /> : <OneTab lab={p.id}><OneLab {...p} /></OneTab>);

function OneLab({ id, embed }: { id: string; embed?: LabEmbed }) {
  const [vmWanted, setVmWanted] = useState(!embed);
  /** counts the learner's "Restore the machine" after a crash: the runner puts back the step's snapshot */
  const [machineAsk, setMachineAsk] = useState(0);
  useEffect(() => {
    if (embed?.startRequest) setVmWanted(true);
  }, [embed?.startRequest]);
  // v86's core compiles while the lab's text and the learner's progress are read
  useEffect(() => {
    if (vmWanted) prepareV86();
  }, [vmWanted]);
  useEffect(openStore, []);
  const entry = useLab(id);
  // a site lab's id is its folder's (lab-format.ts checks): its machine is looked up at once; a
  // preview's id comes from its text
  const machineId = id === "preview" ? (entry?.lab?.meta.id ?? null) : id;
  // launched from a SCORM package: the LMS says who the learner is (labs/lms-link.ts)
  // (for the lab the package launched: another lab opened from its page is not the SCO's)
  const lmsP = useMemo(() => (embed ? Promise.resolve<LmsState>({ link: null, note: "" }) : connectLms().then((l) => (l.link && l.link.lab !== id ? { link: null, note: "" } : l))), [embed, id]);
  const [lms, setLms] = useState<LmsState>({ link: null, note: "" });
  useEffect(() => void lmsP.then(setLms), [lmsP]);
  const machine = useMemo(() => (machineId ? findLabMachine(machineId, lmsP) : null), [machineId, lmsP]);
  // the machine to start, once looked up: the VM starts then, not after the lab's text
  const [found, setFound] = useState<Machine | null>(null);
  useEffect(() => {
    setFound(null);
    if (!machine) return;
    let live = true;
    void machine.then((m) => live && setFound(m));
    return () => void (live = false);
  }, [machine]);
  const [vm, setVm] = useState<VmHandle | null>(null);
  /** counts the machine ready again on the same handle (a reset, a restore, a reboot): what the page put in it is put again */
  const [machineGen, setMachineGen] = useState(0);
  /**
   * The terminal's height (styles.css): about half the screen, most of it, or its status line
   * alone. On a phone it is docked at the bottom; on a wider screen it sticks at the top of its
   * column, and the views pass under it, so a short screen wants it smaller to see them.
   */
  const [dock, setDock] = useState<"half" | "full" | "min">("half");
  // The lab's views (their chunks, D3, a first render: 20-30 ms of the page's thread) wait for
  // the VM's prompt to have stood a moment and then an idle moment, so a warm start's restore
  // and its first command do not share the thread with them. (An idle moment alone came between
  // two of the emulator's slices, inside a command typed at once.) Without a VM to wait for, or
  // after 3 s, they come at once.
  const [viewsOn, setViewsOn] = useState(!vmWanted);
  useEffect(() => {
    if (viewsOn) return;
    if (!vmWanted) return setViewsOn(true);
    const on = () => setViewsOn(true);
    const late = setTimeout(on, 3000);
    let idle: number | null = null;
    let gone = false;
    if (vm)
      void promptQuiet(vm, () => gone).then(() => {
        if (!gone) idle = typeof requestIdleCallback === "function" ? requestIdleCallback(on, { timeout: 1000 }) : Number(setTimeout(on, 100));
      });
    return () => {
      gone = true;
      clearTimeout(late);
      if (idle !== null) (typeof cancelIdleCallback === "function" ? cancelIdleCallback : clearTimeout)(idle);
    };
  }, [vm, vmWanted, viewsOn]);
  const [session, setSession] = useState<Session | null>(null);
  const runInGuest = useMemo(() => (vm ? (script: string, t: number) => vm.check(script, t) : null), [vm]);
  const filesIssue = useLabFiles(entry?.lab, runInGuest, !!entry?.preview, machineGen);
  const [verdicts, setVerdicts] = useState<Record<string, Verdict>>({});
  /** what the views hold back: a prediction open in the step (they wait), a challenge not passed up to it, an unanswered keyed question (LabRunner) */
  const [hold, setHold] = useState<ViewsHold>({ predicts: false, challenge: false, answers: [] });
  // the streamed events, in one bounded buffer for the page's life (not a copy of all so far per batch)
  const buffer = useRef(new LiveBuffer());
  const stepEvents = useRef<SeenEvent[]>([]);
  const [live, setLive] = useState<LiveTrace>(() => ({ events: new Uint32Array(0), stats: null, lines: buffer.current.lines, version: 0 }));
  const onTrace = useCallback((records: Uint32Array, stats: TraceStats, lines: string[], undone: number) => {
    const b = buffer.current;
    b.append(records, lines, undone);
    const seen = stepEvents.current;
    for (const l of lines) {
      const e = seenEvent(l);
      if (e) seen.push(e);
    }
    if (seen.length > MAX_STEP_EVENTS) seen.splice(0, seen.length - MAX_STEP_EVENTS);
    setLive(liveOf(b, stats));
  }, []);
  // what the panels showed, kept with each machine the lab keeps, and back with it after a reload
  const keptTrace = useCallback(() => buffer.current.kept(), []);
  const onTraceRestored = useCallback((kept: BufferKept, stats: TraceStats) => {
    buffer.current.restore(kept);
    setLive(liveOf(buffer.current, stats));
  }, []);
  const events = useCallback(() => stepEvents.current, []);
  /** a machine left mid-step: its step's events, which the step's first opening takes back */
  const resumed = useRef<SeenEvent[] | null>(null);
  /** they were taken back: a machine that starts otherwise (its restore failed) drops them */
  const resumedIn = useRef(false);
  const clearEvents = useCallback(() => {
    // (with what arrived from the machine since it started)
    stepEvents.current = resumed.current ? [...resumed.current, ...stepEvents.current] : [];
    resumedIn.current = !!resumed.current;
    resumed.current = null;
  }, []);
  const onReady = useCallback((h: VmHandle | null) => {
    if (h && h.origin !== "snapshot" && (resumed.current || resumedIn.current)) {
      // the left machine did not come back ("Try again", a cold boot): its events are not this machine's
      resumed.current = null;
      resumedIn.current = false;
      stepEvents.current = [];
    }
    setVm(h);
  }, []);

  useEffect(() => {
    if (!entry?.lab || !machine) return;
    let live = true;
    void lmsP
      .then((l) => openSession(entry.lab!, entry.source, machine, l.link))
      .then((s) => {
        if (!live) return;
        resumed.current = s.stepEvents ?? null;
        setSession(s);
      });
    return () => void (live = false);
  }, [entry, machine]);
  // each change of the progress goes to the LMS; a refusal is said once, and reporting stops
  const [lmsNote, setLmsNote] = useState<string | null>(null);
  const pageStart = useRef(Date.now());
  const lastProgress = useRef<LabProgress | null>(null);
  // a bridge's LMS refuses later, by message
  useEffect(() => {
    if (lms.link) lms.link.session.onError = (m) => setLmsNote(`Your LMS stopped taking your progress (${m}): it stays in this browser, and the lab goes on.`);
  }, [lms]);
  /** the lab as the learner's problem, for the LMS's report of a progress */
  const tell = (link: LmsLink, p: LabProgress) => entry?.lab && reportToLms(link, p, seededLab(entry, p.identity) ?? entry.lab, pageStart.current);
  const onProgress = useCallback(
    (p: LabProgress) => {
      lastProgress.current = p;
      const link = lms.link;
      if (!link || lmsNote) return;
      try {
        tell(link, p);
      } catch (e) {
        setLmsNote(`Your LMS stopped taking your progress (${e instanceof Error ? e.message : e}): it stays in this browser, and the lab goes on.`);
      }
    },
    [lms, lmsNote, entry],
  );
  // leaving the page ends the LMS's session, with the progress as it is then
  useEffect(() => {
    const link = lms.link;
    if (!link) return;
    const end = () => {
      try {
        if (lastProgress.current) tell(link, lastProgress.current);
        link.session.finish();
      } catch {
        // the page is going: nothing left to tell the learner
      }
    };
    window.addEventListener("pagehide", end);
    return () => window.removeEventListener("pagehide", end);
  }, [lms, entry]);

  if (entry === null)
    return (
      <p>
        {id === "preview" ? "No lab file is open for a preview (a reload forgets it)." : `There is no lab "${id}" on this site.`} <a href="#/">All labs</a>
      </p>
    );
  if (entry && !entry.lab) return <LabErrors intro="This lab has an error:" many="This lab has errors:" error={entry.error} />;
  // undefined while the lab's text loads: the machine is started meanwhile. A seeded lab is
  // read again, once the progress says whose problem it is, with that learner's values.
  const lab = entry && session ? seededLab(entry, session.progress.identity) : entry?.lab;
  const rerun = () => {
    if (!vm || !session || !lab) return;
    lab.steps.forEach((s, i) => {
      if (!session.progress.steps[i]?.passedAt) return;
      for (const b of s.blocks) if (b.kind === "vm") b.text.split("\n").forEach((l) => vm.type(l + "\n"));
    });
    setSession({ ...session, rerun: false });
  };
  return (
    <div className={`lab-page dock-${dock}`}>
      <article className="lab-text" data-session-ms={session?.ms.toFixed(0)}>
        {lab ? (
          <>
            <h1>{lab.meta.title}</h1>
            <p className="muted">{lab.meta.time}</p>
            {lab.meta.seed.length > 0 && session && (
              <div className="muted seed-note" data-testid="seed-note" data-identity={lab.seed.identity}>
                This lab's numbers are yours: drawn for {lab.seed.identity.startsWith("anon-") ? "this browser" : `“${lab.seed.identity}”`} as you started it, so a neighbour's differ.{" "}
                <details className="seed-names">
                  {/* for a question to the instructor, whose `fslab labs key` prints them by these names */}
                  <summary>Your numbers, as the lab's file names them</summary>
                  {lab.meta.seed.map((p) => `${p.name} ${lab.seed.values[p.name]}`).join(", ")}
                </details>
              </div>
            )}
            {entry?.preview && lab.warnings.length > 0 && (
              // for the author trying a draft: what `fslab labs check` would warn of
              <div className="notice" data-testid="lab-warnings">
                <p>Warnings for the lab's author (shown in a preview only):</p>
                <ul>
                  {lab.warnings.map((w, i) => (
                    <li key={i}>{w.message}</li>
                  ))}
                </ul>
              </div>
            )}
          </>
        ) : (
          <p className="muted">Loading the lab…</p>
        )}
        {filesIssue && (
          <p className="notice" role="status" data-testid="lab-files-problem">
            {filesIssue}
          </p>
        )}
        {[lms.note, lmsNote].filter(Boolean).map((n, i) => (
          <p key={`lms-${i}`} className="notice" role="status" data-testid="lms-notice">
            {n}
          </p>
        ))}
        {session?.notices.map((n, i) => (
          <p key={i} className="notice" role="status" data-testid="lab-notice">
            {n}
          </p>
        ))}
        {session?.rerun && (
          <p className="notice">
            The machine does not hold what your passed steps made.{" "}
            <button disabled={!vm} onClick={rerun} data-testid="rerun-passed">
              Rerun the commands of the steps you passed
            </button>
          </p>
        )}
        {lab && session ? (
          <LabRunner
            lab={lab}
            progress={session.progress}
            vm={vm}
            restoredStep={session.restoredStep}
            machineGen={machineGen}
            events={events}
            clearEvents={clearEvents}
            verdicts={verdicts}
            onStepPassed={embed?.onStepPassed}
            resetRequest={embed?.resetRequest}
            machineRequest={machineAsk}
            onHold={setHold}
            onProgress={onProgress}
          />
        ) : (
          lab && <p className="muted">Looking for your progress…</p>
        )}
        {lab && !entry?.preview && <CourseNav lab={lab} />}
      </article>
      <div className="lab-work">
        {found && vmWanted && (
          <VmConsole
            onReady={onReady}
            onReadyAgain={() => setMachineGen((k) => k + 1)}
            onTrace={onTrace}
            keptTrace={keptTrace}
            onTraceRestored={onTraceRestored}
            startFrom={found.startFrom}
            onBooted={() => machineId && keepOffline(machineId)}
            onRestore={() => setMachineAsk((k) => k + 1)}
            sizes={
              <div className="dock-bar" role="group" aria-label="The terminal's size">
                {(["min", "half", "full"] as const).map((d) => (
                  <button key={d} aria-pressed={dock === d} onClick={() => setDock(d)} data-testid={`dock-${d}`}>
                    {d === "min" ? "Hide terminal" : d === "half" ? "Half screen" : "Full screen"}
                  </button>
                ))}
              </div>
            }
          />
        )}
        {found && !vmWanted && (
          <section className="vm vm-deferred" aria-label="Linux terminal">
            <button onClick={() => setVmWanted(true)} data-testid="start-vm">
              Start the Linux VM
            </button>{" "}
            <span className="muted">
              {found.startFrom
                ? `(your machine from IndexedDB: nothing to download but the emulator)`
                : `(downloads about ${((stateBytes + __V86_WASM_GZ_BYTES__) / 1e6).toFixed(1)} MB: the saved machine, and the emulator's core once)`}
            </span>
          </section>
        )}
        {found && vmWanted && <KernelLog vm={vm} />}
        {!globalThis.crossOriginIsolated && (
          <p className="muted" data-testid="not-isolated">
            This site is served without cross-origin isolation (the COOP and COEP headers): everything works, but the browser's clock, and the guest's
            with it, ticks in 100 µs steps, so the kernel's function_graph durations come out in 100 µs steps.
          </p>
        )}
        {live.dropped && (
          <p className="muted" role="status" data-testid="live-dropped">
            To keep the page's memory bounded over a long session, the oldest kernel events were let go: {live.dropped.records} records and{" "}
            {live.dropped.lines} trace lines. The views show the newest.
          </p>
        )}
        <Suspense fallback={<p className="muted">Loading the lab's views…</p>}>
          {!viewsOn && !!lab?.meta.views.length && <p className="muted">Loading the lab's views…</p>}
          {viewsOn && lab?.meta.views.map((vid) => {
            const spec = view(vid);
            if (!spec) return <p key={vid} className="error">This lab names a view "{vid}" that no topic declares.</p>;
            const View = lazyOf(spec.load);
            // kept running while it waits (it follows the kernel's events), out of sight and
            // out of reach: its figures would give the open prediction's answer away
            return (
              <div key={vid} className="view-wait" data-waiting={hold.predicts ? 1 : 0} data-testid={`view-${vid}`}>
                {hold.predicts && (
                  <p className="view-wait-note" data-testid="view-waits">
                    This panel opens once you have answered the prediction in the step (or chosen No guess): it would show the answer.
                  </p>
                )}
                <div className="view-wait-body" inert={hold.predicts} aria-hidden={hold.predicts || undefined}>
                  <View live={live} vm={vm} challengeOpen={hold.challenge} answersHeld={hold.answers} seed={session && lab.meta.seed.length ? lab.seed.values : undefined} onVerdict={(v: Verdict) => setVerdicts((o) => (o[vid]?.state === v.state && o[vid]?.detail === v.detail ? o : { ...o, [vid]: v }))} />
                </div>
              </div>
            );
          })}
        </Suspense>
      </div>
    </div>
  );
}
