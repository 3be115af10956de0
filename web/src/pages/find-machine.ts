// The learner's newest machine for a lab (their snapshot in IndexedDB, unpacked), which the lab
// page's VM starts from: looked up as the lab's route opens (App.tsx, machineAhead), beside the
// page's own chunk, and taken by the page when it renders. Started there, the lookup (12-30 ms
// in IndexedDB) was on a warm start's way to its prompt, after the page's first render.
import { newestSnapshot } from "../labs/machine-store";
import { gunzip, snapshotMismatch } from "../vm/browser/snapshot";
import type { StartFrom } from "../vm/browser/VmConsole";
import type { SeenEvent } from "../labs/expect";

/** The learner's newest machine for a lab, from IndexedDB, unpacked; or why there is none to start from. */
export interface Machine {
  startFrom: StartFrom | null;
  restoredStep: number | null;
  /** one was stored (whether or not it can come back) */
  stored: boolean;
  notice?: string;
  /** a machine left mid-step: the events its step had seen, which the step goes on with */
  stepEvents?: SeenEvent[];
}

/** Events as a stored record holds them, checked: a damaged store (or another version) may hold anything. */
function storedEvents(v: unknown): SeenEvent[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const ok = v.every((e) => e && typeof e === "object" && typeof e.event === "string" && e.fields && typeof e.fields === "object" && Object.values(e.fields).every((f) => typeof f === "string"));
  return ok ? (v as SeenEvent[]) : undefined;
}

/**
 * Looked up as soon as the page knows the lab's id, beside the lab's text: the VM's start waits
 * for this, and the text is not needed for it.
 */
export async function findMachine(labId: string): Promise<Machine> {
  let snap;
  try {
    snap = await newestSnapshot(labId);
  } catch (e) {
    return { startFrom: null, restoredStep: null, stored: false, notice: e instanceof Error ? e.message : String(e) };
  }
  if (!snap) return { startFrom: null, restoredStep: null, stored: false };
  const why = snapshotMismatch(snap);
  if (why)
    return { startFrom: null, restoredStep: null, stored: true, notice: `Your machine from step ${snap.step + 1} cannot be restored here: ${why}. The lab's own machine starts instead.` };
  try {
    // what the learner did after the machine was kept is not in it: a reload mid-step undoes
    // it, unless the page was hidden (and the shell at its prompt) before it went
    const when = snap.kind === "step" ? `as step ${snap.step + 1} began` : snap.kind === "latest" ? `as step ${snap.step + 1} passed` : `as you left the page in step ${snap.step + 1}`;
    const stepEvents = snap.kind === "left" ? storedEvents(snap.stepEvents) : undefined;
    return {
      startFrom: { state: await gunzip(snap.gz), label: `your machine from step ${snap.step + 1} (kept ${when}: commands run after that are not in it)` },
      restoredStep: snap.step,
      stored: true,
      ...(stepEvents ? { stepEvents } : {}),
    };
  } catch (e) {
    return {
      startFrom: null,
      restoredStep: null,
      stored: true,
      notice: `Your machine from step ${snap.step + 1} could not be read back (${e instanceof Error ? e.message : e}). The lab's own machine starts instead.`,
    };
  }
}

let ahead: { labId: string; machine: Promise<Machine> } | null = null;

/** Start the lookup for the lab a route opens (a read: nothing is changed by it). */
export function machineAhead(labId: string): void {
  if (ahead?.labId !== labId) ahead = { labId, machine: findMachine(labId) };
}

/**
 * The lookup started ahead for this lab, once (a page opened again later looks again: the
 * learner may have kept a newer machine since), or a new one.
 */
export function takeMachineAhead(labId: string): Promise<Machine> {
  const taken = ahead?.labId === labId ? ahead.machine : null;
  ahead = null;
  return taken ?? findMachine(labId);
}

/** Drop the lookup started ahead for this lab: another tab has kept a newer machine since (OneTab.tsx). */
export function forgetMachineAhead(labId: string): void {
  if (ahead?.labId === labId) ahead = null;
}
